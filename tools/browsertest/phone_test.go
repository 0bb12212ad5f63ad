package browsertest

import (
	"testing"
	"time"
)

// TestFitsAPhone: on a phone (390×844 CSS pixels with touch, as screen
// emulates it) nothing makes the page scroll sideways, and the draw pad is
// whole on screen, so a finger can draw on it.
func TestFitsAPhone(t *testing.T) {
	needBrowser(t)
	ctx := openOnScreen(t, startServer(t).URL, 2*time.Minute, 390, 844, true)
	wide, err := eval[[]string](ctx, `(() => {
		const w = document.documentElement.clientWidth, out = [];
		for (const e of document.querySelectorAll("body *")) {
			const r = e.getBoundingClientRect();
			if (r.right > w + 1 && !e.closest(".confusion-panel table")) out.push(e.tagName + "#" + e.id + "." + e.className);
		}
		if (document.documentElement.scrollWidth > w) out.push("the page: " + document.documentElement.scrollWidth + " px wide");
		return out.slice(0, 10);
	})()`)
	if err != nil {
		t.Fatal(err)
	}
	if len(wide) > 0 {
		t.Errorf("wider than the phone: %v", wide)
	}
	r := padRect(t, ctx)
	if r.Left < 0 || r.Left+r.Width > 390 || r.Width < 200 {
		t.Errorf("the draw pad is at %+v on a 390 px screen", r)
	}
}
