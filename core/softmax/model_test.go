package softmax

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestModelJSONRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	m := randomModel[float32](r, 784, 0.1)
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var back Model[float32]
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.D != m.D {
		t.Fatalf("D = %d, want %d", back.D, m.D)
	}
	for i := range m.W {
		if back.W[i] != m.W[i] {
			t.Fatalf("W[%d] = %v, want %v", i, back.W[i], m.W[i])
		}
	}
	for i := range m.B {
		if back.B[i] != m.B[i] {
			t.Fatalf("B[%d] = %v, want %v", i, back.B[i], m.B[i])
		}
	}
	theta := m.Theta(make([]float32, 784), 3)
	if !strings.Contains(string(data), `"theta":[[`) || theta[100] != m.W[100*K+3] {
		t.Error("theta is not saved class by class")
	}
}

func TestModelJSONErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"not JSON", `{`, "unexpected end"},
		{"wrong format", `{"format":"x"}`, "format"},
		{"wrong class count", `{"format":"softmax-regression/v1","classes":3,"features":1,"theta":[[0],[0],[0]],"bias":[0,0,0]}`, "classes"},
		{"short row", `{"format":"softmax-regression/v1","classes":10,"features":2,"theta":[[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0]],"bias":[0,0,0,0,0,0,0,0,0,0]}`, "row 9"},
		{"zero features", `{"format":"softmax-regression/v1","classes":10,"features":0,"theta":[[],[],[],[],[],[],[],[],[],[]],"bias":[0,0,0,0,0,0,0,0,0,0]}`, "features"},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is refused", func(t *testing.T) {
			var m Model[float32]
			err := json.Unmarshal([]byte(tt.in), &m)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

func TestInitNormalIsDeterministic(t *testing.T) {
	a, b, c := New[float32](784), New[float32](784), New[float32](784)
	a.InitNormal(rand.New(rand.NewPCG(7, 0)), 1)
	b.InitNormal(rand.New(rand.NewPCG(7, 0)), 1)
	c.InitNormal(rand.New(rand.NewPCG(8, 0)), 1)
	same, mean, sq := true, 0.0, 0.0
	for i := range a.W {
		if a.W[i] != b.W[i] {
			t.Fatal("two draws with one seed differ")
		}
		same = same && a.W[i] == c.W[i]
		mean += float64(a.W[i])
		sq += float64(a.W[i]) * float64(a.W[i])
	}
	if same {
		t.Error("two seeds give the same weights")
	}
	n := float64(len(a.W))
	mean /= n
	if v := sq/n - mean*mean; mean < -0.05 || mean > 0.05 || v < 0.9 || v > 1.1 {
		t.Errorf("mean %v and variance %v, want about 0 and 1", mean, v)
	}
}
