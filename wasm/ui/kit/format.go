package kit

import (
	"strconv"
	"strings"
)

// Numbers in data attributes are written so that they read back as the
// same value, for tests and tools that compare them; numbers for people
// are formatted by i18n, the same in both languages.

// Exact32 formats v so that it reads back as the same float32.
func Exact32(v float32) string { return strconv.FormatFloat(float64(v), 'g', -1, 32) }

// Exact64 formats v so that it reads back as the same float64 (go-app
// writes a float64 attribute with four decimals).
func Exact64(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// ExactList is Exact32 of each of v, comma-separated.
func ExactList(v []float32) string {
	s := make([]string, len(v))
	for i, f := range v {
		s[i] = Exact32(f)
	}
	return strings.Join(s, ",")
}

// Prob formats a probability, or p − y, with four significant digits.
func Prob(v float32) string { return strconv.FormatFloat(float64(v), 'g', 4, 64) }

// Small formats a small change with three significant digits: 3.91e-07.
func Small(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }

// YesNo is a flag as an attribute's value: go-app writes a value of
// "true" as a bare attribute, whose value reads as "".
func YesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}
