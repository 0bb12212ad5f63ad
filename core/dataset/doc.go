// Package dataset holds labelled 28×28 grey images (MNIST), reads the
// original IDX files and encodes and decodes the compact pack format the
// page downloads.
//
// A pack holds a training set and a test set. It is a 32-byte header
// followed by a payload; integers in the header are little-endian:
//
//	offset  size  field
//	     0     4  magic "MNPK"
//	     4     2  format version: 1, 2 or 3 (Version), see below
//	     6     1  rows, 28
//	     7     1  columns, 28
//	     8     4  train images, at most MaxImages
//	    12     4  test images, at most MaxImages
//	    16     4  train non-zero pixels, at most 784 per image
//	    20     4  test non-zero pixels, at most 784 per image
//	    24     4  payload length in bytes (everything after the header)
//	    28     4  CRC-32 (IEEE) of bytes 0–27 followed by the payload
//	    32     -  payload; in version 1:
//	              labels        1 byte per image (0–9): train, then test
//	              run headers   per image, train then test: the number of
//	                            runs, then for each run the number of zero
//	                            pixels before it and its length, as uvarints
//	              grey levels   the non-zero pixels (1–255) of every image,
//	                            in row-major order: train, then test
//
// A run is a maximal sequence of consecutive non-zero pixels in row-major
// order (it may wrap onto the next row). The length of the run headers is
// the payload length minus the image and non-zero pixel counts. Keeping the
// grey levels apart from the run headers makes the file compress better
// (with gzip -9, 1.7 MB instead of 1.9 MB for 12,000 MNIST images), and lets
// Decode copy each set's grey levels with a single copy.
//
// Version 3, which tools/mnistpack writes, has the same header and keeps
// the training images in a prefix of the file, with a checksum of their
// own, so that a page can decode them and start training while the test
// images are still arriving (TrainPrefix, DecodeTrain):
//
//	offset  size  field (from the start of the payload)
//	     0     4  train part length T, little-endian
//	     4     4  CRC-32 (IEEE) of header bytes 0–27, payload bytes 0–3
//	              and the train part
//	     8     T  train part: the training images laid out as a version 1
//	              payload lays out both sets: labels, run headers, grey
//	              levels
//	   8+T     -  test part: the same for the test images
//
// The header's CRC-32 covers the whole payload, as in every version.
//
// Version 2 has the same header; its payload codes the same images and
// labels with static context models and a rANS coder (12-bit frequencies,
// 32-bit state kept in [2^23, 2^31), bytes read first to last):
//
//	tables  710 frequency tables, in order: label (10 symbols), top row of
//	        the image's box of non-zero pixels (0–27, or 28: no pixel),
//	        row count − 1, left column, column count − 1 (28 symbols each),
//	        pixel bucket (17 symbols) in 625 contexts, low bits (16
//	        symbols) in 80 contexts. Each table is a uvarint count of its
//	        symbols with a non-zero frequency (0: unused), then per symbol
//	        the uvarint gap from the previous one (+1) and the uvarint
//	        frequency, 1–4064; a used table sums to 4096
//	stream  the coder's initial state, 4 bytes big-endian, then the bytes
//	        it reads; it ends with the state 2^23, every byte read
//
// Per image, train then test, the stream holds the label, the top row and,
// unless the image is blank, the row count, left column and column count;
// then each pixel of the box, row by row: its bucket, 0 for zero or k for
// grey 16(k−1)+1 … 16k, in the context of the levels (0–4: zero, grey
// 1–80, 81–160, 161–240, 241–255) of its neighbours W, N, NW and NE
// (zero outside the box); for a non-zero pixel then its low bits,
// (grey−1) mod 16, in the context of its bucket and W's level. A pixel
// of grey 256 is an error (ErrStream), as is a stream that ends early, a
// symbol from an unused table, a box outside the image, or a wrong final
// state. The header's counts are checked against the payload length before
// anything is allocated: a symbol costs at least log2(4096/4064) bits, so a
// payload of p bytes cannot hold more than 512·(p+8) images and non-zero
// pixels.
//
// Decode allocates its output once from the header counts, after checking
// them against each other, against MaxImages and against the input size,
// and never panics: bad input gives an error.
package dataset
