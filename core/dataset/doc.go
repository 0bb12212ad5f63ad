// Package dataset holds labelled 28×28 grey images (MNIST), reads the
// original IDX files and encodes and decodes the compact pack format the
// page downloads.
//
// A pack holds a training set and a test set. It is a 32-byte header
// followed by a payload; integers in the header are little-endian:
//
//	offset  size  field
//	     0     4  magic "MNPK"
//	     4     2  format version: 1 or 3 (Version), see below
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
// Decode reads versions 1 and 3 and refuses any other, 2 included (a
// denser coding that no shipped file used), with an error matching
// ErrVersion that names the versions it reads.
//
// Decode allocates its output once from the header counts, after checking
// them against each other, against MaxImages and against the input size,
// and never panics: bad input gives an error.
package dataset
