package digit_test

import (
	"fmt"
	"strings"

	"softmaxdemo/core/digit"
)

// An "L" drawn with white strokes on a transparent 280×280 canvas, as
// getImageData returns it, comes out 20 pixels tall and centred. Its
// strokes, 2.5 output pixels wide, get grey edges. Rows 0, 1, 26 and 27
// are blank and not shown.
func Example() {
	const w, h = 280, 280
	pix := make([]byte, 4*w*h)
	stroke := func(x0, y0, x1, y1 int) {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				copy(pix[4*(y*w+x):], []byte{255, 255, 255, 255})
			}
		}
	}
	stroke(200, 30, 225, 230)  // the upright, far to the right
	stroke(200, 205, 265, 230) // the foot

	var p digit.Preprocessor // Ink: digit.InkAlpha
	var img [digit.Pixels]uint8
	info, err := p.FromRGBA(&img, pix, w, h)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("crop %v, scale %.2f, box %v, centre (%.1f, %.1f)\n",
		info.Crop, info.Scale, info.Box, info.CX, info.CY)
	for r := 2; r < digit.Side-2; r++ {
		var b strings.Builder
		for _, v := range img[r*digit.Side : (r+1)*digit.Side] {
			b.WriteByte(" .:+#"[int(v)*5/256])
		}
		fmt.Printf("|%s|\n", b.String())
	}
	index, value := digit.AppendSparse(nil, nil, &img)
	fmt.Printf("%d non-zero pixels, first %d = %.2f\n", len(index), index[0], value[0])
	// Output:
	// crop (200,30)-(265,230), scale 0.10, box (12,3)-(19,23), centre (14.0, 14.5)
	// |                            |
	// |            +#+             |
	// |            +#+             |
	// |            +#+             |
	// |            +#+             |
	// |            +#+             |
	// |            +#+             |
	// |            +#+             |
	// |            +#+             |
	// |            +#+             |
	// |            +#+             |
	// |            +#+             |
	// |            +#+             |
	// |            +#+             |
	// |            +#+             |
	// |            +#+             |
	// |            +#+             |
	// |            +#+             |
	// |            +##:::.         |
	// |            +#####+         |
	// |            +#####+         |
	// |                            |
	// |                            |
	// |                            |
	// 72 non-zero pixels, first 96 = 0.75
}

// A "1" leaning right, drawn straight into a 28×28 image (left), comes
// out upright and centred on (14, 14) (right), its staircase edges now
// grey. Only rows and columns 6–21 are shown; the rest is blank.
func ExampleDeskew() {
	var img [digit.Pixels]uint8
	for r := 6; r < 22; r++ {
		c := 17 - (r-6)/2 // one column left every two rows
		img[r*digit.Side+c], img[r*digit.Side+c+1] = 255, 255
	}
	var out [digit.Pixels]uint8
	sk := digit.Deskew(&out, &img)
	fmt.Printf("α %.3f, centre (%.2f, %.2f) moved to (14, 14)\n", sk.Alpha, sk.CX, sk.CY)
	for r := 6; r < 22; r++ {
		var before, after strings.Builder
		for c := 6; c < 22; c++ {
			before.WriteByte(" .:+#"[int(img[r*digit.Side+c])*5/256])
			after.WriteByte(" .:+#"[int(out[r*digit.Side+c])*5/256])
		}
		fmt.Printf("|%s|  |%s|\n", before.String(), after.String())
	}
	// Output:
	// α -0.494, centre (14.50, 14.00) moved to (14, 14)
	// |           ##   |  |      .#+       |
	// |           ##   |  |       +#.      |
	// |          ##    |  |      .#+       |
	// |          ##    |  |       +#.      |
	// |         ##     |  |      .#+       |
	// |         ##     |  |       +#.      |
	// |        ##      |  |      .#+       |
	// |        ##      |  |       +#.      |
	// |       ##       |  |      .#+       |
	// |       ##       |  |       +#.      |
	// |      ##        |  |      .#+       |
	// |      ##        |  |       +#.      |
	// |     ##         |  |      .#+       |
	// |     ##         |  |       +#.      |
	// |    ##          |  |      .#+       |
	// |    ##          |  |       +#.      |
}
