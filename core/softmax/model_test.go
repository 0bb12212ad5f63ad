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

// TestConvert: a model converted to float64 and back is the same bits;
// to float32 each parameter is rounded to nearest; models of other shapes
// panic.
func TestConvert(t *testing.T) {
	m32 := randomModel[float32](rand.New(rand.NewPCG(3, 4)), 7, 1)
	m64 := New[float64](7)
	Convert(m64, m32)
	back := New[float32](7)
	Convert(back, m64)
	for i := range m32.W {
		if back.W[i] != m32.W[i] || m64.W[i] != float64(m32.W[i]) {
			t.Fatalf("W[%d]: %v to float64 %v and back %v", i, m32.W[i], m64.W[i], back.W[i])
		}
	}
	for c := range m32.B {
		if back.B[c] != m32.B[c] || m64.B[c] != float64(m32.B[c]) {
			t.Fatalf("B[%d]: %v to float64 %v and back %v", c, m32.B[c], m64.B[c], back.B[c])
		}
	}
	m64.W[0], m64.B[0] = 1+1e-9, 0.1
	Convert(back, m64)
	if back.W[0] != 1 || back.B[0] != float32(0.1) {
		t.Errorf("1+1e-9 and 0.1 to float32: %v and %v, want 1 and %v", back.W[0], back.B[0], float32(0.1))
	}
	for _, tt := range []struct {
		name string
		dst  *Model[float64]
	}{
		{"more features", New[float64](8)},
		{"fewer classes", NewClasses[float64](7, 3)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			Convert(tt.dst, m32)
		})
	}
}
