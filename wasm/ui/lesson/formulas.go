package lesson

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/ui/mathml"
)

// Live holds the numbers of the page that chapters put into their
// formulas and questions; NaN (or nil, or −1 for a count) is a number
// not known yet.
type Live struct {
	Example *Shown // the chapter's digit: the gallery's, or the inspector's

	TrainN, TestN int
	Rate, Lambda  float64 // α and λ of the Train panel
	Batch         int     // B, the whole set for full-batch descent

	Loss       float64 // J of the latest epoch (or step), with the L2 term
	TestLoss   float64 // the test images' mean −log p_y
	Likelihood float64 // the geometric mean of the test images' p_y
	Accuracy   float64 // on the test images

	// PBefore and PAfter are the inspected image's p_y before and after
	// the inspector's update, with InspectRate its α.
	PBefore, PAfter, InspectRate float64
	// Stepped are p_y before and after the update the question made,
	// both 0 before it was made.
	Stepped [2]float64

	// MaxDP, DNorm and SumNorm are the redundancy chapter's: the largest
	// change of a probability and the change of ‖θ‖² when ψ was added,
	// and ‖Σ_c θ_c‖ of the current model.
	MaxDP, DNorm, SumNorm float64

	// HessianZero are the zero eigenvalues of the 7×7 problem's H with
	// λ = 0, with digit 0 pinned, and with λ > 0; −1 before H is known.
	HessianZero, HessianPinned, HessianL2 int
	HessianN                              int // its parameters

	// PlaneFrom and PlaneTo are the plane's J when its gradient descent
	// started from the line set by hand and when it ended, after
	// PlaneSteps steps; NaN until a run the question started has ended.
	PlaneFrom, PlaneTo float64
	PlaneSteps         int
}

// NoLive returns a Live that knows nothing yet.
func NoLive() Live {
	nan := math.NaN()
	return Live{Rate: nan, Lambda: nan, Loss: nan, TestLoss: nan, Likelihood: nan, Accuracy: nan,
		PBefore: nan, PAfter: nan, InspectRate: nan, MaxDP: nan, DNorm: nan, SumNorm: nan,
		HessianZero: -1, HessianPinned: -1, HessianL2: -1, PlaneFrom: nan, PlaneTo: nan}
}

// Shown is a digit a chapter shows: its label, its 784 grey levels and,
// once a model exists, its logits z and probabilities p.
type Shown struct {
	Label  int
	Pixels []byte
	Model  bool // Z and P are the model's
	Z, P   [softmax.K]float32
}

// NonZero returns how many of the digit's 784 numbers are not zero; 0
// for no digit.
func (s *Shown) NonZero() int {
	if s == nil {
		return 0
	}
	n := 0
	for _, v := range s.Pixels {
		if v != 0 {
			n++
		}
	}
	return n
}

// Predicted returns the class with the largest probability.
func (s *Shown) Predicted() int { return softmax.Argmax(&s.P) }

// Each chapter's formulas (Chapter.Formulas), in mathml.Parse's TeX.

// num formats a number for a formula, with four significant digits.
func num(x float64) string { return mathml.Number(x, 4) }

// taskFormulas returns the task chapter's formulas: the digit as 784
// numbers and its label.
func taskFormulas(v Live, words func(key string) string) []string {
	ex := v.Example
	out := []string{`x \in [0, 1]^{784},\quad y \in \{0, 1, \ldots, 9\}`}
	if ex != nil && len(ex.Pixels) == 784 {
		var vals []string
		for _, p := range ex.Pixels {
			if p != 0 && len(vals) < 3 {
				vals = append(vals, num(float64(p)/255))
			}
		}
		if len(vals) > 0 {
			out = append(out, fmt.Sprintf(`x = (0, 0, \ldots, %s, \ldots),\quad y = %d`, strings.Join(vals, ", "), ex.Label))
		}
	}
	return out
}

// modelFormulas returns the model chapter's formulas: the scores and
// probabilities, with the digit's.
func modelFormulas(v Live, words func(key string) string) []string {
	ex := v.Example
	out := []string{
		`z_c = \theta_c^\top x + b_c = \sum_{j=1}^{784} x_j \theta_{c,j} + b_c`,
		`p(y = c \mid x; \theta) = \frac{e^{z_c}}{\sum_{k=0}^{9} e^{z_k}}`,
	}
	if ex != nil && ex.Model {
		c := ex.Predicted()
		out = append(out, fmt.Sprintf(`z_{%d} = %s,\quad p(y = %d \mid x; \theta) = %s`, c, num(float64(ex.Z[c])), c, num(float64(ex.P[c]))))
	}
	return out
}

// lossFormulas returns the loss chapter's formulas: the digit's loss, J
// and the likelihood.
func lossFormulas(v Live, words func(key string) string) []string {
	ex := v.Example
	out := []string{`\ell(\theta) = -\log p(y \mid x; \theta)`}
	if ex != nil && ex.Model {
		p := float64(ex.P[ex.Label])
		out = append(out, fmt.Sprintf(`-\log p_{%d} = -\log %s = %s`, ex.Label, num(p), num(-math.Log(p))))
	}
	out = append(out,
		fmt.Sprintf(`J(\theta) = -\frac{1}{m} \sum_{i=1}^{m} \log p(y^{(i)} \mid x^{(i)}; \theta) + \frac{\lambda}{2} \|\theta\|^2 = %s`, num(v.Loss)),
		fmt.Sprintf(`\left(\prod_{i} p(y^{(i)} \mid x^{(i)}; \theta)\right)^{1/m} = %s,\quad \text{%s} = %s`, num(v.Likelihood), words("lesson.word.error"), num(1-v.Accuracy)))
	return out
}

// updateFormulas returns the update chapter's formulas: the gradient and
// the update, with the inspected image's p_y.
func updateFormulas(v Live, words func(key string) string) []string {
	ex := v.Example
	out := []string{
		`\nabla_{\theta_c} J = (p_c - y_c)\, x + \lambda \theta_c`,
		`\theta_c := \theta_c - \alpha \nabla_{\theta_c} J`,
	}
	if ex != nil && !math.IsNaN(v.PBefore) {
		out = append(out, fmt.Sprintf(`\alpha = %s:\quad p_{%d} = %s \to %s`, num(v.InspectRate), ex.Label, num(v.PBefore), num(v.PAfter)))
	}
	return out
}

// descentFormulas returns the descent chapter's formulas: the update on a
// batch, with α, B, λ and m.
func descentFormulas(v Live, words func(key string) string) []string {
	return []string{
		`\theta := \theta - \alpha \left( \frac{1}{B} \sum_{i \in \text{batch}} \nabla_\theta \ell^{(i)}(\theta) + \lambda \theta \right)`,
		fmt.Sprintf(`\alpha = %s,\quad B = %s,\quad \lambda = %s,\quad m = %s`, num(v.Rate), count(v.Batch), num(v.Lambda), count(v.TrainN)),
	}
}

// redundancyFormulas returns the redundancy chapter's formulas: why ψ
// changes no probability, and what it changes.
func redundancyFormulas(v Live, words func(key string) string) []string {
	out := []string{
		`\frac{e^{(\theta_c + \psi)^\top x}}{\sum_k e^{(\theta_k + \psi)^\top x}} = \frac{e^{\psi^\top x} e^{\theta_c^\top x}}{e^{\psi^\top x} \sum_k e^{\theta_k^\top x}} = p(y = c \mid x; \theta)`,
		`\|\theta + \psi\|^2 - \|\theta\|^2 = 2 \sum_c \theta_c^\top \psi + 10 \|\psi\|^2`,
	}
	if !math.IsNaN(v.MaxDP) {
		out = append(out, fmt.Sprintf(`\max_c |\Delta p_c| = %s,\quad \Delta \|\theta\|^2 = %s`, num(v.MaxDP), num(v.DNorm)))
	}
	return out
}

// newtonFormulas returns the newton chapter's formulas: H and Newton's
// step, with the zero eigenvalues.
func newtonFormulas(v Live, words func(key string) string) []string {
	out := []string{
		`H = \sum_i x^{(i)} x^{(i)\top} \otimes \left(\diag \mu^{(i)} - \mu^{(i)} \mu^{(i)\top}\right)`,
		`\vec(W) := \vec(W) - H^{-1} \nabla J`,
	}
	if v.HessianZero >= 0 {
		out = append(out, fmt.Sprintf(`\lambda = 0: %d,\quad \theta_0 = 0: %d,\quad \lambda > 0: %d \quad \text{%s}`,
			v.HessianZero, v.HessianPinned, v.HessianL2, words("lesson.word.zeros")))
	}
	return out
}

// handFormulas returns the hand chapter's formulas: the plane's model of
// two classes with class 0 pinned, its J, and J of the line set by hand
// and after gradient descent from it, once known.
func handFormulas(v Live, words func(key string) string) []string {
	out := []string{
		`p(y = 1 \mid x; \theta) = \frac{e^{\theta_1^\top x}}{1 + e^{\theta_1^\top x}},\quad \theta_0 = 0`,
		`J(\theta) = -\frac{1}{m} \sum_{i=1}^{m} \log p(y^{(i)} \mid x^{(i)}; \theta)`,
	}
	if !math.IsNaN(v.PlaneFrom) && !math.IsNaN(v.PlaneTo) {
		out = append(out, fmt.Sprintf(`\text{%s}: J = %s,\quad \text{%s}: J = %s`,
			words("lesson.word.byHand"), num(v.PlaneFrom), words("lesson.word.afterDescent"), num(v.PlaneTo)))
	}
	return out
}

// yoursFormulas returns the yours chapter's formulas: the prediction,
// with the test accuracy.
func yoursFormulas(v Live, words func(key string) string) []string {
	out := []string{`\hat{y} = \argmax_c\, p(y = c \mid x; \theta)`}
	if !math.IsNaN(v.Accuracy) {
		out = append(out, fmt.Sprintf(`\text{%s} = %s`, words("lesson.word.accuracy"), num(v.Accuracy)))
	}
	return out
}

// count formats a whole number for a formula, "?" for none yet.
func count(v int) string {
	if v <= 0 {
		return "?"
	}
	return strconv.Itoa(v)
}
