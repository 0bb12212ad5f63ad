package protocol

import "softmaxdemo/core/plane"

// The fields of every message's JSON body (fields.go), in the order of
// the message's struct and named by its tags; fields that travel as bulk
// bytes (`json:"-"`) are not listed.

func (c *Config) fields(f *fields) {
	f.float("lr", &c.LearningRate, false)
	f.int("batch", &c.BatchSize, false)
	f.float("l2", &c.L2, false)
	f.int("epochs", &c.Epochs, false)
	f.uint64("seed", &c.Seed, false)
	f.bool("pin", &c.PinFirst, true)
	f.bool("initNormal", &c.InitNormal, true)
	f.float("decay", &c.Decay, true)
	f.int("decayEvery", &c.DecayEvery, true)
	f.str("method", &c.Method, true)
	f.int("newtonIters", &c.NewtonIters, true)
	f.float("gradTol", &c.GradTol, true)
	f.int("cgSteps", &c.CGSteps, true)
	f.bool("deskew", &c.Deskew, true)
	f.float("myDigitsRate", &c.MyDigitsRate, true)
}

// Commands, page → worker.

func (m *Load) fields(f *fields) {
	f.str("name", &m.Name, false)
	f.str("url", &m.URL, false)
	f.str("sha256", &m.SHA256, false)
	f.int64("bytes", &m.Bytes, false)
	f.int64("trainBytes", &m.TrainBytes, true)
	f.str("trainSha256", &m.TrainSHA256, true)
}

func (m *Train) fields(f *fields)     { f.object("config", m.Config.fields) }
func (m *Pause) fields(*fields)       {}
func (m *Step) fields(f *fields)      { f.object("config", m.Config.fields) }
func (m *Reset) fields(f *fields)     { f.object("config", m.Config.fields) }
func (m *Evaluate) fields(*fields)    {}
func (m *Warm) fields(*fields)        {}
func (m *Pace) fields(f *fields)      { f.float("stepsPerSecond", &m.StepsPerSecond, false) }
func (m *Curvature) fields(f *fields) { f.object("config", m.Config.fields) }
func (m *Workers) fields(f *fields)   { f.int("n", &m.N, false) }
func (m *PickTrain) fields(f *fields) { f.int("index", &m.Index, false) }

func (m *Hessian) fields(f *fields) {
	f.float("l2", &m.L2, false)
	f.bool("deskew", &m.Deskew, true)
}

func (m *UseModel) fields(f *fields) {
	f.object("config", m.Config.fields)
	f.int("d", &m.D, false)
}

func (m *EvaluateModel) fields(f *fields) {
	f.int("run", &m.Run, false)
	f.int("step", &m.Step, false)
	f.bool("deskew", &m.Deskew, true)
	f.int("d", &m.D, false)
}

func (m *MyDigits) fields(f *fields) { f.bytes("labels", &m.Labels) }

func (m *Apply) fields(f *fields) {
	f.object("config", m.Config.fields)
	f.uint8("label", &m.Label)
}

func (m *FindExamples) fields(f *fields) {
	f.int("true", &m.True, false)
	f.int("predicted", &m.Predicted, false)
	f.int("max", &m.Max, false)
}

func (m *Resume) fields(f *fields) {
	f.object("config", m.Config.fields)
	f.int("run", &m.Run, false)
}

// Events, worker → page.

func (m *Loading) fields(f *fields) {
	f.str("name", &m.Name, false)
	f.int64("received", &m.Received, false)
	f.int64("total", &m.Total, false)
}

func (m *Loaded) fields(f *fields) {
	f.str("name", &m.Name, false)
	f.int("train", &m.Train, false)
	f.int("test", &m.Test, false)
	f.float("ms", &m.Millis, false)
	f.str("kernel", &m.Kernel, true)
	f.str("kernelRefused", &m.KernelRefused, true)
}

func (m *Progress) fields(f *fields) {
	f.int("run", &m.Run, false)
	f.str("state", &m.State, false)
	f.str("stop", &m.Stop, true)
	f.int("epoch", &m.Epoch, false)
	f.int("epochs", &m.Epochs, false)
	f.int("step", &m.Step, false)
	f.int64("seen", &m.Seen, false)
	f.int("perEpoch", &m.PerEpoch, false)
	f.float("loss", &m.Loss, false)
	f.float("epochLoss", &m.EpochLoss, true)
	f.float("rate", &m.Rate, false)
	f.float("perSecond", &m.PerSecond, false)
	f.str("method", &m.Method, true)
	f.int("iteration", &m.Iteration, true)
	f.int("cgSteps", &m.CGSteps, true)
	f.float("gradNorm", &m.GradNorm, true)
	f.str("reason", &m.Reason, true)
	f.uint64("heap", &m.Heap, true)
	f.uint64("helpersHeap", &m.HelpersHeap, true)
}

func (m *Weights) fields(f *fields) {
	f.int("run", &m.Run, false)
	f.int("step", &m.Step, false)
	f.int("d", &m.D, false)
	f.bool("key", &m.Key, true)
}

func (m *Evaluated) fields(f *fields) {
	f.int("run", &m.Run, false)
	f.bool("keyframe", &m.Keyframe, true)
	f.float("t", &m.T, true)
	f.int("epoch", &m.Epoch, false)
	f.int("step", &m.Step, false)
	f.float("accuracy", &m.Accuracy, false)
	f.float("likelihood", &m.Likelihood, false)
	f.float("loss", &m.Loss, false)
	array(f, "confusion", m.Confusion[:], func(f *fields, row *[10]int) {
		if f.w != nil {
			f.w.OpenArray()
			for i := range row {
				intElem(f, &row[i])
			}
			f.w.CloseArray()
			return
		}
		n := 0
		f.err = f.r.Array(func() error {
			if n == len(row) {
				return f.r.Errf("a row of more than %d counts", len(row))
			}
			intElem(f, &row[n])
			n++
			return f.err
		})
		if f.err == nil && n != len(row) {
			f.err = f.r.Errf("a row of %d counts, want %d", n, len(row))
		}
	})
	array(f, "perClass", m.PerClass[:], floatElem)
}

func (m *HessianView) fields(f *fields) {
	f.int("images", &m.Images, false)
	f.int("features", &m.Features, false)
	f.int("n", &m.N, false)
	list(f, "cases", &m.Cases, false, func(f *fields, c *HessianCase) { f.element(c.fields) })
}

func (c *HessianCase) fields(f *fields) {
	f.float("lambda", &c.Lambda, false)
	f.bool("pinned", &c.Pinned, true)
	list(f, "smallest", &c.Smallest, false, floatElem)
	f.int("zero", &c.Zero, false)
	f.float("largest", &c.Largest, false)
}

func (m *Samples) fields(f *fields) { f.bytes("labels", &m.Labels) }

func (m *Failed) fields(f *fields) {
	f.str("message", &m.Message, false)
	f.str("hint", &m.Hint, true)
	f.bool("fatal", &m.Fatal, true)
	f.str("key", &m.Key, true)
	list(f, "args", &m.Args, true, strElem)
	f.bool("unloaded", &m.Unloaded, true)
}

func (m *CurvatureIs) fields(f *fields) {
	f.int("run", &m.Run, false)
	f.int("step", &m.Step, false)
	f.float("l2", &m.L2, false)
	f.bool("pin", &m.Pin, true)
	f.bool("deskew", &m.Deskew, true)
	f.float("lambdaMax", &m.LambdaMax, false)
	f.float("alphaMax", &m.AlphaMax, false)
	f.int("products", &m.Products, false)
}

func (m *Examples) fields(f *fields) {
	f.int("run", &m.Run, false)
	f.int("step", &m.Step, false)
	f.int("true", &m.True, false)
	f.int("predicted", &m.Predicted, false)
	f.int("count", &m.Count, false)
	list(f, "index", &m.Index, false, intElem)
	list(f, "probs", &m.Probs, false, float32Elem)
}

func (m *Picked) fields(f *fields) {
	f.int("index", &m.Index, false)
	f.uint8("label", &m.Label)
}

func (m *Snapshot) fields(f *fields) {
	f.int("run", &m.Run, false)
	f.int("step", &m.Step, false)
	f.int("epoch", &m.Epoch, false)
}

func (m *Heartbeat) fields(*fields) {}

// Between the training worker and the helpers of its pool.

func (m *PoolState) fields(f *fields) {
	f.int("asked", &m.Asked, false)
	f.int("running", &m.Running, false)
	f.str("refused", &m.Refused, true)
	f.int("replaced", &m.Replaced, true)
}

func (m *ShardData) fields(f *fields) {
	f.int("set", &m.Set, false)
	f.int("gen", &m.Gen, false)
	f.int("shard", &m.Shard, false)
	f.int("d", &m.D, false)
	f.int("n", &m.N, false)
}

func (m *ShardHeld) fields(f *fields) {
	f.int("set", &m.Set, false)
	f.int("gen", &m.Gen, false)
	f.int("shard", &m.Shard, false)
}

func (m *Pass) fields(f *fields) {
	f.int64("id", &m.ID, false)
	f.str("op", &m.Op, false)
	f.int("set", &m.Set, false)
	f.int("gen", &m.Gen, false)
	list(f, "shards", &m.Shards, false, intElem)
	f.int("slot", &m.Slot, true)
}

func (m *PassDone) fields(f *fields) {
	f.int64("id", &m.ID, false)
	list(f, "shards", &m.Shards, false, intElem)
	f.str("failed", &m.Failed, true)
	f.uint64("heap", &m.Heap, true)
	f.int("n32", &m.N32, true)
}

// Between the page and the plane's worker. core/plane's types carry no
// tags: their keys are their Go names, as encoding/json names them.

func settingsFields(s *plane.Settings) func(*fields) {
	return func(f *fields) {
		f.bool("Bias", &s.Bias, false)
		f.bool("Pin", &s.Pin, false)
		f.float("Lambda", &s.Lambda, false)
		f.float("Rate", &s.Rate, false)
		f.int("Batch", &s.Batch, false)
		array(f, "Start", s.Start[:], floatElem)
		f.uint64("Seed", &s.Seed, false)
		f.int("Steps", &s.Steps, false)
	}
}

func dataFields(d *plane.Data) func(*fields) {
	return func(f *fields) {
		f.int("K", &d.K, false)
		list(f, "Points", &d.Points, false, func(f *fields, p *plane.Point) {
			f.element(func(f *fields) {
				array(f, "X", p.X[:], floatElem)
				f.int("Class", &p.Class, false)
			})
		})
	}
}

// element writes or reads an object that is an element of a list.
func (f *fields) element(inner func(*fields)) {
	if f.w != nil {
		writeBody(f.w, inner)
		return
	}
	f.err = readBody(f.r, inner)
}

func (m *PlaneSetUp) fields(f *fields) {
	f.int("setup", &m.Setup, false)
	f.str("data", &m.Data, false)
	f.int("k", &m.K, false)
	f.object("settings", settingsFields(&m.Settings))
	f.bool("warm", &m.Warm, true)
}

func (m *PlaneData) fields(f *fields)    { f.str("name", &m.Name, false) }
func (m *PlaneClasses) fields(f *fields) { f.int("k", &m.K, false) }
func (m *PlaneTrain) fields(f *fields)   { f.bool("on", &m.On, false) }
func (m *PlaneRestart) fields(*fields)   {}
func (m *PlanePsi) fields(*fields)       {}
func (m *PlaneAbove) fields(f *fields)   { f.float("times", &m.Times, false) }
func (m *PlanePace) fields(f *fields)    { f.float("stepsPerSecond", &m.StepsPerSecond, false) }
func (m *PlaneGrid) fields(f *fields)    { f.int("n", &m.N, false) }

func (m *PlaneOption) fields(f *fields) {
	f.str("name", &m.Name, false)
	f.bool("on", &m.On, false)
}

func (m *PlaneNumbers) fields(f *fields) {
	f.float("rate", &m.Rate, false)
	f.float("lambda", &m.Lambda, false)
	f.int("batch", &m.Batch, false)
}

func (m *PlanePoint) fields(f *fields) {
	array(f, "at", m.At[:], floatElem)
	f.float("radius", &m.Radius, false)
	f.int("class", &m.Class, false)
	f.str("do", &m.Do, true)
}

func (m *PlaneStart) fields(f *fields) {
	array(f, "at", m.At[:], floatElem)
	f.bool("quick", &m.Quick, true)
}

func (m *PlaneTheta) fields(f *fields) {
	list(f, "w", &m.W, false, floatElem)
	list(f, "b", &m.B, false, floatElem)
	f.bool("quick", &m.Quick, true)
	f.int("hand", &m.Hand, false)
}

func (m *PlaneResume) fields(f *fields) {
	f.int("setup", &m.Setup, false)
	f.str("name", &m.Name, false)
	f.bool("edited", &m.Edited, true)
	f.object("data", dataFields(&m.Data))
	f.object("settings", settingsFields(&m.Settings))
	f.bool("training", &m.Training, true)
}

func (m *PlaneState) fields(f *fields) {
	f.int("setup", &m.Setup, false)
	f.int("seq", &m.Seq, false)
	f.str("state", &m.State, false)
	f.str("name", &m.Name, false)
	f.bool("edited", &m.Edited, true)
	f.object("data", dataFields(&m.Data))
	f.object("settings", settingsFields(&m.Settings))
	switch {
	case f.w != nil && m.Refused != nil:
		f.object("refused", m.Refused.fields)
	case f.r != nil && f.take("refused"):
		m.Refused = nil
		if !f.r.Null() {
			p := &PlaneRefusal{}
			f.err = readBody(f.r, p.fields)
			m.Refused = p
		}
	}
	f.int("psis", &m.Psis, true)
	f.bool("building", &m.Building, true)
	f.int("scenes", &m.Scenes, true)
	f.bool("chosen", &m.Chosen, true)
}

func (m *PlaneRefusal) fields(f *fields) {
	f.int("problem", &m.Problem, false)
	array(f, "x", m.X[:], strElem)
	f.int("class", &m.Class, false)
	f.str("value", &m.Value, false)
	f.int("count", &m.Count, false)
	f.str("name", &m.Name, true)
	f.str("message", &m.Message, true)
}

func (m *PlaneFrame) fields(f *fields) {
	f.int("setup", &m.Setup, false)
	f.int("seq", &m.Seq, false)
	f.str("state", &m.State, false)
	f.int("n", &m.N, false)
	f.int("hand", &m.Hand, true)
}

func (m *PlaneScene) fields(f *fields) {
	f.int("setup", &m.Setup, false)
	f.int("seq", &m.Seq, false)
	f.float("ms", &m.MS, false)
}
