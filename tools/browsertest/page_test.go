package browsertest

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestTrainToDone(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	ctx := newBrowser(t, 3*time.Minute)
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL)); err != nil {
		t.Fatal(err)
	}
	waitState(t, ctx, 60*time.Second, "ready")
	t.Logf("ready %v after navigation", time.Since(start).Round(time.Millisecond))
	click(t, ctx, "train")
	waitState(t, ctx, 5*time.Second, "training", "done")
	waitState(t, ctx, 60*time.Second, "done")
	acc, err := strconv.ParseFloat(attr(t, ctx, "#test-accuracy", "data-value"), 64)
	if err != nil || acc < 0.85 {
		t.Errorf("test accuracy %v (%v), want at least 0.85", acc, err)
	}
	if n, _ := strconv.Atoi(attr(t, ctx, "#loss-chart", "data-points")); n < 10 {
		t.Errorf("the loss chart has %d points", n)
	}
	if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
		os.WriteFile("/tmp/page.png", png, 0o644)
	}
}
