package mathml

import (
	"strings"
	"unicode/utf8"
)

// Unicode's subscript and superscript forms, where they exist.
var (
	subscripts = map[rune]rune{
		'0': '₀', '1': '₁', '2': '₂', '3': '₃', '4': '₄', '5': '₅', '6': '₆', '7': '₇', '8': '₈', '9': '₉',
		'+': '₊', '−': '₋', '=': '₌', '(': '₍', ')': '₎', 'a': 'ₐ', 'e': 'ₑ', 'o': 'ₒ', 'x': 'ₓ', 'h': 'ₕ',
		'k': 'ₖ', 'l': 'ₗ', 'm': 'ₘ', 'n': 'ₙ', 'p': 'ₚ', 's': 'ₛ', 't': 'ₜ', 'i': 'ᵢ', 'j': 'ⱼ', 'r': 'ᵣ',
		'u': 'ᵤ', 'v': 'ᵥ', 'β': 'ᵦ', 'γ': 'ᵧ', 'ρ': 'ᵨ', 'φ': 'ᵩ', 'χ': 'ᵪ',
	}
	superscripts = map[rune]rune{
		'0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹',
		'+': '⁺', '−': '⁻', '=': '⁼', '(': '⁽', ')': '⁾', 'n': 'ⁿ', 'i': 'ⁱ', '⊤': 'ᵀ', '′': '′', 'T': 'ᵀ',
	}
	combining = map[string]string{"^": "\u0302", "¯": "\u0304", "~": "\u0303"}
	spaced    = map[string]bool{"=": true, "≔": true, "≤": true, "≥": true, "≈": true, "≠": true, "→": true, "∈": true, "+": true, "−": true, "±": true, "×": true, "⊗": true, "⊙": true}
)

// Plain returns the formula as readable Unicode text, for the places
// that hold only text (an aria-label, a title): subscripts and
// superscripts as Unicode's small forms where all their characters have
// one (θ₃, x², θᵀ), otherwise after _ or ^ in parentheses.
func (n *Node) Plain() string {
	var b strings.Builder
	n.plain(&b, true)
	return strings.TrimSpace(b.String())
}

func (n *Node) plain(b *strings.Builder, first bool) {
	switch n.Tag {
	case "mi", "mn", "mtext":
		b.WriteString(n.Text)
	case "mo":
		t := n.Text
		if t == "\u2061" {
			b.WriteByte(' ')
			return
		}
		if spaced[t] && !(first && t == "−") {
			b.WriteString(" " + t + " ")
		} else {
			b.WriteString(t)
		}
	case "mspace":
		b.WriteByte(' ')
	case "msub", "munder":
		n.Kids[0].plain(b, first)
		b.WriteString(script(n.Kids[1], subscripts, "_"))
	case "msup", "mover":
		if acc, ok := combining[n.Kids[1].Text]; ok && n.Tag == "mover" {
			n.Kids[0].plain(b, first)
			b.WriteString(acc)
			return
		}
		n.Kids[0].plain(b, first)
		b.WriteString(script(n.Kids[1], superscripts, "^"))
	case "msubsup", "munderover":
		n.Kids[0].plain(b, first)
		b.WriteString(script(n.Kids[1], subscripts, "_"))
		b.WriteString(script(n.Kids[2], superscripts, "^"))
	case "mfrac":
		b.WriteString(grouped(n.Kids[0]) + "/" + grouped(n.Kids[1]))
	case "msqrt":
		b.WriteString("√" + grouped(n.Kids[0]))
	default:
		for i, k := range n.Kids {
			k.plain(b, first && i == 0)
		}
	}
}

// script writes a sub- or superscript: in small forms if every
// character has one, else after mark, in parentheses if longer than one.
func script(n *Node, forms map[rune]rune, mark string) string {
	s := strings.ReplaceAll(n.Plain(), " ", "")
	small := make([]rune, 0, len(s))
	for _, r := range s {
		f, ok := forms[r]
		if !ok {
			small = nil
			break
		}
		small = append(small, f)
	}
	if small != nil {
		return string(small)
	}
	if utf8.RuneCountInString(s) == 1 {
		return mark + s
	}
	return mark + "(" + s + ")"
}

// grouped writes n, in parentheses unless it is one token.
func grouped(n *Node) string {
	s := n.Plain()
	if len(n.Kids) == 0 && n.Tag != "mfrac" {
		return s
	}
	return "(" + s + ")"
}
