package panels

import "testing"

// TestWarmUpRuns: every step of the page's warm-up runs without panicking
// and still leads through the code it is there to compile (each step
// checks what it made and returns an error otherwise).
func TestWarmUpRuns(t *testing.T) {
	steps := WarmSteps()
	if len(steps) < 5 {
		t.Fatalf("%d warm-up steps, want the wire form, the store, the chart, the gallery and the components", len(steps))
	}
	for i, step := range steps {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("warm-up step %d panicked: %v", i, r)
				}
			}()
			if err := step(); err != nil {
				t.Errorf("warm-up step %d: %v", i, err)
			}
		}()
	}
}
