package kit

import (
	"softmaxdemo/core/class"
	"softmaxdemo/core/softmax"
)

// Checksum is an FNV-1a hash of the bits of m's parameters, in hex, or ""
// for no model: two pages that trained the same run show the same
// checksum, which is how tools/browsertest compares runs bit for bit. It
// is core/class's, the class's name for a θ: the panels that show it
// compute it on every render of a run, and core, built with inlining,
// hashes 7,850 parameters without a call for each.
func Checksum(m *softmax.Model[float32]) string { return class.Checksum(m) }
