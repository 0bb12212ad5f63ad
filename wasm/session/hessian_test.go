package session

import (
	"testing"

	"softmaxdemo/wasm/protocol"
)

// TestHessianViewShowsTheNullSpace: on the synthetic pack's 7×7 images,
// the Hessian at λ = 0 has one zero eigenvalue per feature plus nine per
// pixel blank in every image; pinning leaves nine per blank pixel; λ > 0
// leaves only the bias's ψ.
func TestHessianViewShowsTheNullSpace(t *testing.T) {
	h, _ := loaded(t, 300)
	h.send(protocol.Hessian{L2: 1e-3})
	_, v := untilType[protocol.HessianView](h)
	if v.N != 500 || len(v.Image) != 500*500 || len(v.Cases) != 3 {
		t.Fatalf("view of %d parameters, %d pixels, %d cases", v.N, len(v.Image), len(v.Cases))
	}
	plain, pinned, l2 := v.Cases[0], v.Cases[1], v.Cases[2]
	blank := (plain.Zero - 50) / 9
	if plain.Zero != 50+9*blank || blank < 0 {
		t.Errorf("λ = 0: %d zero eigenvalues, not 50 + 9 × blank pixels", plain.Zero)
	}
	if pinned.Zero != 9*blank {
		t.Errorf("pinned: %d zero eigenvalues, want %d (nine per blank pixel)", pinned.Zero, 9*blank)
	}
	if l2.Zero != 1 || l2.Lambda != 1e-3 {
		t.Errorf("λ = %g: %d zero eigenvalues, want 1 (the bias's ψ)", l2.Lambda, l2.Zero)
	}
	if l2.Smallest[1] < 1e-6*l2.Largest {
		t.Errorf("λ = 1e-3: the smallest eigenvalue after ψ_b is %g, of a largest %g", l2.Smallest[1], l2.Largest)
	}
	// The image is symmetric, like H.
	for i := 0; i < 500; i += 37 {
		for k := 0; k < 500; k += 41 {
			if v.Image[i*500+k] != v.Image[k*500+i] {
				t.Fatalf("image not symmetric at %d, %d", i, k)
			}
		}
	}
}
