package kit

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"softmaxdemo/wasm/ui/mathml"
)

// Text for people marks its formulas with dollar signs ("the score
// $z_c$"): Rich typesets them as MathML in an element's body, Plain
// writes them as Unicode for an attribute, which holds only text.

// Rich returns s with its formulas typeset, as an element's body.
func Rich(s string) []app.UI { return mathml.Rich(s) }

// Plain returns s with its formulas in Unicode, for an attribute.
func Plain(s string) string { return mathml.PlainText(s) }
