// Package fmath holds the few transcendental functions the softmax engine
// needs, written so that they give the same bits on every platform.
//
// The standard library's math.Exp and math.Log use assembly on amd64 and pure
// Go on wasm; the two may differ in the last bit. A training run must give
// bit-identical weights natively and in the browser, so the engine uses these
// pure-Go versions instead. They follow FreeBSD's e_exp.c and e_log.c (as
// Go's own pure-Go fallbacks do) and are accurate to about one ulp.
//
// Every product is rounded explicitly (float64(a*b)), which forbids the
// compiler from fusing it into an FMA on platforms that have one.
package fmath

import "math"

const (
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10
	log2e = 1.44269504088896338700e+00

	// Exp overflows above expHi and underflows to 0 below expLo.
	expHi = 7.09782712893383973096e+02
	expLo = -7.08396418532264106224e+02
)

// Exp returns e**x. It returns +Inf for x above about 709.78, 0 for x below
// about -708.40 (where the result would be subnormal), and NaN for NaN.
func Exp(x float64) float64 {
	const (
		p1 = 1.66666666666666657415e-01
		p2 = -2.77777777770155933842e-03
		p3 = 6.61375632143793436117e-05
		p4 = -1.65339022054652515390e-06
		p5 = 4.13813679705723846039e-08
	)
	switch {
	case x != x:
		return x
	case x > expHi:
		return math.Inf(1)
	case x < expLo:
		return 0
	}
	// Reduce x = k·ln2 + r with |r| <= ln2/2.
	var k int
	if x < 0 {
		k = int(float64(log2e*x) - 0.5)
	} else {
		k = int(float64(log2e*x) + 0.5)
	}
	hi := x - float64(float64(k)*ln2Hi)
	lo := float64(float64(k) * ln2Lo)
	r := hi - lo
	t := float64(r * r)
	c := r - float64(t*(p1+float64(t*(p2+float64(t*(p3+float64(t*(p4+float64(t*p5)))))))))
	y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
	// Scale by 2**k. y is in [0.5, 2], so y·2**k is normal for every k that
	// survives the range checks above, except near the bottom, where two
	// steps keep each factor representable.
	if k < -1021 {
		return float64(y*pow2(k+54)) * 0x1p-54
	}
	if k > 1023 {
		return float64(y*2) * pow2(k-1)
	}
	return y * pow2(k)
}

// pow2 returns 2**k for -1022 <= k <= 1023.
func pow2(k int) float64 {
	return math.Float64frombits(uint64(k+1023) << 52)
}

// Log returns the natural logarithm of x. Log(0) is -Inf, Log(x < 0) and
// Log(NaN) are NaN, Log(+Inf) is +Inf.
func Log(x float64) float64 {
	const (
		l1 = 6.666666666666735130e-01
		l2 = 3.999999999940941908e-01
		l3 = 2.857142874366239149e-01
		l4 = 2.222219843214978396e-01
		l5 = 1.818357216161805012e-01
		l6 = 1.531383769920937332e-01
		l7 = 1.479819860511658591e-01
	)
	switch {
	case x != x || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	f1, ki := math.Frexp(x)
	if f1 < math.Sqrt2/2 {
		f1 *= 2
		ki--
	}
	f := f1 - 1
	k := float64(ki)
	s := f / (2 + f)
	s2 := float64(s * s)
	s4 := float64(s2 * s2)
	t1 := float64(s2 * (l1 + float64(s4*(l3+float64(s4*(l5+float64(s4*l7)))))))
	t2 := float64(s4 * (l2 + float64(s4*(l4+float64(s4*l6)))))
	r := t1 + t2
	hfsq := float64(0.5 * float64(f*f))
	return float64(k*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(k*ln2Lo))) - f)
}
