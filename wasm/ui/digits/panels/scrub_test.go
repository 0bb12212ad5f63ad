package panels

import (
	"testing"

	"softmaxdemo/wasm/ui/digits/store"
)

// TestScrubTo: a position of the slider is a keyframe of the run it shows,
// but the current run's last, which is its live end; anything else is no
// position.
func TestScrubTo(t *testing.T) {
	current := store.ScrubView{Run: 3, Steps: []int{0, 1, 2, 4, 8, 13}, Live: true, Current: true}
	other := store.ScrubView{Run: 2, Steps: []int{0, 1, 2, 4, 100}}
	tests := []struct {
		name  string
		v     store.ScrubView
		value string
		want  store.Scrub
		ok    bool
	}{
		{"a keyframe of the current run", current, "4", store.Scrub{Run: 3, Back: true, Step: 8}, true},
		{"the current run's end is live", current, "5", store.Scrub{Run: 3}, true},
		{"another run's end is its last keyframe", other, "4", store.Scrub{Run: 2, Back: true, Step: 100}, true},
		{"past the end", other, "5", store.Scrub{}, false},
		{"not a number", current, "", store.Scrub{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, ok := scrubTo(tt.v, tt.value); got != tt.want || ok != tt.ok {
				t.Errorf("scrubTo(%q) = %+v, %v; want %+v, %v", tt.value, got, ok, tt.want, tt.ok)
			}
		})
	}
}
