package ui

import "testing"

// TestWarmUpRuns: every step of the page's warm-up runs without panicking
// and leaves the page's own store untouched.
func TestWarmUpRuns(t *testing.T) {
	p := newPage()
	before := *p.st
	for i, step := range warmSteps() {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("warm-up step %d panicked: %v", i, r)
				}
			}()
			step()
		}()
	}
	if p.st.Status != before.Status || len(p.st.Runs) != 0 || p.st.Model != nil {
		t.Error("the warm-up changed the page's store")
	}
}
