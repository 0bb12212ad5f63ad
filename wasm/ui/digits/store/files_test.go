package store

import "testing"

func TestMyDigitsRates(t *testing.T) {
	if v, ok := ParseMyDigitsRate(DefaultMyDigitsRate); !ok || v != 0.1 {
		t.Errorf("default rate %v %v", v, ok)
	}
	for _, bad := range []string{"", "0.3", "1", "abc"} {
		if _, ok := ParseMyDigitsRate(bad); ok {
			t.Errorf("%q accepted", bad)
		}
	}
}
