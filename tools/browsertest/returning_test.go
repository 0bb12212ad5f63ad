package browsertest

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Returning visits: a tab closed and opened again in the same browser,
// and a new browser on the same profile.
var (
	// closeAfter are the times after ready at which the first tab is
	// closed: at once, and after a glance.
	closeAfter = []time.Duration{0, time.Second}
	// reopenAfter is how long after that a new tab opens the page again.
	reopenAfter = 3 * time.Second
)

// BenchmarkReturningVisit visits the page three times on one profile, as a
// student who closes the tab and opens it again, and comes back another
// day: a first visit in a tab of a fresh browser, closed at ready or a
// second after (closeAfter, a sub-benchmark each); reopenAfter later, the page again in a new tab of the same
// browser; once that tab's service worker holds the site and Chromium has
// stored V8's code for the program, the browser is closed and a new one
// opens the page on the same profile. The first visit is not traced, so
// that its tab closes as soon as the page says ready; the two returning
// visits are, from the navigation to ready, for what V8 compiled and
// whether the program came from Chromium's code cache. It reports the
// medians of each visit's time to ready (the page's clock; the tracing
// slows the returning visits, alike for every site), the functions the
// returning visits compiled on first call before ready, and how many took
// the program from the code cache; and whether the first tab's code was on
// the profile's disk as it closed (Chromium writes it there a moment after
// storing it, so "no" does not mean it was not stored).
//
// Unthrottled and with Chromium held to one core; sites as for
// BenchmarkStartProfile (BASELINE_ROOT compares with another build).
//
//	go test -run '^$' -bench ReturningVisit -benchtime 5x ./tools/browsertest/
//	BASELINE_ROOT=<today's build> go test -run '^$' -bench 'ReturningVisit/one-core/closed-0s' -benchtime 5x ./tools/browsertest/
func BenchmarkReturningVisit(b *testing.B) {
	needBrowser(b)
	sites := benchSites()
	urls := serveSites(b, sites)
	for _, m := range []cpuMode{cpuModes[0], oneCore} {
		for _, after := range closeAfter {
			b.Run(fmt.Sprintf("%s/closed-%v-after-ready", m.name, after), func(b *testing.B) {
				logMode(b, m)
				fmt.Printf("%s: the first tab closed %v after ready, a new tab %v later\n", b.Name(), after, reopenAfter)
				got := make([][3][]returnVisit, len(sites))
				rotate(b, len(sites), func(_, i int) {
					for k, v := range returningVisits(b, m, urls[i], after) {
						got[i][k] = append(got[i][k], v)
					}
				})
				reportReturningVisits(b, sites, got)
			})
		}
	}
}

// returnVisit is one visit's figures.
type returnVisit struct {
	ready      float64 // ms, the page's clock
	lazyBefore int     // functions compiled on first call before ready
	hit        bool    // the program came from the code cache
	onDisk     bool    // the code cache was on the profile's disk as the tab closed
}

// visitNames names the three visits of returningVisits.
var visitNames = [3]string{"first", "reopened", "new-browser"}

// returningVisits makes the three visits of BenchmarkReturningVisit to
// url in mode m.
func returningVisits(b *testing.B, m cpuMode, url string, closeAfter time.Duration) [3]returnVisit {
	var out [3]returnVisit
	profile := visitProfile(b)
	bctx := modeBrowser(b, m, profile, 5*time.Minute)
	alone(b, bctx)
	tab, closeTab := newTab(b, bctx)
	out[0] = untracedVisit(b, tab, url, closeAfter)
	out[0].onDisk = codeCached(profile, 0)
	closeTab()
	time.Sleep(reopenAfter)
	tab, closeTab = newTab(b, bctx)
	out[1] = tracedVisit(b, tab, url)
	// The site in the service worker's cache and the program's code in
	// the code cache, as the next day finds them.
	var sw string
	if !eventually(60*time.Second, func() bool {
		sw, _ = evalAsync[string](tab, `(async () => "controlled " + !!navigator.serviceWorker.controller + ", caches " + (await caches.keys()).join(" ") + ", program cached " + !!(await caches.match("web/app.wasm")) + " " + (await (await caches.open((await caches.keys())[0])).keys()).map(r => new URL(r.url).pathname).join(" "))()`)
		return strings.HasPrefix(sw, "controlled true") && strings.Contains(sw, "program cached true")
	}) {
		b.Fatalf("the service worker did not cache the site: %s", sw)
	}
	waitCodeCached(b, profile, 30*time.Second)
	closeTab()
	closeBrowser(b, bctx)
	ctx := modeBrowser(b, m, profile, 5*time.Minute)
	alone(b, ctx)
	out[2] = tracedVisit(b, ctx, url)
	closeBrowser(b, ctx)
	os.RemoveAll(profile)
	return out
}

// newTab opens a new tab in the browser of ctx, in front, as a person
// opens one (a tab in the background gets no frames and slow timers),
// and returns its context and the function that closes it.
func newTab(tb testing.TB, ctx context.Context) (context.Context, func()) {
	tb.Helper()
	tab, closeTab := chromedp.NewContext(ctx)
	if err := send(tab, page.BringToFront, cdp.Empty{}); err != nil {
		tb.Fatalf("bringing the new tab to the front: %v", err)
	}
	return tab, closeTab
}

// untracedVisit opens url in the tab of ctx and returns after after
// from ready.
func untracedVisit(b *testing.B, ctx context.Context, url string, after time.Duration) returnVisit {
	beforeScripts(b, ctx, fullPageView)
	probeReady(b, ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		b.Fatal(err)
	}
	waitState(b, ctx, 2*time.Minute, "ready")
	time.Sleep(after)
	return returnVisit{ready: readyAt(b, ctx)}
}

// tracedVisit opens url in the tab of ctx, traced from the navigation to
// ready.
func tracedVisit(b *testing.B, ctx context.Context, url string) returnVisit {
	beforeScripts(b, ctx, fullPageView)
	beforeScripts(b, ctx, readyMark)
	probeReady(b, ctx)
	evs := traceWhile(b, ctx, compileCategories, func() {
		if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
			b.Fatal(err)
		}
		waitState(b, ctx, 2*time.Minute, "ready")
	})
	f := figuresOf(b, evs)
	return returnVisit{ready: readyAt(b, ctx), lazyBefore: f.lazyBefore, hit: f.cacheHit}
}

// readyAt is when the page of ctx was ready, by its clock (readyProbe).
func readyAt(tb testing.TB, ctx context.Context) float64 {
	tb.Helper()
	ready, err := eval[float64](ctx, `globalThis.softmaxReadyAt`)
	if err != nil || ready <= 0 {
		tb.Fatalf("the visit's ready time: %v, %v", ready, err)
	}
	return math.Round(ready)
}

// reportReturningVisits reports each site's medians of each visit and
// their ratios to the first site's.
func reportReturningVisits(b *testing.B, sites []string, got [][3][]returnVisit) {
	var base [3]float64
	for i := range sites {
		suffix := siteSuffix(i, len(sites))
		for k, vs := range got[i] {
			ready := make([]float64, len(vs))
			lazy := make([]float64, len(vs))
			onDisk := 0
			hits := 0
			for j, v := range vs {
				ready[j], lazy[j] = v.ready, float64(v.lazyBefore)
				if v.hit {
					hits++
				}
				if v.onDisk {
					onDisk++
				}
			}
			r := upperMedian(ready)
			if i == 0 {
				base[k] = r
			}
			slices.Sort(ready)
			line := fmt.Sprintf("%s, %s visit: ready after a median of %.0f ms (%.2f× the first site's), sorted %v", sites[i], visitNames[k], r, r/base[k], ready)
			if k == 0 {
				line += fmt.Sprintf("; the code cache on the profile's disk as the tab closed in %d of %d visits", onDisk, len(vs))
			} else {
				line += fmt.Sprintf("; compiled on first call before ready %.0f functions (median); the program from the code cache in %d of %d visits", upperMedian(lazy), hits, len(vs))
			}
			benchPrintf(b, "%s", line)
			b.ReportMetric(r, "ms-to-ready-"+visitNames[k]+suffix)
			b.ReportMetric(float64(hits)/float64(len(vs)), "code-cache-hits-"+visitNames[k]+suffix)
		}
	}
}
