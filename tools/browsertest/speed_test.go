package browsertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkTrainToDone times, in the page, from pressing Train to the
// state "done" (the page's own clock, performance.now(), at the click and
// at the attribute's change), for the runs of docs/BENCHMARKS.md's "Every
// core" table, at full pace on the default pack:
//
//   - newton: Newton's method at λ = 1e-4 (the page's stopping rule);
//   - lecture: the lecture notes' replay (the preset: 1000 full-batch steps);
//   - gd200: 200 full-batch gradient-descent steps;
//   - gd50full: 50 of them on the full pack (60,000 images), where the
//     manifest lists it (make data-full);
//
// each with 1 and 2 workers (BENCH_WORKERS, comma-separated, to change
// them). Every round runs every case once, in a rotating order, so that
// the machine's noise falls on all alike; with PAGE_READY_SITES (site
// roots, comma-separated: another commit's build, say) every site too,
// and a site without the pool ignores workers=. It reports each median in
// ms and, per case, the ratio of 1 worker's to each other count's, and of
// the first site's to each other site's.
//
//	go test -run '^$' -bench TrainToDone -benchtime 5x ./tools/browsertest/
//	PAGE_READY_SITES=/tmp/old,$PWD go test -run '^$' -bench 'TrainToDone/lecture' -benchtime 5x ./tools/browsertest/
func BenchmarkTrainToDone(b *testing.B) {
	sites, urls := benchStart(b)
	workers := []int{1, 2}
	if s := os.Getenv("BENCH_WORKERS"); s != "" {
		workers = nil
		for _, w := range strings.Split(s, ",") {
			n, err := strconv.Atoi(w)
			if err != nil {
				b.Fatalf("BENCH_WORKERS=%s", s)
			}
			workers = append(workers, n)
		}
	}
	cases := []struct {
		name, link, preset string
	}{
		{"newton", "method=newton&l2=0.0001&pace=full&lang=en", ""},
		{"lecture", "pace=full&lang=en", "lecture"},
		{"gd200", "method=gd&lr=0.5&l2=0.0001&epochs=200&pace=full&lang=en", ""},
	}
	if m, err := os.ReadFile(filepath.Join(root, "web/data/manifest.json")); err == nil && strings.Contains(string(m), `"full.mnpk"`) {
		cases = append(cases, struct{ name, link, preset string }{"gd50full", "method=gd&lr=0.5&l2=0.0001&epochs=50&pace=full&lang=en&data=full", ""})
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			type variant struct {
				site, workers int
			}
			var vs []variant
			for s := range sites {
				for _, w := range workers {
					vs = append(vs, variant{s, w})
				}
			}
			took := make([][]float64, len(vs))
			acc := make([]string, len(vs))
			rotate(b, len(vs), func(_, i int) {
				v := vs[i]
				ctx := openReady(b, fmt.Sprintf("%s/#%s&workers=%d", strings.TrimSuffix(urls[v.site], "/"), c.link, v.workers))
				alone(b, ctx)
				if c.preset != "" {
					choose(b, ctx, "preset", c.preset)
					choose(b, ctx, "pace", "full")
				}
				if !eventually(30*time.Second, func() bool {
					w := attr(b, ctx, "#workers", "data-value")
					return w == strconv.Itoa(v.workers) || w == "<missing>" // a build without the pool
				}) {
					b.Fatalf("the pool did not reach %d workers", v.workers)
				}
				ms := timeToDone(b, ctx)
				took[i] = append(took[i], ms)
				acc[i] = attr(b, ctx, "#test-accuracy", "data-value")
				closeBrowser(b, ctx)
			})
			med := map[variant]float64{}
			for i, v := range vs {
				med[v] = upperMedian(took[i])
			}
			for i, v := range vs {
				m := med[v]
				name := fmt.Sprintf("ms/site%d-workers%d", v.site+1, v.workers)
				if len(sites) == 1 {
					name = fmt.Sprintf("ms/workers%d", v.workers)
				}
				b.ReportMetric(m, name)
				line := fmt.Sprintf("%s, site %d, %d workers: median %.0f ms of %.0f, test accuracy %s", c.name, v.site+1, v.workers, m, took[i], acc[i])
				if v.workers != workers[0] {
					line += fmt.Sprintf("; %.2f× as fast as %d workers", med[variant{v.site, workers[0]}]/m, workers[0])
				}
				if v.site > 0 {
					line += fmt.Sprintf("; %.2f× as fast as site 1", med[variant{0, v.workers}]/m)
				}
				b.Log(line)
			}
		})
	}
}

// timeToDone presses Train and returns the ms from the click to the state
// "done", by the page's clock.
func timeToDone(b testing.TB, ctx context.Context) float64 {
	b.Helper()
	end := runEnd(b, ctx, 5*time.Minute, true)
	if end.State != "done" {
		b.Fatalf("the run ended %q; page says: %s", end.State, pageText(ctx))
	}
	return end.MS
}
