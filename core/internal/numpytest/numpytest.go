// Package numpytest lets tests compare Go's numbers with NumPy's: Python
// names the interpreter with Debian's NumPy (python3-numpy), and Need
// decides whether a test can run it.
package numpytest

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
)

// Python is the interpreter with Debian's NumPy (python3-numpy).
const Python = "/usr/bin/python3"

// Need skips the test under WebAssembly (no processes) and, outside CI,
// when Python or NumPy is missing; under CI=true a missing NumPy fails the
// test.
func Need(tb testing.TB) {
	tb.Helper()
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		tb.Skip("no processes under WebAssembly: run natively to compare with NumPy")
	}
	err := exec.Command(Python, "-c", "import numpy").Run()
	if err == nil {
		return
	}
	if os.Getenv("CI") == "true" {
		tb.Fatalf("%s with NumPy is needed under CI (apt-get install -y python3-numpy): %v", Python, err)
	}
	tb.Skipf("SKIPPED: %s with NumPy is not installed (apt-get install -y python3-numpy): %v", Python, err)
}
