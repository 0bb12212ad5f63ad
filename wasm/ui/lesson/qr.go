package lesson

import (
	"errors"
	"fmt"
	"strings"

	"rsc.io/qr/coding"
)

// QR returns text as a QR code, as SVG markup: black modules on white
// with the standard quiet zone of four modules, one path, scaled by CSS.
// It uses error correction level L: a code on a projector or a screen is
// clean, and the lowest level keeps the modules largest, so that it scans
// from across a room. It returns an error for text too long for any QR
// code.
func QR(text string) (string, error) {
	code, err := encodeQR(text)
	if err != nil {
		return "", err
	}
	const quiet = 4
	n := code.Size + 2*quiet
	var path strings.Builder
	for y := range code.Size {
		for x := 0; x < code.Size; {
			if !code.Black(x, y) {
				x++
				continue
			}
			run := 1
			for x+run < code.Size && code.Black(x+run, y) {
				run++
			}
			fmt.Fprintf(&path, "M%d %dh%dv1h-%dz", x+quiet, y+quiet, run, run)
			x += run
		}
	}
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges" aria-hidden="true">`+
		`<rect width="%d" height="%d" fill="#fff"/><path d="%s" fill="#000"/></svg>`, n, n, n, n, path.String()), nil
}

// encodeQR encodes text in byte mode in the smallest version that holds it.
func encodeQR(text string) (*coding.Code, error) {
	enc := coding.String(text)
	for v := coding.Version(coding.MinVersion); v <= coding.MaxVersion; v++ {
		if enc.Bits(v) <= v.DataBytes(coding.L)*8 {
			plan, err := coding.NewPlan(v, coding.L, 0)
			if err != nil {
				return nil, err
			}
			return plan.Encode(enc)
		}
	}
	return nil, errors.New("lesson: the link is too long for a QR code")
}
