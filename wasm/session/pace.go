package session

import (
	"math"
	"strconv"
	"time"
)

// pacer slows training to a number of steps per second, so a class can
// watch the loss fall and the templates form, without changing what a
// step does: the same run takes the same steps, only later. At rate 0 it
// does nothing, and the loop runs at full speed, as the benchmarks do.
type pacer struct {
	rate  float64   // steps per second; 0 means full speed
	start time.Time // when the current stretch of paced steps began
	taken int       // steps taken since start
}

// maxPace is the fastest pace accepted; faster is full speed.
const maxPace = 10000

// setPace handles Pace: rate steps a second from now on, 0 for full speed.
func (s *session) setPace(rate float64) {
	if math.IsNaN(rate) || math.IsInf(rate, 0) || rate < 0 || rate > maxPace {
		s.failKey("err.pace", "", formatFloat(rate))
		return
	}
	s.pace.rate = rate
	s.pace.restart(s.env.Now())
}

// restart begins a new stretch at now: the next step is due at once.
func (p *pacer) restart(now time.Time) { p.start, p.taken = now, 0 }

// took counts one step taken.
func (p *pacer) took() { p.taken++ }

// due returns how many steps may be taken at now (0 if the next is not
// due yet), or -1 at full speed. After a stall (a busy tab), it allows at
// most a tenth of a second's worth at once, then keeps the pace from
// there: a class sees steady progress, not a burst.
func (p *pacer) due(now time.Time) int {
	if p.rate <= 0 {
		return -1
	}
	n := int(now.Sub(p.start).Seconds()*p.rate) + 1 - p.taken
	if limit := max(1, int(p.rate/10)); n > limit {
		p.taken += n - limit
		n = limit
	}
	return max(n, 0)
}

// wait returns how long to wait at now before the next step is due; 0 if
// it is due, or at full speed.
func (p *pacer) wait(now time.Time) time.Duration {
	if p.rate <= 0 || p.due(now) > 0 {
		return 0
	}
	next := p.start.Add(time.Duration(float64(p.taken) / p.rate * float64(time.Second)))
	return max(next.Sub(now), time.Millisecond)
}

// showEvery reports whether every slice's progress should be sent at
// once: when slowed to a pace a person can follow step by step.
func (p *pacer) showEvery() bool { return p.rate > 0 && p.rate <= 25 }

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
