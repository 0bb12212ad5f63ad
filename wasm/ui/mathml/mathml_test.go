package mathml

import (
	"encoding/xml"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, tex, want string
	}{
		{"letters are identifiers, one each", "ab", "<mrow><mi>a</mi><mi>b</mi></mrow>"},
		{"a number with its point", "0.25", "<mn>0.25</mn>"},
		{"a minus sign is a true one", "-x", "<mrow><mo>−</mo><mi>x</mi></mrow>"},
		{"a subscript", "z_c", "<msub><mi>z</mi><mi>c</mi></msub>"},
		{"a script takes one character", "x_12", "<mrow><msub><mi>x</mi><mn>1</mn></msub><mn>2</mn></mrow>"},
		{"a grouped subscript", "θ_{c,j}", "<msub><mi>θ</mi><mrow><mi>c</mi><mo>,</mo><mi>j</mi></mrow></msub>"},
		{"sub and superscript in either order", `\theta_c^\top`, `<msubsup><mi>θ</mi><mi>c</mi><mi mathvariant="normal">⊤</mi></msubsup>`},
		{"superscript first", `x^2_i`, `<msubsup><mi>x</mi><mi>i</mi><mn>2</mn></msubsup>`},
		{"a prime", "θ'", "<msup><mi>θ</mi><mo>′</mo></msup>"},
		{"a sum takes its limits under and over", `\sum_{k=0}^{9}`, "<munderover><mo>∑</mo><mrow><mi>k</mi><mo>=</mo><mn>0</mn></mrow><mn>9</mn></munderover>"},
		{"a fraction", `\frac{1}{m}`, "<mfrac><mn>1</mn><mi>m</mi></mfrac>"},
		{"a function name", `\log p`, "<mrow><mrow><mi>log</mi><mo rspace=\"0.1667em\">\u2061</mo></mrow><mi>p</mi></mrow>"},
		{"an upright name", `\operatorname{softmax}(z)`, "<mrow><mrow><mi>softmax</mi><mo rspace=\"0.1667em\">\u2061</mo></mrow><mo>(</mo><mi>z</mi><mo>)</mo></mrow>"},
		{"assignment is one operator", "θ := θ", "<mrow><mi>θ</mi><mo>≔</mo><mi>θ</mi></mrow>"},
		{"a norm", `\|\theta\|^2`, "<mrow><mo>‖</mo><mi>θ</mi><msup><mo>‖</mo><mn>2</mn></msup></mrow>"},
		{"capital Greek is upright", `\Sigma`, `<mi mathvariant="normal">Σ</mi>`},
		{"text", `\text{if } y`, "<mrow><mtext>if </mtext><mi>y</mi></mrow>"},
		{"double-struck R", `\mathbb{R}^{784}`, `<msup><mi mathvariant="normal">ℝ</mi><mn>784</mn></msup>`},
		{"stretching delimiters", `\left( x \right)`, "<mrow><mo>(</mo><mi>x</mi><mo>)</mo></mrow>"},
		{"an empty side", `\left. x \right|`, "<mrow><mi>x</mi><mo>|</mo></mrow>"},
		{"an accent", `\hat{y}`, `<mover accent="true"><mi>y</mi><mo>^</mo></mover>`},
		{"spaces", `a\quad b`, `<mrow><mi>a</mi><mspace width="1em"></mspace><mi>b</mi></mrow>`},
		{"markup in text is escaped", `\text{<b>}`, "<mtext>&lt;b&gt;</mtext>"},
		{"nothing", "  ", "<mrow></mrow>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mustParse(t, tt.tex).Markup(); got != tt.want {
				t.Errorf("Parse(%q) = %s, want %s", tt.tex, got, tt.want)
			}
		})
	}
}

func TestParseRefuses(t *testing.T) {
	tests := []struct{ name, tex, says string }{
		{"an open group", "x_{c", "not closed"},
		{"a stray brace", "x}", "without its {"},
		{"a script without a base", "_c", "without a base"},
		{"two subscripts", "x_a_b", "two subscripts"},
		{"a missing argument", "x_", "missing"},
		{"an unknown command", `\frobnicate`, `unknown command \frobnicate`},
		{"a trailing backslash", `x\`, "at the end"},
		{"a fraction without its denominator", `\frac{1}`, "missing"},
		{"a dollar sign", "x$", "not allowed"},
		{"a blackboard letter it lacks", `\mathbb{X}`, "only R"},
		{"a delimiter that is not one", `\left x`, "takes a delimiter"},
		{"too long", strings.Repeat("x", MaxLen+1), "at most"},
		{"too deep", strings.Repeat("{", 40) + strings.Repeat("}", 40), "too deep"},
		{"not UTF-8", "x\xff", "UTF-8"},
		{"a NUL in text", "\\text{\x00}", "U+0000 is not a character"},
		{"a control character", "x\x1b", "U+001B is not a character"},
		{"a noncharacter", "x\uffff", "U+FFFF is not a character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.tex)
			if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("Parse(%.40q): %v, want ErrSyntax saying %q", tt.tex, err, tt.says)
			}
		})
	}
}

func TestPlain(t *testing.T) {
	tests := []struct{ tex, want string }{
		{`\nabla\theta_3`, "∇θ₃"},
		{`\theta_{c,j}`, "θ_(c,j)"},
		{`z_c = \theta_c^\top x + b_c`, "z_c = θ_cᵀx + b_c"},
		{`\|\theta\|^2`, "‖θ‖²"},
		{`p_y`, "p_y"},
		{`\frac{\lambda}{2}`, "λ/2"},
		{`-\log p_{3}`, "−log p₃"},
		{`\sum_{k=0}^{9} e^{z_k}`, "∑ₖ₌₀⁹e^(zₖ)"},
	}
	for _, tt := range tests {
		if got := mustParse(t, tt.tex).Plain(); got != tt.want {
			t.Errorf("Plain(%q) = %q, want %q", tt.tex, got, tt.want)
		}
	}
}

func TestSplit(t *testing.T) {
	tests := []struct {
		text string
		want []Piece
	}{
		{"no formula", []Piece{{Text: "no formula"}}},
		{"vote $x_j$ here", []Piece{{Text: "vote "}, {Math: true, Text: "x_j"}, {Text: " here"}}},
		{"$a$$b$", []Piece{{Math: true, Text: "a"}, {Math: true, Text: "b"}}},
		{"a lone $ sign", []Piece{{Text: "a lone $ sign"}}},
		{"", nil},
	}
	for _, tt := range tests {
		got := Split(tt.text)
		if len(got) != len(tt.want) {
			t.Errorf("Split(%q) = %+v, want %+v", tt.text, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("Split(%q) = %+v, want %+v", tt.text, got, tt.want)
			}
		}
	}
	if got := PlainText("the gradient $\\nabla\\theta_{3}$"); got != "the gradient ∇θ₃" {
		t.Errorf("PlainText: %q", got)
	}
}

func TestNumber(t *testing.T) {
	tests := []struct {
		v    float64
		sig  int
		want string
	}{
		{0.0831234, 3, "0.0831"},
		{2.302585, 4, "2.303"},
		{-0.5, 3, "-0.5"},
		{1.234e-5, 2, `1.2\times10^{-5}`},
		{-9.99999e-8, 2, `-1\times10^{-7}`},
		{3e7, 2, `3\times10^{7}`},
		{0, 3, "0"},
		{math.NaN(), 3, "?"},
		{123456, 3, "123456"},
	}
	for _, tt := range tests {
		got := Number(tt.v, tt.sig)
		if got != tt.want {
			t.Errorf("Number(%v, %d) = %q, want %q", tt.v, tt.sig, got, tt.want)
		}
		if _, err := Parse(got); err != nil {
			t.Errorf("Number(%v) = %q does not parse: %v", tt.v, got, err)
		}
	}
}

// mustParse parses tex, which must parse.
func mustParse(t *testing.T, tex string) *Node {
	t.Helper()
	n, err := Parse(tex)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// wellFormed reports whether markup is one well-formed XML element.
func wellFormed(markup string) error {
	d := xml.NewDecoder(strings.NewReader("<math>" + markup + "</math>"))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// text returns the text a reader of the typeset formula sees.
func text(n *Node) string {
	s := n.Text
	for _, k := range n.Kids {
		s += text(k)
	}
	return s
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`z_c = \theta_c^\top x + b_c`, `\sum_{k=0}^{9} e^{z_k}`, `\frac{\lambda}{2}\|\theta\|^2`,
		`\left( x \right)`, `\text{a}`, `x_{c`, `\mathbb{R}^{784}`, "θ' := θ - α∇"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tex string) {
		n, err := Parse(tex)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("Parse(%q): %v does not wrap ErrSyntax", tex, err)
			}
			return
		}
		if err := wellFormed(n.Markup()); err != nil {
			t.Fatalf("Parse(%q) wrote %s: %v", tex, n.Markup(), err)
		}
		if s := text(n); strings.Contains(s, `\`) && !strings.Contains(tex, `\text{`) {
			t.Fatalf("Parse(%q) shows a backslash: %q", tex, s)
		}
		_ = n.Plain()
	})
}
