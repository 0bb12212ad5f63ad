package mathml

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxLen is the longest formula Parse reads.
const MaxLen = 4096

// maxDepth bounds the nesting of groups and scripts.
const maxDepth = 32

// ErrSyntax is returned, wrapped with where and why, for a formula Parse
// cannot read.
var ErrSyntax = errors.New("mathml: bad formula")

// Parse reads a formula in the part of TeX the notes use and returns it
// as an mrow (or its one element):
//
//   - letters are identifiers (mi), one each, as in TeX: "ab" is a times b;
//     digits, with a decimal point, are numbers (mn); any other character
//     is an operator (mo), "-" as a true minus sign and ":=" as one;
//   - x_i, x^2, x_i^2 and x' are scripts; {…} groups;
//   - \alpha … \omega and \Gamma … \Omega, \nabla, \ell, \infty, \partial,
//     \top are identifiers; \cdot \times \odot \otimes \le \ge \ne \approx
//     \in \to \pm \mid \ldots \cdots \langle \rangle \| \{ \} are operators;
//   - \sum and \prod take their limits under and over; \log \exp \max \min
//     \argmax \diag \vec \softmax are function names, \operatorname{…} and
//     \mathrm{…} any other upright name, \mathbb{R} a double-struck letter;
//   - \frac{a}{b}, \sqrt{a}, \hat{a}, \bar{a}, \tilde{a}, \text{…},
//     \quad \qquad \, \; and \left( … \right) (whose delimiters stretch).
//
// Anything else is an error wrapping ErrSyntax; Parse never panics.
func Parse(tex string) (*Node, error) {
	if len(tex) > MaxLen {
		return nil, fmt.Errorf("%w: %d bytes, at most %d", ErrSyntax, len(tex), MaxLen)
	}
	if !utf8.ValidString(tex) {
		return nil, fmt.Errorf("%w: not UTF-8", ErrSyntax)
	}
	if i := strings.IndexFunc(tex, notXML); i >= 0 {
		r, _ := utf8.DecodeRuneInString(tex[i:])
		return nil, fmt.Errorf("%w: at byte %d: %U is not a character a page can show", ErrSyntax, i, r)
	}
	p := &parser{s: tex}
	kids, err := p.list(0, false)
	if err != nil {
		return nil, err
	}
	if len(kids) == 0 {
		return elem("mrow"), nil
	}
	return row(kids), nil
}

// notXML reports a rune XML 1.0 cannot carry (a control character other
// than tab, newline and carriage return, or U+FFFE and U+FFFF): a page
// built from the markup would not show it, and NUL ends the parser's
// input (peek).
func notXML(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF
}

type parser struct {
	s   string
	pos int
}

func (p *parser) fail(format string, args ...any) error {
	return fmt.Errorf("%w: at byte %d of %q: %s", ErrSyntax, p.pos, p.s, fmt.Sprintf(format, args...))
}

func (p *parser) peek() rune {
	if p.pos >= len(p.s) {
		return 0
	}
	r, _ := utf8.DecodeRuneInString(p.s[p.pos:])
	return r
}

func (p *parser) next() rune {
	r, n := utf8.DecodeRuneInString(p.s[p.pos:])
	p.pos += n
	return r
}

func (p *parser) skipSpace() {
	for p.pos < len(p.s) && unicode.IsSpace(p.peek()) {
		p.next()
	}
}

// list reads atoms with their scripts until the end, or a closing brace
// when inGroup; it consumes that brace.
func (p *parser) list(depth int, inGroup bool) ([]*Node, error) {
	if depth > maxDepth {
		return nil, p.fail("nested too deep")
	}
	var out []*Node
	for {
		p.skipSpace()
		if p.pos >= len(p.s) {
			if inGroup {
				return nil, p.fail("a { is not closed")
			}
			return out, nil
		}
		switch p.peek() {
		case '}':
			if !inGroup {
				return nil, p.fail("a } without its {")
			}
			p.next()
			return out, nil
		case '_', '^', '\'':
			return nil, p.fail("a script without a base")
		}
		atom, err := p.atom(depth)
		if err != nil {
			return nil, err
		}
		if atom == nil {
			continue // \left. and the like
		}
		atom, err = p.scripts(atom, depth)
		if err != nil {
			return nil, err
		}
		out = append(out, atom)
	}
}

// scripts attaches any _, ^ and primes that follow base.
func (p *parser) scripts(base *Node, depth int) (*Node, error) {
	var sub, sup *Node
	primes := 0
	for {
		p.skipSpace()
		switch c := p.peek(); c {
		case '_', '^':
			p.next()
			arg, err := p.arg(depth + 1)
			if err != nil {
				return nil, err
			}
			if c == '_' {
				if sub != nil {
					return nil, p.fail("two subscripts")
				}
				sub = arg
			} else {
				if sup != nil || primes > 0 {
					return nil, p.fail("two superscripts")
				}
				sup = arg
			}
			continue
		case '\'':
			if sup != nil {
				return nil, p.fail("a prime after a superscript")
			}
			p.next()
			primes++
			continue
		}
		break
	}
	if primes > 0 {
		sup = token("mo", strings.Repeat("′", primes))
	}
	limits := base.Tag == "mo" && (base.Text == "∑" || base.Text == "∏")
	switch {
	case sub != nil && sup != nil && limits:
		return elem("munderover", base, sub, sup), nil
	case sub != nil && limits:
		return elem("munder", base, sub), nil
	case sup != nil && limits:
		return elem("mover", base, sup), nil
	case sub != nil && sup != nil:
		return elem("msubsup", base, sub, sup), nil
	case sub != nil:
		return elem("msub", base, sub), nil
	case sup != nil:
		return elem("msup", base, sup), nil
	}
	return base, nil
}

// arg reads the argument of a script or a command: a group, or one
// character or command.
func (p *parser) arg(depth int) (*Node, error) {
	p.skipSpace()
	switch c := p.peek(); {
	case c == 0:
		return nil, p.fail("an argument is missing")
	case c == '{':
		p.next()
		kids, err := p.list(depth+1, true)
		if err != nil {
			return nil, err
		}
		return row(kids), nil
	case c == '}' || c == '_' || c == '^':
		return nil, p.fail("an argument is missing")
	case c >= '0' && c <= '9':
		p.next()
		return token("mn", string(c)), nil
	}
	a, err := p.atom(depth)
	if err != nil {
		return nil, err
	}
	if a == nil {
		return nil, p.fail("an argument is missing")
	}
	return a, nil
}

// atom reads one element: a group, a number, a letter, a command or an
// operator. It returns nil, and no error, for something that typesets as
// nothing (\left.).
func (p *parser) atom(depth int) (*Node, error) {
	c := p.peek()
	switch {
	case c == '{':
		p.next()
		kids, err := p.list(depth+1, true)
		if err != nil {
			return nil, err
		}
		return elem("mrow", kids...), nil
	case c == '\\':
		return p.command(depth)
	case c >= '0' && c <= '9' || c == '.' && p.pos+1 < len(p.s) && p.s[p.pos+1] >= '0' && p.s[p.pos+1] <= '9':
		start := p.pos
		for p.pos < len(p.s) && (p.s[p.pos] >= '0' && p.s[p.pos] <= '9' || p.s[p.pos] == '.') {
			p.pos++
		}
		return token("mn", p.s[start:p.pos]), nil
	case unicode.IsLetter(c):
		p.next()
		if unicode.IsUpper(c) && c >= 0x370 && c <= 0x3ff {
			return token("mi", string(c), Attr{"mathvariant", "normal"}), nil
		}
		return token("mi", string(c)), nil
	case c == '$' || c == '#' || c == '&' || c == '%' || c == '~':
		return nil, p.fail("%q is not allowed", c)
	}
	p.next()
	switch c {
	case '-':
		return token("mo", "−"), nil
	case '*':
		return token("mo", "∗"), nil
	case ':':
		if p.peek() == '=' {
			p.next()
			return token("mo", "≔"), nil
		}
	}
	if unicode.IsControl(c) {
		return nil, p.fail("a control character")
	}
	return token("mo", string(c)), nil
}

// Named symbols: identifiers, upright identifiers and operators.
var (
	letters = map[string]string{
		"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ϵ", "varepsilon": "ε", "zeta": "ζ",
		"eta": "η", "theta": "θ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ",
		"pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "upsilon": "υ", "phi": "ϕ", "varphi": "φ", "chi": "χ",
		"psi": "ψ", "omega": "ω", "ell": "ℓ",
	}
	uprights = map[string]string{
		"Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ",
		"Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω", "nabla": "∇", "infty": "∞", "partial": "∂",
		"top": "⊤",
	}
	operators = map[string]string{
		"cdot": "·", "times": "×", "odot": "⊙", "otimes": "⊗", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥",
		"ne": "≠", "neq": "≠", "approx": "≈", "in": "∈", "to": "→", "pm": "±", "mid": "|", "vert": "|",
		"ldots": "…", "cdots": "⋯", "langle": "⟨", "rangle": "⟩", "|": "‖", "lVert": "‖", "rVert": "‖",
		"{": "{", "}": "}", "sum": "∑", "prod": "∏", "colon": ":", "coloneqq": "≔",
	}
	functions  = map[string]bool{"log": true, "exp": true, "max": true, "min": true, "argmax": true, "diag": true, "vec": true, "softmax": true}
	spaces     = map[string]string{"quad": "1em", "qquad": "2em", ",": "0.1667em", ";": "0.2778em", " ": "0.25em", "!": "0"}
	accents    = map[string]string{"hat": "^", "bar": "¯", "tilde": "~"}
	blackboard = map[rune]string{'R': "ℝ", 'N': "ℕ", 'Z': "ℤ", 'Q': "ℚ", 'C': "ℂ"}
)

// command reads a backslash command and its arguments.
func (p *parser) command(depth int) (*Node, error) {
	p.next() // the backslash
	start := p.pos
	for p.pos < len(p.s) && (p.s[p.pos] >= 'a' && p.s[p.pos] <= 'z' || p.s[p.pos] >= 'A' && p.s[p.pos] <= 'Z') {
		p.pos++
	}
	name := p.s[start:p.pos]
	if name == "" {
		if p.pos >= len(p.s) {
			return nil, p.fail("a backslash at the end")
		}
		name = string(p.next())
	}
	if s, ok := letters[name]; ok {
		return token("mi", s), nil
	}
	if s, ok := uprights[name]; ok {
		return token("mi", s, Attr{"mathvariant", "normal"}), nil
	}
	if s, ok := operators[name]; ok {
		return token("mo", s), nil
	}
	if w, ok := spaces[name]; ok {
		return &Node{Tag: "mspace", Attrs: []Attr{{"width", w}}}, nil
	}
	if functions[name] {
		return elem("mrow", token("mi", name), apply()), nil
	}
	if a, ok := accents[name]; ok {
		arg, err := p.arg(depth + 1)
		if err != nil {
			return nil, err
		}
		return &Node{Tag: "mover", Attrs: []Attr{{"accent", "true"}}, Kids: []*Node{arg, token("mo", a)}}, nil
	}
	switch name {
	case "frac", "tfrac", "dfrac":
		num, err := p.arg(depth + 1)
		if err != nil {
			return nil, err
		}
		den, err := p.arg(depth + 1)
		if err != nil {
			return nil, err
		}
		return elem("mfrac", num, den), nil
	case "sqrt":
		arg, err := p.arg(depth + 1)
		if err != nil {
			return nil, err
		}
		return elem("msqrt", arg), nil
	case "text", "operatorname", "mathrm", "mathbb":
		s, err := p.braced()
		if err != nil {
			return nil, err
		}
		switch name {
		case "text":
			return token("mtext", s), nil
		case "mathbb":
			r, n := utf8.DecodeRuneInString(s)
			if b, ok := blackboard[r]; ok && n == len(s) {
				return token("mi", b, Attr{"mathvariant", "normal"}), nil
			}
			return nil, p.fail(`\mathbb{%s}: only R, N, Z, Q or C`, s)
		}
		s = strings.TrimSpace(s)
		if s == "" {
			return nil, p.fail(`\%s{} is empty`, name)
		}
		if utf8.RuneCountInString(s) == 1 {
			return token("mi", s, Attr{"mathvariant", "normal"}), nil
		}
		if name == "operatorname" {
			return elem("mrow", token("mi", s), apply()), nil
		}
		return token("mi", s), nil
	case "left", "right":
		p.skipSpace()
		if p.pos >= len(p.s) {
			return nil, p.fail(`\%s without a delimiter`, name)
		}
		if p.peek() == '.' {
			p.next()
			return nil, nil
		}
		d, err := p.atom(depth)
		if err != nil {
			return nil, err
		}
		if d == nil || d.Tag != "mo" {
			return nil, p.fail(`\%s takes a delimiter`, name)
		}
		return d, nil
	}
	return nil, p.fail(`unknown command \%s`, name)
}

// braced reads {text} as it is written, for \text and names.
func (p *parser) braced() (string, error) {
	p.skipSpace()
	if p.peek() != '{' {
		return "", p.fail("{ expected")
	}
	p.next()
	end := strings.IndexByte(p.s[p.pos:], '}')
	if end < 0 {
		return "", p.fail("a { is not closed")
	}
	s := p.s[p.pos : p.pos+end]
	if strings.ContainsAny(s, "{\\") {
		return "", p.fail("text holds { or \\")
	}
	p.pos += end + 1
	return s, nil
}

// apply is the invisible operator that applies a function name to what
// follows, with TeX's thin space after it: log p, not logp.
func apply() *Node { return token("mo", "\u2061", Attr{"rspace", "0.1667em"}) }
