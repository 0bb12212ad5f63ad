package browsertest

import (
	"flag"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
)

var workerKills = flag.Int("worker-kills", 10, "how many times TestWorkerDiesAndRunResumes kills the training worker during one run (the issue's figure is 100)")

// keepWorkers runs in every page before its scripts: it keeps each
// training Worker the page starts in globalThis.softmaxWorkers, and each
// of the plane's (named "plane") in globalThis.softmaxPlaneWorkers, so
// that a test can terminate one as the browser would (memory pressure, a
// tab put to sleep).
const keepWorkers = `(() => {
  const W = globalThis.Worker;
  globalThis.softmaxWorkers = [];
  globalThis.softmaxPlaneWorkers = [];
  globalThis.Worker = class extends W {
    constructor(...args) {
      super(...args);
      const plane = args[1] && args[1].name === "plane";
      (plane ? globalThis.softmaxPlaneWorkers : globalThis.softmaxWorkers).push(this);
    }
  };
})();`

// TestWorkerDiesAndRunResumes: a run whose worker is terminated at random
// steps, many times (-worker-kills, 10 by default, 100 for the issue's
// figure), goes on each time without a click: the page notices within
// 5 s, a new worker takes over from the latest snapshot (#worker-notice's
// data-from is the step of the snapshot the page held), the notice says
// so, and the run ends with the model of a run never interrupted, bit for
// bit (#weights' data-checksum).
//
// The worker is terminated from the page (Worker.terminate), which the
// worker cannot tell from the browser ending it and which, like a worker
// closing itself (self.close()), sends no error event: the page notices
// by the missing heartbeat, the slower of its two ways.
func TestWorkerDiesAndRunResumes(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	kills := *workerKills
	ctx := openWith(t, time.Duration(kills)*20*time.Second+3*time.Minute, srv.URL, keepWorkers)

	// At 200 steps a second each worker trains about a second (until its
	// first snapshot) and up to 150 steps more before it dies: 3 epochs of
	// 100 steps per kill are plenty.
	epochs := strconv.Itoa(3*kills + 5)
	setField(t, ctx, "epochs", epochs)
	choose(t, ctx, "pace", "full")
	trainRun(t, ctx, 120*time.Second)
	want := attr(t, ctx, "#weights", "data-checksum")

	choose(t, ctx, "pace", "200")
	click(t, ctx, "train")
	waitState(t, ctx, 10*time.Second, "training")
	run := attr(t, ctx, "#status", "data-run")
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 23))
	num := func(sel, name string) int {
		v := attr(t, ctx, sel, name)
		if v == "" {
			return 0 // go-app leaves out an attribute of value 0
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("%s[%s]: %v; page says: %s", sel, name, err, pageText(ctx))
		}
		return n
	}
	from, slowest := 0, time.Duration(0)
	for i := range kills {
		// Kill at a random step after the worker has sent a snapshot of
		// its own, so that every worker moves the run on.
		if !eventually(30*time.Second, func() bool { return num("#worker-notice", "data-snapshot") > from }) {
			t.Fatalf("kill %d: no snapshot after step %d; page says: %s", i, from, pageText(ctx))
		}
		at := num("#status", "data-step") + 1 + r.IntN(150)
		if !eventually(30*time.Second, func() bool {
			return num("#status", "data-step") >= at || attr(t, ctx, "#status", "data-state") != "training"
		}) {
			t.Fatalf("kill %d: the run did not reach step %d; page says: %s", i, at, pageText(ctx))
		}
		if s := attr(t, ctx, "#status", "data-state"); s != "training" {
			t.Fatalf("kill %d: the run is %q before the worker died (make it longer); page says: %s", i, s, pageText(ctx))
		}
		snap := num("#worker-notice", "data-snapshot")
		if _, err := eval[bool](ctx, `globalThis.softmaxWorkers.at(-1).terminate(), true`); err != nil {
			t.Fatal(err)
		}
		killed := time.Now()
		if !eventually(10*time.Second, func() bool { return num("#worker-notice", "data-replaced") == i+1 }) {
			t.Fatalf("kill %d: the page did not replace the worker; page says: %s", i, pageText(ctx))
		}
		noticed := time.Since(killed)
		slowest = max(slowest, noticed)
		if noticed > 5*time.Second {
			t.Errorf("kill %d: the page noticed after %v, want within 5 s", i, noticed)
		}
		from = num("#worker-notice", "data-from")
		if from < snap {
			t.Errorf("kill %d: the run went on from step %d, but the page held a snapshot of step %d", i, from, snap)
		}
		if msg := attr(t, ctx, "#worker-notice", "class"); strings.Contains(msg, "empty") {
			t.Errorf("kill %d: no notice shown", i)
		}
		if !eventually(30*time.Second, func() bool {
			return attr(t, ctx, "#status", "data-state") == "training" && num("#status", "data-step") > from
		}) {
			t.Fatalf("kill %d: the run did not go on from step %d; page says: %s", i, from, pageText(ctx))
		}
		if r := attr(t, ctx, "#status", "data-run"); r != run {
			t.Fatalf("kill %d: the run became run %s, want run %s going on", i, r, run)
		}
	}
	text, _ := eval[string](ctx, `document.getElementById("worker-notice").textContent`)
	if !strings.Contains(text, "a new one took over from step "+count(from)) {
		t.Errorf("the notice says %q, want it to say from which step a new worker took over (%s)", text, count(from))
	}
	waitState(t, ctx, time.Duration(kills)*10*time.Second+60*time.Second, "done")
	if got := attr(t, ctx, "#weights", "data-checksum"); got != want {
		t.Errorf("after %d workers died, the model's checksum is %s, a run never interrupted %s", kills, got, want)
	}
	t.Logf("%d workers terminated during one run of %s epochs at 200 steps a second; the slowest was noticed after %v", kills, epochs, slowest)
}

// count writes n as the page does, with thousands separated by commas.
func count(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
