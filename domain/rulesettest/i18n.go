package rulesettest

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// Every word a player reads comes in the player's language (domain/i18n):
//
//   - every entry and part of every listing has a label_message whose key
//     every language's catalog holds;
//   - every "<name>_message" member of a view, listing, score or event names
//     a key every language holds;
//   - every move the game refuses is refused with an *domain.Error whose Msg
//     names a key every language holds.

// missingIn returns the languages whose catalog lacks m's key (all of them
// for a zero message).
func missingIn(m i18n.Message) []string {
	var out []string
	for _, lang := range i18n.Languages() {
		if m.Zero() || !i18n.Has(lang, m.Key) || i18n.Render(lang, m) == m.Key {
			out = append(out, string(lang))
		}
	}
	return out
}

// checkMessage fails unless m is a message every language says.
func (x *game) checkMessage(what string, m *i18n.Message) {
	if m == nil || m.Zero() {
		x.t.Fatalf("%s, after %d moves: %s has no message a player's language can render", x.name, len(x.log), what)
	}
	if langs := missingIn(*m); len(langs) > 0 {
		x.t.Fatalf("%s, after %d moves: %s names the message %q, which the catalogs of %s lack", x.name, len(x.log), what, m.Key, strings.Join(langs, ", "))
	}
}

// checkLabels checks that every entry and part of the listing l (read as the
// table language) has a label in every language.
func (x *game) checkLabels(l tableListing) {
	for _, e := range l.Moves {
		x.checkMessage("the label of the listed move "+string(e.Move), e.LabelMessage)
	}
	for pool, parts := range l.Pools {
		for _, p := range parts {
			x.checkMessage("the label of part "+p.Label+" of pool "+pool, p.LabelMessage)
		}
	}
}

// checkListingLabels reads b as a listing in the table language and checks
// its labels.
func (x *game) checkListingLabels(b []byte) {
	var l tableListing
	if err := json.Unmarshal(b, &l); err != nil {
		x.t.Fatalf("%s: a listing does not decode in the table language (%v):\n%s", x.name, err, b)
	}
	x.checkLabels(l)
}

// checkMessageMembers checks every "<name>_message" member anywhere in the
// JSON document b, shown as what.
func (x *game) checkMessageMembers(what string, b []byte) {
	if !bytes.Contains(b, []byte(`_message"`)) {
		return
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		x.t.Fatalf("%s: %s is not JSON: %s", x.name, what, b)
	}
	var walk func(v any)
	walk = func(v any) {
		switch o := v.(type) {
		case []any:
			for _, e := range o {
				walk(e)
			}
		case map[string]any:
			for k, e := range o {
				if name, ok := strings.CutSuffix(k, "_message"); ok && name != "" && e != nil {
					var m i18n.Message
					raw, _ := json.Marshal(e)
					if err := json.Unmarshal(raw, &m); err != nil {
						x.t.Fatalf("%s: %s has a member %s that is no message: %s", x.name, what, k, raw)
					}
					x.checkMessage(what+"'s "+k, &m)
					if _, ok := o[name]; !ok {
						x.t.Fatalf("%s: %s has %s without the text %s beside it", x.name, what, k, name)
					}
				}
				walk(e)
			}
		}
	}
	walk(doc)
}

// checkRefusal checks that err, the refusal of move, speaks every language.
func (x *game) checkRefusal(move []byte, err error) {
	var e *domain.Error
	if !errors.As(err, &e) {
		return // an uncoded error fails elsewhere
	}
	x.checkMessage("the refusal of "+string(move)+" ("+e.Reason+")", &e.Msg)
}
