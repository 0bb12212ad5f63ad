package datasettest

import "testing"

func TestDefault(t *testing.T) {
	p := Default(t)
	if p.Train.Len() != 10000 || p.Test.Len() != 2000 {
		t.Fatalf("default pack holds %d training and %d test images, want 10000 and 2000", p.Train.Len(), p.Test.Len())
	}
	if err := p.Train.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(DefaultBytes(t)) == 0 {
		t.Fatal("DefaultBytes is empty")
	}
}
