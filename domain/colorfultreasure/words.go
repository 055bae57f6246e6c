package colorfultreasure

import "github.com/treasury-games/treasury/domain/i18n"

// The words of Colorful Treasure's sentences are messages (see
// domain/i18n): the kinds of card, the wonders of the standard catalog, the
// effects of the action tokens, the awards and the variants are terms that
// a sentence takes as parameters, rendered in the reader's language. The
// templates are in domain/i18n/locales (keys "ct.…").

// kindTerm names kind k for a sentence: "red", "diamond", "key" …
func kindTerm(k Kind) i18n.Message {
	if k < 0 || k >= NumKinds {
		return i18n.M("ct.kind.none")
	}
	return i18n.M("ct.kind." + kindNames[k])
}

// kindTerms names several kinds, a list in a sentence.
func kindTerms(ks []Kind) []i18n.Message {
	out := make([]i18n.Message, len(ks))
	for i, k := range ks {
		out[i] = kindTerm(k)
	}
	return out
}

// WonderName returns the name of the wonder with id as a message, for a
// wonder of the standard catalog; ok is false for a wonder of another
// catalog, which its id names.
func WonderName(id string) (m i18n.Message, ok bool) {
	m = i18n.M("ct.wonder." + id)
	return m, i18n.Has(i18n.English, m.Key)
}

// wonderTerm names the wonder with id in a sentence: its name where the
// catalogs have one, else its id.
func wonderTerm(id string) any {
	if m, ok := WonderName(id); ok {
		return m
	}
	return id
}

// wonderNamed returns the name and message of the wonder with id for a
// view: its English name and message, or its id and no message.
func wonderNamed(id string) (string, *i18n.Message) {
	if m, ok := WonderName(id); ok {
		return i18n.Text(m), &m
	}
	return id, nil
}

// effectTerm names what an action token's side does.
func effectTerm(e Effect) i18n.Message { return i18n.M("ct.effect." + effectNames[e]) }

// awardTerm names an award (colorful_gems, explorer, chest); a name that is
// none of them is written as it is.
func awardTerm(a string) any {
	switch a {
	case AwardColorful, AwardExplorer, AwardChest:
		return i18n.M("ct.award." + a)
	}
	return a
}

// variantTerm names a variant.
func variantTerm(v Variant) any {
	switch v {
	case VariantStandard, VariantJunior, VariantAdvanced:
		return i18n.M("ct.variant." + string(v))
	}
	return string(v)
}

// posTerm names a place of the grid for an error reason, as Pos.String.
func posTerm(p Pos) i18n.Message { return i18n.M("ct.pos", "column", p.Column, "row", p.Row) }
