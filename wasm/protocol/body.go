package protocol

import "softmaxdemo/core/plane"

// The fields of every message's JSON body (fields.go), in the order of
// the message's struct and named by its tags; fields that travel as bulk
// bytes (`json:"-"`) are not listed. A message's body method writes its
// fields, or reads them into its copy of the message, which it returns.

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

func (m Load) body(f *fields) Msg {
	f.str("name", &m.Name, false)
	f.str("url", &m.URL, false)
	f.str("sha256", &m.SHA256, false)
	f.int64("bytes", &m.Bytes, false)
	f.int64("trainBytes", &m.TrainBytes, true)
	f.str("trainSha256", &m.TrainSHA256, true)
	return m
}

func (m Train) body(f *fields) Msg     { f.object("config", m.Config.fields); return m }
func (m Pause) body(*fields) Msg       { return m }
func (m Step) body(f *fields) Msg      { f.object("config", m.Config.fields); return m }
func (m Reset) body(f *fields) Msg     { f.object("config", m.Config.fields); return m }
func (m Evaluate) body(*fields) Msg    { return m }
func (m Warm) body(*fields) Msg        { return m }
func (m Pace) body(f *fields) Msg      { f.float("stepsPerSecond", &m.StepsPerSecond, false); return m }
func (m Curvature) body(f *fields) Msg { f.object("config", m.Config.fields); return m }
func (m Workers) body(f *fields) Msg   { f.int("n", &m.N, false); return m }
func (m PickTrain) body(f *fields) Msg { f.int("index", &m.Index, false); return m }

func (m Hessian) body(f *fields) Msg {
	f.float("l2", &m.L2, false)
	f.bool("deskew", &m.Deskew, true)
	return m
}

func (m UseModel) body(f *fields) Msg {
	f.object("config", m.Config.fields)
	f.int("d", &m.D, false)
	return m
}

func (m EvaluateModel) body(f *fields) Msg {
	f.int("run", &m.Run, false)
	f.int("step", &m.Step, false)
	f.bool("deskew", &m.Deskew, true)
	f.int("d", &m.D, false)
	return m
}

func (m MyDigits) body(f *fields) Msg { f.bytes("labels", &m.Labels); return m }

func (m Apply) body(f *fields) Msg {
	f.object("config", m.Config.fields)
	f.uint8("label", &m.Label)
	return m
}

func (m FindExamples) body(f *fields) Msg {
	f.int("true", &m.True, false)
	f.int("predicted", &m.Predicted, false)
	f.int("max", &m.Max, false)
	return m
}

func (m Resume) body(f *fields) Msg {
	f.object("config", m.Config.fields)
	f.int("run", &m.Run, false)
	return m
}

// Events, worker → page.

func (m Loading) body(f *fields) Msg {
	f.str("name", &m.Name, false)
	f.int64("received", &m.Received, false)
	f.int64("total", &m.Total, false)
	return m
}

func (m Loaded) body(f *fields) Msg {
	f.str("name", &m.Name, false)
	f.int("train", &m.Train, false)
	f.int("test", &m.Test, false)
	f.float("ms", &m.Millis, false)
	f.str("kernel", &m.Kernel, true)
	f.str("kernelRefused", &m.KernelRefused, true)
	return m
}

func (m Progress) body(f *fields) Msg {
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
	return m
}

func (m Weights) body(f *fields) Msg {
	f.int("run", &m.Run, false)
	f.int("step", &m.Step, false)
	f.int("d", &m.D, false)
	f.bool("key", &m.Key, true)
	return m
}

func (m Evaluated) body(f *fields) Msg {
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
		err := f.r.Array(func() error {
			if n == len(row) {
				return f.r.Errf("a row of more than %d counts", len(row))
			}
			intElem(f, &row[n])
			n++
			return f.err
		})
		if err == nil && n != len(row) {
			err = f.r.Errf("a row of %d counts, want %d", n, len(row))
		}
		f.fail(err)
	})
	array(f, "perClass", m.PerClass[:], floatElem)
	return m
}

func (m HessianView) body(f *fields) Msg {
	f.int("images", &m.Images, false)
	f.int("features", &m.Features, false)
	f.int("n", &m.N, false)
	list(f, "cases", &m.Cases, false, func(f *fields, c *HessianCase) { f.element(c.fields) })
	return m
}

func (c *HessianCase) fields(f *fields) {
	f.float("lambda", &c.Lambda, false)
	f.bool("pinned", &c.Pinned, true)
	list(f, "smallest", &c.Smallest, false, floatElem)
	f.int("zero", &c.Zero, false)
	f.float("largest", &c.Largest, false)
}

func (m Samples) body(f *fields) Msg { f.bytes("labels", &m.Labels); return m }

func (m Failed) body(f *fields) Msg {
	f.str("message", &m.Message, false)
	f.str("hint", &m.Hint, true)
	f.bool("fatal", &m.Fatal, true)
	f.str("key", &m.Key, true)
	list(f, "args", &m.Args, true, strElem)
	f.bool("unloaded", &m.Unloaded, true)
	return m
}

func (m CurvatureIs) body(f *fields) Msg {
	f.int("run", &m.Run, false)
	f.int("step", &m.Step, false)
	f.float("l2", &m.L2, false)
	f.bool("pin", &m.Pin, true)
	f.bool("deskew", &m.Deskew, true)
	f.float("lambdaMax", &m.LambdaMax, false)
	f.float("alphaMax", &m.AlphaMax, false)
	f.int("products", &m.Products, false)
	return m
}

func (m Examples) body(f *fields) Msg {
	f.int("run", &m.Run, false)
	f.int("step", &m.Step, false)
	f.int("true", &m.True, false)
	f.int("predicted", &m.Predicted, false)
	f.int("count", &m.Count, false)
	list(f, "index", &m.Index, false, intElem)
	list(f, "probs", &m.Probs, false, float32Elem)
	return m
}

func (m Picked) body(f *fields) Msg {
	f.int("index", &m.Index, false)
	f.uint8("label", &m.Label)
	return m
}

func (m Snapshot) body(f *fields) Msg {
	f.int("run", &m.Run, false)
	f.int("step", &m.Step, false)
	f.int("epoch", &m.Epoch, false)
	return m
}

func (m Heartbeat) body(*fields) Msg { return m }

// Between the training worker and the helpers of its pool.

func (m PoolState) body(f *fields) Msg {
	f.int("asked", &m.Asked, false)
	f.int("running", &m.Running, false)
	f.str("refused", &m.Refused, true)
	f.int("replaced", &m.Replaced, true)
	return m
}

func (m ShardData) body(f *fields) Msg {
	f.int("set", &m.Set, false)
	f.int("gen", &m.Gen, false)
	f.int("shard", &m.Shard, false)
	f.int("d", &m.D, false)
	f.int("n", &m.N, false)
	return m
}

func (m ShardHeld) body(f *fields) Msg {
	f.int("set", &m.Set, false)
	f.int("gen", &m.Gen, false)
	f.int("shard", &m.Shard, false)
	return m
}

func (m Pass) body(f *fields) Msg {
	f.int64("id", &m.ID, false)
	f.str("op", &m.Op, false)
	f.int("set", &m.Set, false)
	f.int("gen", &m.Gen, false)
	list(f, "shards", &m.Shards, false, intElem)
	f.int("slot", &m.Slot, true)
	return m
}

func (m PassDone) body(f *fields) Msg {
	f.int64("id", &m.ID, false)
	list(f, "shards", &m.Shards, false, intElem)
	f.str("failed", &m.Failed, true)
	f.uint64("heap", &m.Heap, true)
	f.int("n32", &m.N32, true)
	return m
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

func (m PlaneSetUp) body(f *fields) Msg {
	f.int("setup", &m.Setup, false)
	f.str("data", &m.Data, false)
	f.int("k", &m.K, false)
	f.object("settings", settingsFields(&m.Settings))
	f.bool("warm", &m.Warm, true)
	return m
}

func (m PlaneData) body(f *fields) Msg    { f.str("name", &m.Name, false); return m }
func (m PlaneClasses) body(f *fields) Msg { f.int("k", &m.K, false); return m }
func (m PlaneTrain) body(f *fields) Msg   { f.bool("on", &m.On, false); return m }
func (m PlaneRestart) body(*fields) Msg   { return m }
func (m PlanePsi) body(*fields) Msg       { return m }
func (m PlaneAbove) body(f *fields) Msg   { f.float("times", &m.Times, false); return m }
func (m PlanePace) body(f *fields) Msg    { f.float("stepsPerSecond", &m.StepsPerSecond, false); return m }
func (m PlaneGrid) body(f *fields) Msg    { f.int("n", &m.N, false); return m }

func (m PlaneOption) body(f *fields) Msg {
	f.str("name", &m.Name, false)
	f.bool("on", &m.On, false)
	return m
}

func (m PlaneNumbers) body(f *fields) Msg {
	f.float("rate", &m.Rate, false)
	f.float("lambda", &m.Lambda, false)
	f.int("batch", &m.Batch, false)
	return m
}

func (m PlanePoint) body(f *fields) Msg {
	array(f, "at", m.At[:], floatElem)
	f.float("radius", &m.Radius, false)
	f.int("class", &m.Class, false)
	f.str("do", &m.Do, true)
	return m
}

func (m PlaneStart) body(f *fields) Msg {
	array(f, "at", m.At[:], floatElem)
	f.bool("quick", &m.Quick, true)
	return m
}

func (m PlaneTheta) body(f *fields) Msg {
	list(f, "w", &m.W, false, floatElem)
	list(f, "b", &m.B, false, floatElem)
	f.bool("quick", &m.Quick, true)
	f.int("hand", &m.Hand, false)
	return m
}

func (m PlaneResume) body(f *fields) Msg {
	f.int("setup", &m.Setup, false)
	f.str("name", &m.Name, false)
	f.bool("edited", &m.Edited, true)
	f.object("data", dataFields(&m.Data))
	f.object("settings", settingsFields(&m.Settings))
	f.bool("training", &m.Training, true)
	return m
}

func (m PlaneState) body(f *fields) Msg {
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
			f.fail(readObject(f.r, p.fields))
			m.Refused = p
		}
	}
	f.int("psis", &m.Psis, true)
	f.bool("building", &m.Building, true)
	f.int("scenes", &m.Scenes, true)
	f.bool("chosen", &m.Chosen, true)
	return m
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

func (m PlaneFrame) body(f *fields) Msg {
	f.int("setup", &m.Setup, false)
	f.int("seq", &m.Seq, false)
	f.str("state", &m.State, false)
	f.int("n", &m.N, false)
	f.int("hand", &m.Hand, true)
	return m
}

func (m PlaneScene) body(f *fields) Msg {
	f.int("setup", &m.Setup, false)
	f.int("seq", &m.Seq, false)
	f.float("ms", &m.MS, false)
	return m
}
