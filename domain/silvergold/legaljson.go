package silvergold

import (
	"encoding/json"
	"strconv"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// A listing is encoded after every move for every seat whose listing key
// changed (the event streams tell it); encoding/json spent about half of a
// listing's time on reflection over its entries, labels and pools
// (BenchmarkLegalMovesJSON). The functions below write the same bytes
// directly; TestLegalJSONPlain holds them to json.Marshal for every seat
// after every move of bot games in both modes.

// AppendJSON appends l encoded exactly as json.Marshal(l) encodes it once
// its entries are built (Legal.entries, which Game.LegalMoves calls):
// AppendJSON writes them from the walk over them whether they are built or
// not.
func (l *Legal) AppendJSON(b []byte) []byte {
	return l.appendTail(l.appendHead(b))
}

// appendHead appends what AppendJSON writes up to "crossing", included.
func (l *Legal) appendHead(b []byte) []byte {
	b = append(b, `{"ruleset":`...)
	b = appendString(b, l.Ruleset)
	b = append(b, `,"seat":`...)
	b = appendInt(b, l.Seat)
	b = append(b, `,"action":`...)
	b = appendString(b, l.Action)
	b = append(b, `,"count":`...)
	b = appendInt(b, l.Count)
	if l.Expedition != nil {
		b = append(b, `,"expedition":`...)
		b = appendExpedition(b, l.Expedition)
	}
	b = append(b, `,"crossed":`...)
	b = strconv.AppendBool(b, l.Crossed)
	b = append(b, `,"crossing":`...)
	if l.Crossing != nil {
		b = l.Crossing.AppendJSON(b)
	} else {
		b = append(b, "null"...)
	}
	return b
}

// appendTail appends what AppendJSON writes after "crossing" (while the
// seat crosses, Game.appendCrossListing writes the same from the catalog's
// pieces).
func (l *Legal) appendTail(b []byte) []byte {
	b = append(b, `,"placements":`...)
	b = appendList(b, l.Placements, appendPlacement)
	b = append(b, `,"single_boxes":`...)
	b = appendList(b, l.Singles, appendPlacement)
	b = append(b, `,"free_boxes":`...)
	b = appendList(b, l.Free, appendFreeCard)
	b = append(b, `,"keep_from":`...)
	b = appendStrings(b, l.Keep)
	b = append(b, `,"take_from":`...)
	b = appendStrings(b, l.TakeFrom)
	b = append(b, `,"deck":`...)
	b = strconv.AppendBool(b, l.Deck)
	b = append(b, `,"deck_cards":`...)
	b = appendStrings(b, l.DeckCards)
	b = append(b, `,"reveal_from":`...)
	b = appendStrings(b, l.RevealFrom)
	w := entryWriter{text: make([]byte, 0, 256)}
	b = append(b, `,"moves":`...)
	b = w.appendEntries(b, l)
	b = append(b, `,"pools":`...)
	b = w.appendPools(b, l)
	return append(b, '}')
}

// entryWriter writes a listing's entries and pools as json.Marshal writes
// the plain form (Legal.entries), walking them (eachEntry, eachPart)
// instead of building them.
type entryWriter struct {
	text []byte // room to render a label or token in, before it is quoted
}

func (w *entryWriter) appendEntries(b []byte, l *Legal) []byte {
	b = append(b, '[')
	n := 0
	l.eachEntry(func(e *listEntry) {
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = append(b, `{"move":`...)
		b = e.move.AppendJSON(b)
		b = w.appendLabel(b, &e.label)
		if e.choose.Pool != "" {
			b = append(b, `,"choose":`...)
			b = domain.AppendChoose(b, &e.choose)
		}
		if len(e.move.Boxes) > 0 {
			b = append(b, `,"holds":[`...)
			for i, box := range e.move.Boxes {
				if i > 0 {
					b = append(b, ',')
				}
				b = w.appendToken(b, e.move.Card, box)
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	})
	return append(b, ']')
}

func (w *entryWriter) appendPools(b []byte, l *Legal) []byte {
	name, ok := l.pool()
	if !ok {
		return append(b, "{}"...)
	}
	b = append(b, '{')
	b = appendString(b, name)
	b = append(b, ':')
	n := 0
	l.eachPart(func(p *listPart) {
		if n == 0 {
			b = append(b, '[')
		} else {
			b = append(b, ',')
		}
		n++
		b = append(b, `{"add":{`...)
		b = appendString(b, name)
		b = append(b, ':')
		if name == poolExtra {
			b = append(b, `{"card":`...)
			b = appendString(b, p.card)
			b = append(b, `,"box":`...)
			b = appendPos(b, p.box)
			b = append(b, '}')
		} else {
			b = appendString(b, p.card)
		}
		b = append(b, '}')
		b = w.appendLabel(b, &p.label)
		if name == poolExtra {
			b = append(b, `,"excludes":[`...)
			b = w.appendToken(b, p.card, p.box)
			b = append(b, ']')
		}
		if p.owes != 0 {
			b = append(b, `,"owes":`...)
			b = appendInt(b, p.owes)
		}
		b = append(b, '}')
	})
	switch {
	case n > 0:
		b = append(b, ']')
	case nullWhenEmpty(name):
		b = append(b, "null"...)
	default:
		b = append(b, "[]"...)
	}
	return append(b, '}')
}

// appendLabel writes the members label and label_message of c.
func (w *entryWriter) appendLabel(b []byte, c *i18n.Compact) []byte {
	b = append(b, `,"label":`...)
	w.text = i18n.AppendRender(w.text[:0], i18n.English, c)
	b = appendText(b, w.text)
	b = append(b, `,"label_message":`...)
	return appendCompact(b, c)
}

// appendToken writes boxToken(card, box) as a JSON string.
func (w *entryWriter) appendToken(b []byte, card string, box Pos) []byte {
	t := append(w.text[:0], card...)
	t = append(t, ':')
	t = strconv.AppendInt(t, int64(box.Row), 10)
	t = append(t, ',')
	t = strconv.AppendInt(t, int64(box.Col), 10)
	w.text = t
	return appendText(b, t)
}

// appendText writes t as json.Marshal writes it as a string.
func appendText(b, t []byte) []byte {
	for _, c := range t {
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(string(t)) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, t...)
	return append(b, '"')
}

// appendCompact writes c as json.Marshal writes c.Message(): parameters
// sorted by name.
func appendCompact(b []byte, c *i18n.Compact) []byte {
	b = append(b, `{"key":`...)
	b = appendString(b, c.Key)
	if c.N > 0 {
		var order [i18n.MaxArgs]int
		for i := range c.N {
			j := i
			for ; j > 0 && c.Args[order[j-1]].Name > c.Args[i].Name; j-- {
				order[j] = order[j-1]
			}
			order[j] = i
		}
		b = append(b, `,"params":{`...)
		for i, k := range order[:c.N] {
			a := &c.Args[k]
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, a.Name)
			b = append(b, ':')
			switch a.Kind {
			case i18n.ArgString:
				b = appendString(b, a.Str)
			case i18n.ArgInt:
				b = appendInt(b, a.Int)
			case i18n.ArgTerm:
				b = append(b, `{"key":`...)
				b = appendString(b, a.Str)
				b = append(b, '}')
			case i18n.ArgList:
				if a.List == nil {
					b = append(b, "null"...)
					break
				}
				b = append(b, '[')
				for i := range a.List {
					if i > 0 {
						b = append(b, ',')
					}
					b = appendCompact(b, &a.List[i])
				}
				b = append(b, ']')
			}
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

func appendPlacement(b []byte, p Placement) []byte {
	b = append(b, `{"card":`...)
	b = appendString(b, p.Card)
	b = append(b, `,"boxes":`...)
	b = appendPositions(b, p.Boxes)
	b = append(b, `,"red_crosses":`...)
	b = appendInt(b, p.Crosses)
	b = append(b, `,"coins":`...)
	b = appendInt(b, p.Coins)
	b = append(b, `,"palms":`...)
	b = appendInt(b, p.Palms)
	return append(b, '}')
}

func appendFreeCard(b []byte, fc FreeCard) []byte {
	b = append(b, `{"card":`...)
	b = appendString(b, fc.Card)
	b = append(b, `,"boxes":`...)
	return append(appendList(b, fc.Boxes, appendFreeBox), '}')
}

func appendFreeBox(b []byte, fb FreeBox) []byte {
	b = append(b, `{"box":`...)
	b = appendPos(b, fb.Box)
	b = append(b, `,"symbol":`...)
	b = appendString(b, fb.Symbol)
	return append(b, '}')
}
