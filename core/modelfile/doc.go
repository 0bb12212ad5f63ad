// Package modelfile saves and loads a trained softmax model, and the
// digits a person drew, as files: the model as versioned JSON (to read,
// keep and load back into the page) and as a NumPy .npz archive (to take
// to Python), "my digits" as a small dataset pack.
//
// JSON, version 2 (EncodeJSON). θ is written in the lecture notes' K×D
// layout, one row of D weights per class, so the file reads the way the
// mathematics does; every number is a float32 written with the fewest
// digits that read back to the same bits:
//
//	{"format":"softmax-regression","version":2,"features":784,"classes":10,
//	"training":{"method":"sgd","lr":0.5,"batch":100,...},
//	"theta":[
//	[θ_0,0, …, θ_0,783],
//	…
//	[θ_9,0, …, θ_9,783]],
//	"bias":[b_0, …, b_9]}
//
// The decoder also reads version 1, what softmax.Model's MarshalJSON
// writes ({"format":"softmax-regression/v1","classes","features","theta",
// "bias"}), so the files tools/train saved before still load.
//
// NumPy (EncodeNPZ). An uncompressed zip, as np.savez writes it, with two
// arrays: W.npy, D×K little-endian float32 in C order (exactly
// softmax.Model's W: W[j, c] is the weight of pixel j for class c), and
// b.npy, K float32. With x the 784 pixels scaled to [0, 1],
//
//	f = np.load("model.npz"); np.argmax(x @ f["W"] + f["b"])
//
// is the page's prediction. DecodeNPZ reads what np.savez and
// np.savez_compressed write for such arrays: .npy versions 1 to 3,
// '<f4' or '<f8' (rounded to float32), C order.
//
// My digits (EncodeDigits). Labelled 28×28 grey images drawn on the page,
// at most MaxDigits, stored as a core/dataset pack whose training set holds
// them and whose test set is empty; the file name ends in DigitsExt.
//
// Refusals. Decoders never panic. Every error they return wraps one of
// the sentinels ErrFormat, ErrVersion, ErrShape, ErrDType, ErrLayout,
// ErrNotFinite, ErrTooLarge or ErrTruncated (which also matches
// io.ErrUnexpectedEOF), and its message says what is wrong and, where it
// can, how to fix it. Sizes are checked before anything is allocated:
// the input against MaxBytes, declared shapes against MaxFeatures.
package modelfile
