package softmax

import (
	"encoding/json"
	"fmt"
	"math"
)

// modelJSON is the saved form of a Model: θ in the lecture notes' K×D
// layout, one row per class, so the file reads the way the mathematics does.
type modelJSON struct {
	Format   string      `json:"format"`
	Classes  int         `json:"classes"`
	Features int         `json:"features"`
	Theta    [][]float64 `json:"theta"`
	Bias     []float64   `json:"bias"`
}

const jsonFormat = "softmax-regression/v1"

// MarshalJSON encodes m as {"format", "classes", "features", "theta", "bias"}
// with theta as K rows of D weights.
func (m *Model[F]) MarshalJSON() ([]byte, error) {
	out := modelJSON{Format: jsonFormat, Classes: K, Features: m.D, Theta: make([][]float64, K)}
	for c := range K {
		row := make([]float64, m.D)
		for j := range row {
			row[j] = float64(m.W[j*K+c])
		}
		out.Theta[c] = row
	}
	for _, b := range m.B {
		out.Bias = append(out.Bias, float64(b))
	}
	return json.Marshal(out)
}

// UnmarshalJSON decodes what MarshalJSON writes. It returns an error if the
// format is unknown, the shapes disagree or a value is not finite.
func (m *Model[F]) UnmarshalJSON(data []byte) error {
	var in modelJSON
	if err := json.Unmarshal(data, &in); err != nil {
		return fmt.Errorf("softmax: model: %w", err)
	}
	if in.Format != jsonFormat {
		return fmt.Errorf("softmax: model format %q, want %q", in.Format, jsonFormat)
	}
	if in.Classes != K || len(in.Theta) != K || len(in.Bias) != K {
		return fmt.Errorf("softmax: model has %d classes (%d rows, %d biases), want %d", in.Classes, len(in.Theta), len(in.Bias), K)
	}
	if in.Features < 1 || in.Features > 1<<20 {
		return fmt.Errorf("softmax: model has %d features, want 1..%d", in.Features, 1<<20)
	}
	w := make([]F, in.Features*K)
	for c, row := range in.Theta {
		if len(row) != in.Features {
			return fmt.Errorf("softmax: model row %d has %d weights, want %d", c, len(row), in.Features)
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("softmax: model weight θ[%d][%d] is %v", c, j, v)
			}
			w[j*K+c] = F(v)
		}
	}
	b := make([]F, K)
	for c, v := range in.Bias {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("softmax: model bias %d is %v", c, v)
		}
		b[c] = F(v)
	}
	m.D, m.W, m.B = in.Features, w, b
	return nil
}
