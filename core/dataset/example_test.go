package dataset_test

import (
	"bytes"
	"errors"
	"fmt"
	"log"

	"softmaxdemo/core/dataset"
)

// An image is appended as 784 grey levels; the pack stores only the non-zero
// ones and Decode gives them back exactly.
func Example() {
	var img [dataset.Pixels]uint8
	for r := 10; r < 18; r++ {
		img[r*dataset.Cols+14] = 255 // a vertical stroke: a "1"
	}
	train, test := dataset.NewSet(1, 8), dataset.NewSet(0, 0)
	train.Append(1, img[:])

	var buf bytes.Buffer
	if err := dataset.Encode(&buf, &dataset.Pack{Train: train, Test: test}); err != nil {
		log.Fatal(err)
	}
	p, err := dataset.Decode(buf.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	index, value := p.Train.Image(0)
	fmt.Println(buf.Len(), "bytes;", p.Train.Len(), "train image,", p.Test.Len(), "test images")
	fmt.Println("label", p.Train.Labels[0], "pixels", index[:3], "... grey", value[0])
	// Output:
	// 67 bytes; 1 train image, 0 test images
	// label 1 pixels [294 322 350] ... grey 255
}

// Callers tell a damaged download from an old pack with errors.Is.
func ExampleDecode_errors() {
	var buf bytes.Buffer
	empty := &dataset.Pack{Train: dataset.NewSet(0, 0), Test: dataset.NewSet(0, 0)}
	if err := dataset.Encode(&buf, empty); err != nil {
		log.Fatal(err)
	}
	b := buf.Bytes()

	b[len(b)-1] ^= 1 // a damaged byte
	_, err := dataset.Decode(b)
	fmt.Println(err)

	b[len(b)-1] ^= 1
	b[4] = 4 // a newer format version
	_, err = dataset.Decode(b)
	fmt.Println(errors.Is(err, dataset.ErrVersion), err)

	b[4] = 3
	b[30] ^= 1 // a corrupted checksum
	_, err = dataset.Decode(b)
	fmt.Println(errors.Is(err, dataset.ErrChecksum))
	// Output:
	// dataset: checksum mismatch: computed 5643ef8a, header says 2144df1c
	// true dataset: version 4, want 1 or 3; rebuild with `make data`
	// true
}
