// Package cpuinfo names the processor a benchmark runs on, so that every
// figure it prints says which CPU it is a figure of: the same build runs
// at different speeds on different families (docs/BENCHMARKS.md names the
// machine of every figure).
package cpuinfo

import (
	"fmt"
	"os"
	"runtime"
	"strings"
)

// CPU is what /proc/cpuinfo says of the first processor.
type CPU struct {
	Model  string // "model name", such as "AMD EPYC"; GOARCH where unknown
	Family string // "cpu family", such as "25"; "" where unknown
	Number string // "model", such as "17"; "" where unknown
	Count  int    // runtime.NumCPU
}

// String describes c as "AMD EPYC (family 25, model 17), 2 CPUs", leaving
// out what is unknown.
func (c CPU) String() string {
	s := c.Model
	switch {
	case c.Family != "" && c.Number != "":
		s += fmt.Sprintf(" (family %s, model %s)", c.Family, c.Number)
	case c.Family != "":
		s += fmt.Sprintf(" (family %s)", c.Family)
	}
	if c.Count == 1 {
		return s + ", 1 CPU"
	}
	return s + fmt.Sprintf(", %d CPUs", c.Count)
}

// This describes the machine the program runs on, from /proc/cpuinfo
// where there is one (Linux).
func This() CPU {
	c := CPU{Model: runtime.GOARCH, Count: runtime.NumCPU()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		c = Parse(string(b))
		c.Count = runtime.NumCPU()
	}
	return c
}

// Parse reads the first processor's "model name", "cpu family" and
// "model" from the text of /proc/cpuinfo; a model name it lacks is
// GOARCH's (arm64's /proc/cpuinfo has none).
func Parse(text string) CPU {
	var c CPU
	for line := range strings.Lines(text) {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			if strings.TrimSpace(line) == "" && c.Model != "" {
				break // the end of the first processor
			}
			continue
		}
		v = strings.TrimSpace(v)
		switch strings.TrimSpace(k) {
		case "model name":
			if c.Model == "" {
				c.Model = v
			}
		case "cpu family":
			if c.Family == "" {
				c.Family = v
			}
		case "model":
			if c.Number == "" {
				c.Number = v
			}
		}
	}
	if c.Model == "" {
		c.Model = runtime.GOARCH
	}
	return c
}
