package protocol

import (
	"slices"
	"testing"
)

func TestKeyframes(t *testing.T) {
	tests := []struct {
		name  string
		c     Config
		m     int
		last  int   // the run's last step
		want  []int // the schedule up to last, when it is short enough to write
		check func(t *testing.T, steps []int)
	}{
		{
			name: "minibatches: powers of two and every epoch's end",
			c:    Config{BatchSize: 100, Epochs: 5}, m: 10000, last: 500,
			want: []int{0, 1, 2, 4, 8, 16, 32, 64, 100, 128, 200, 256, 300, 400, 500},
		},
		{
			name: "an epoch of a partial batch: ends at multiples of ceil(m/B)",
			c:    Config{BatchSize: 7, Epochs: 2}, m: 50, last: 16,
			want: []int{0, 1, 2, 4, 8, 16},
		},
		{
			name: "the notes' full-batch run of 1000 steps is thinned to at most 64",
			c:    Config{Method: "gd", BatchSize: 10000, Epochs: 1000}, m: 10000, last: 1000,
			check: func(t *testing.T, steps []int) {
				// 0, 1, …, 512 (11 steps) leave 52 for epoch ends: every 20th.
				if n := len(steps) + 1; n > MaxKeyframes { // and the end
					t.Errorf("%d keyframes", n)
				}
				for _, s := range []int{0, 1, 2, 512, 20, 40, 980, 1000} {
					if !slices.Contains(steps, s) {
						t.Errorf("step %d is not a keyframe: %v", s, steps)
					}
				}
				if slices.Contains(steps, 30) || slices.Contains(steps, 999) {
					t.Errorf("the schedule was not thinned: %v", steps)
				}
			},
		},
		{
			name: "B = m without the method's name is full-batch descent",
			c:    Config{BatchSize: 500, Epochs: 3}, m: 500, last: 3,
			want: []int{0, 1, 2, 3},
		},
		{
			name: "Newton's iterations are its epochs",
			c:    Config{Method: "newton", NewtonIters: 20}, m: 10000, last: 20,
			want: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20},
		},
		{
			name: "Newton's default budget of 100 iterations fits",
			c:    Config{Method: "newton"}, m: 10000, last: 100,
			check: func(t *testing.T, steps []int) {
				if n := len(steps) + 1; n > MaxKeyframes {
					t.Errorf("%d keyframes", n)
				}
			},
		},
		{
			name: "60,000 images at B = 1 for 1000 epochs stay within 64",
			c:    Config{BatchSize: 1, Epochs: 1000}, m: 60000, last: 60000 * 1000,
			check: func(t *testing.T, steps []int) {
				if n := len(steps) + 1; n > MaxKeyframes {
					t.Errorf("%d keyframes", n)
				}
				// 26 powers of two leave 36 epoch ends: every 28th.
				if !slices.Contains(steps, 28*60000) || !slices.Contains(steps, 980*60000) || slices.Contains(steps, 60000) {
					t.Errorf("epoch ends kept: %v", steps)
				}
			},
		},
		{
			name: "no epoch budget: step 0 and the powers of two",
			c:    Config{BatchSize: 10, Epochs: 0}, m: 100, last: 100,
			want: []int{0, 1, 2, 4, 8, 16, 32, 64},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := KeyframesOf(tt.c, tt.m)
			steps := k.Steps(tt.last)
			if tt.want != nil && !slices.Equal(steps, tt.want) {
				t.Errorf("keyframes %v, want %v", steps, tt.want)
			}
			if tt.check != nil {
				tt.check(t, steps)
			}
			if tt.last <= 1e5 {
				// Steps skips the gaps; Has, step by step, agrees.
				var all []int
				for s := 0; s <= tt.last; s++ {
					if k.Has(s) {
						all = append(all, s)
					}
				}
				if !slices.Equal(all, steps) {
					t.Errorf("Has says %v, Steps %v", all, steps)
				}
			}
		})
	}
}

// TestKeyframesNeverExceedTheLimit sweeps budgets and epoch lengths: with
// the run's end, a run never holds more than MaxKeyframes.
func TestKeyframesNeverExceedTheLimit(t *testing.T) {
	for _, per := range []int{1, 2, 3, 10, 100, 600, 60000} {
		for _, epochs := range []int{1, 2, 5, 63, 64, 65, 100, 200, 999, 1000} {
			k := NewKeyframes(per, epochs)
			if n := len(k.Steps(per*epochs)) + 1; n > MaxKeyframes {
				t.Errorf("%d epochs of %d steps: %d keyframes", epochs, per, n)
			}
		}
	}
}
