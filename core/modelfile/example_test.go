package modelfile_test

import (
	"bytes"
	"errors"
	"fmt"

	"softmaxdemo/core/modelfile"
	"softmaxdemo/core/softmax"
)

func Example() {
	m := softmax.New[float32](784)
	m.W[300*softmax.K+7] = 0.25 // pixel 300's weight for digit 7
	m.B[1] = -1e-45             // the smallest subnormal float32, negated

	var buf bytes.Buffer
	if err := modelfile.EncodeJSON(&buf, m, modelfile.Info{Method: "sgd", Epochs: 5}); err != nil {
		fmt.Println(err)
		return
	}
	f, err := modelfile.Decode(buf.Bytes(), 784)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Format, f.Version, f.Info.Method, f.Info.Epochs, f.Model.W[300*softmax.K+7], f.Model.B[1])

	buf.Reset()
	if err := modelfile.EncodeNPZ(&buf, m); err != nil {
		fmt.Println(err)
		return
	}
	f, err = modelfile.Decode(buf.Bytes(), 784)
	fmt.Println(f.Format, buf.Len(), err)
	// Output:
	// json 2 sgd 5 0.25 -1e-45
	// npz 31850 <nil>
}

func ExampleDecode_errors() {
	_, err := modelfile.Decode([]byte(`{"format":"softmax-regression","version":3}`), 784)
	fmt.Println(errors.Is(err, modelfile.ErrVersion))
	fmt.Println(err)
	// Output:
	// true
	// modelfile: unsupported version: version 3, this code reads 1 and 2: a newer page or tools/train wrote it; update this one (reload the page, git pull)
}
