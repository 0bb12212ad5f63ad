// Package digit turns the pixels of a drawing canvas into a 28×28 grey image
// prepared the way MNIST's digits were, so that a model trained on MNIST
// reads a drawn digit as it would read one from the data set.
//
// LeCun, Cortes and Burges made MNIST from NIST's binary digit images: each
// digit was size-normalised to fit a 20×20 box while preserving its aspect
// ratio, which left grey levels from the anti-aliasing of the normalisation,
// and was then centred in a 28×28 field by translating its centre of mass
// to the centre of the field. A linear model has no translation or scale
// invariance of its own, so a raw canvas scaled down to 28×28 is misread:
// the digit is too small, off-centre, or stretched. Preprocessor repeats
// the recipe on a canvas of any size:
//
//  1. ink: each pixel becomes an ink level 0..255, taken from the alpha
//     channel, from light strokes on a dark canvas, or from dark strokes on
//     a light canvas (see Ink);
//  2. crop: the bounding box of the pixels whose ink reaches a threshold,
//     so faint anti-aliasing dust does not widen the box;
//  3. scale: the box is resized by one factor in both directions so that
//     its longer side is Box (20) pixels, averaging the ink over each output
//     pixel's area (a box filter), which keeps grey levels and total ink
//     (times the squared scale) instead of thresholding; a thin "1" stays a
//     thin stroke and is not stretched into a blob;
//  4. centre: the centre of mass of the 20×20 result is moved, by a whole
//     number of pixels (rounded, as MNIST did), to the centre of the 28×28
//     image, clamped so the digit stays inside the frame;
//  5. deskew, only if Preprocessor.Deskew is set: the rows are slid
//     sideways so that the ink's x–y covariance is zero, with the centre
//     of mass kept (see Deskew), as the data set is straightened by
//     DeskewSet when a model is trained on deskewed digits.
//
// One guard goes beyond MNIST: a box smaller than MinSide canvas pixels is
// scaled as if it were MinSide, so a tap or a dot stays a small dot rather
// than being blown up to fill 20×20.
//
// Coordinates in the output are continuous: pixel (r, c) covers
// [c, c+1) × [r, r+1), so its centre is (c+0.5, r+0.5) and the centre of
// the 28×28 image is (14, 14). Images are row-major: pixel (r, c) is at
// index r*Side+c.
package digit

// Geometry of the output.
const (
	Side   = 28          // the output is Side×Side pixels
	Pixels = Side * Side // 784
	Box    = 20          // the digit's longer side, in output pixels
)
