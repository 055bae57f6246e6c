package locale

import (
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/treasury-games/treasury/domain/names"
)

func init() {
	names.SetFold(nameKey)
}

// nameKey is the form two players' names are compared in: normalised to NFC
// ("é" and "e" + U+0301 are one letter), fully case-folded ("STRASSE" and
// "straße" are one name), then normalised again, as folding may decompose.
func nameKey(name string) string {
	return norm.NFC.String(cases.Fold().String(norm.NFC.String(name)))
}
