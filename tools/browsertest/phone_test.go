package browsertest

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestFitsAPhone: on a phone's screen (390 CSS pixels wide) nothing makes
// the page scroll sideways, and the draw pad is whole on screen, so a
// finger can draw on it.
func TestFitsAPhone(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	ctx := newBrowser(t, 2*time.Minute)
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetDeviceMetricsOverride,
			emulation.SetDeviceMetricsOverrideParams{Width: 390, Height: 844, DeviceScaleFactor: 3, Mobile: true})
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL)); err != nil {
		t.Fatal(err)
	}
	waitState(t, ctx, 60*time.Second, "ready")
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
