// Package mathml typesets the notes' formulas as MathML, which Chromium,
// Firefox and Safari render natively: no script, font or other host.
//
// Formulas are written in the small part of TeX the notes use (Parse
// lists it): z_c = \theta_c^\top x + b_c. Parse turns one into a tree of
// MathML elements; Node.UI makes go-app elements of it in the MathML
// namespace (an element made by document.createElement would be an
// unknown HTML element, not MathML), Node.Markup writes it as text for
// tests, and Node.Plain as readable Unicode for the places that hold
// only text, such as an aria-label. Text for people marks its formulas
// with dollar signs ("each pixel's vote $x_j θ_{c,j}$"); Split finds them.
package mathml

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Namespace is MathML's XML namespace.
const Namespace = "http://www.w3.org/1998/Math/MathML"

// A Node is one MathML element: a token (mi, mn, mo, mtext) holds Text, a
// layout element (mrow, msub, msup, msubsup, mfrac, msqrt, mover, munder,
// munderover, mspace) holds Kids in MathML's order.
type Node struct {
	Tag   string
	Text  string
	Attrs []Attr
	Kids  []*Node
}

// An Attr is one attribute of a Node.
type Attr struct{ Name, Value string }

func token(tag, text string, attrs ...Attr) *Node { return &Node{Tag: tag, Text: text, Attrs: attrs} }

func elem(tag string, kids ...*Node) *Node { return &Node{Tag: tag, Kids: kids} }

// row returns kids as one node: the single kid itself, or an mrow.
func row(kids []*Node) *Node {
	if len(kids) == 1 {
		return kids[0]
	}
	return elem("mrow", kids...)
}

// Markup returns n as MathML markup, without the enclosing <math>.
func (n *Node) Markup() string {
	var b strings.Builder
	n.markup(&b)
	return b.String()
}

func (n *Node) markup(b *strings.Builder) {
	b.WriteByte('<')
	b.WriteString(n.Tag)
	for _, a := range n.Attrs {
		fmt.Fprintf(b, " %s=%q", a.Name, a.Value)
	}
	b.WriteByte('>')
	b.WriteString(escape(n.Text))
	for _, k := range n.Kids {
		k.markup(b)
	}
	b.WriteString("</")
	b.WriteString(n.Tag)
	b.WriteByte('>')
}

var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

func escape(s string) string { return escaper.Replace(s) }

// Number formats v for a formula with sig significant digits: 0.0831,
// 2.303, 1.2\times10^{-5} for the very small or large, and "?" for NaN
// (a value not known yet). A negative number keeps its minus sign, which
// Parse typesets as an operator.
func Number(v float64, sig int) string {
	switch {
	case math.IsNaN(v):
		return "?"
	case math.IsInf(v, 1):
		return `\infty`
	case math.IsInf(v, -1):
		return `-\infty`
	case v == 0:
		return "0"
	}
	a := math.Abs(v)
	if a >= 1e-3 && a < 1e6 {
		s := strconv.FormatFloat(v, 'g', sig, 64)
		if !strings.ContainsAny(s, "e") {
			return s
		}
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	exp := int(math.Floor(math.Log10(a)))
	mant, _ := strconv.ParseFloat(strconv.FormatFloat(v/math.Pow(10, float64(exp)), 'g', sig, 64), 64)
	if math.Abs(mant) >= 10 { // rounded up to the next decade
		mant, exp = mant/10, exp+1
	}
	return strconv.FormatFloat(mant, 'g', sig, 64) + `\times10^{` + strconv.Itoa(exp) + "}"
}

// A Piece is a run of text or, with Math set, a formula in Parse's TeX.
type Piece struct {
	Math bool
	Text string
}

// Split cuts text at its dollar signs into plain runs and formulas:
// "vote $x_j$ here" is "vote ", the formula x_j, and " here". A dollar
// sign without its pair ends the text as plain.
func Split(text string) []Piece {
	var out []Piece
	for text != "" {
		i := strings.IndexByte(text, '$')
		if i < 0 {
			out = append(out, Piece{Text: text})
			break
		}
		j := strings.IndexByte(text[i+1:], '$')
		if j < 0 {
			out = append(out, Piece{Text: text})
			break
		}
		if i > 0 {
			out = append(out, Piece{Text: text[:i]})
		}
		out = append(out, Piece{Math: true, Text: text[i+1 : i+1+j]})
		text = text[i+2+j:]
	}
	return out
}

// PlainText returns text with each of its formulas as Plain writes it,
// for attributes and the document's title, which hold only text. A
// formula that does not parse is left as it is written.
func PlainText(text string) string {
	var b strings.Builder
	for _, p := range Split(text) {
		if !p.Math {
			b.WriteString(p.Text)
			continue
		}
		n, err := Parse(p.Text)
		if err != nil {
			b.WriteString(p.Text)
			continue
		}
		b.WriteString(n.Plain())
	}
	return b.String()
}
