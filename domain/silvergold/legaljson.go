package silvergold

import (
	"encoding/json"
	"slices"
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

// AppendJSON appends l encoded exactly as json.Marshal(l) encodes it.
func (l *Legal) AppendJSON(b []byte) []byte {
	b = append(b, `{"ruleset":`...)
	b = appendString(b, l.Ruleset)
	b = append(b, `,"seat":`...)
	b = appendInt(b, l.Seat)
	b = append(b, `,"action":`...)
	b = appendString(b, l.Action)
	b = append(b, `,"count":`...)
	b = appendInt(b, l.Count)
	if e := l.Expedition; e != nil {
		b = append(b, `,"expedition":{"code":`...)
		b = appendString(b, e.Code)
		b = append(b, `,"name":`...)
		b = appendString(b, e.Name)
		b = append(b, `,"name_message":`...)
		b = appendMessage(b, &e.NameMessage)
		b = append(b, `,"boxes":`...)
		b = appendPositions(b, e.Boxes)
		b = append(b, '}')
	}
	b = append(b, `,"crossed":`...)
	b = strconv.AppendBool(b, l.Crossed)
	b = append(b, `,"crossing":`...)
	if l.Crossing != nil {
		b = l.Crossing.AppendJSON(b)
	} else {
		b = append(b, "null"...)
	}
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
	b = append(b, `,"moves":`...)
	b = appendList(b, l.Moves, appendLegalMove)
	b = append(b, `,"pools":`...)
	b = appendPools(b, l.Pools)
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
	return append(appendList(b, fc.Boxes, func(b []byte, fb FreeBox) []byte {
		b = append(b, `{"box":`...)
		b = appendPos(b, fb.Box)
		b = append(b, `,"symbol":`...)
		b = appendString(b, fb.Symbol)
		return append(b, '}')
	}), '}')
}

func appendLegalMove(b []byte, m domain.LegalMove) []byte {
	b = append(b, `{"move":`...)
	b = appendRaw(b, m.Move)
	b = append(b, `,"label":`...)
	b = appendString(b, m.Label)
	if m.LabelMessage != nil {
		b = append(b, `,"label_message":`...)
		b = appendMessage(b, m.LabelMessage)
	}
	if c := m.Choose; c != nil {
		b = append(b, `,"choose":{"pool":`...)
		b = appendString(b, c.Pool)
		b = append(b, `,"min":`...)
		b = appendInt(b, c.Min)
		b = append(b, `,"max":`...)
		b = appendInt(b, c.Max)
		b = append(b, '}')
	}
	if len(m.Holds) > 0 {
		b = append(b, `,"holds":`...)
		b = appendStrings(b, m.Holds)
	}
	if m.Correction {
		b = append(b, `,"correction":true`...)
	}
	return append(b, '}')
}

func appendPools(b []byte, pools domain.Pools) []byte {
	if pools == nil {
		return append(b, "null"...)
	}
	b = append(b, '{')
	var kb [8]string
	for i, name := range sortedKeys(kb[:0], pools) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, name)
		b = append(b, ':')
		b = appendList(b, pools[name], appendPart)
	}
	return append(b, '}')
}

func appendPart(b []byte, p domain.Part) []byte {
	b = append(b, `{"add":`...)
	if p.Add == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '{')
		var kb [8]string
		for i, name := range sortedKeys(kb[:0], p.Add) {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, name)
			b = append(b, ':')
			b = appendRaw(b, p.Add[name])
		}
		b = append(b, '}')
	}
	b = append(b, `,"label":`...)
	b = appendString(b, p.Label)
	if p.LabelMessage != nil {
		b = append(b, `,"label_message":`...)
		b = appendMessage(b, p.LabelMessage)
	}
	if len(p.Excludes) > 0 {
		b = append(b, `,"excludes":`...)
		b = appendStrings(b, p.Excludes)
	}
	if p.Owes != 0 {
		b = append(b, `,"owes":`...)
		b = appendInt(b, p.Owes)
	}
	return append(b, '}')
}

// appendMessage writes m as json.Marshal does: parameters by name, each a
// string, an integer, a message or a list of messages (any other value
// goes through encoding/json).
func appendMessage(b []byte, m *i18n.Message) []byte {
	b = append(b, `{"key":`...)
	b = appendString(b, m.Key)
	if len(m.Params) > 0 {
		b = append(b, `,"params":{`...)
		var kb [8]string
		for i, name := range sortedKeys(kb[:0], m.Params) {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, name)
			b = append(b, ':')
			b = appendParam(b, m.Params[name])
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

// sortedKeys appends the keys of m to buf and sorts them: json.Marshal's
// order of a map's members. With buf on the caller's stack, a message's
// few parameters cost no allocation (slices.Sorted(maps.Keys(m)) made 13%
// of the server's allocations per Silver & Gold move, issue 27).
func sortedKeys[V any](buf []string, m map[string]V) []string {
	for k := range m {
		buf = append(buf, k)
	}
	slices.Sort(buf)
	return buf
}

func appendParam(b []byte, v any) []byte {
	switch x := v.(type) {
	case string:
		return appendString(b, x)
	case int:
		return appendInt(b, x)
	case i18n.Message:
		return appendMessage(b, &x)
	case []i18n.Message:
		return appendList(b, x, func(b []byte, m i18n.Message) []byte { return appendMessage(b, &m) })
	}
	raw, _ := json.Marshal(v)
	return append(b, raw...)
}

// appendRaw writes raw JSON as json.Marshal writes a json.RawMessage: the
// entries' moves and the parts' members are encoded compact by this
// package, so they are copied (anything else goes through encoding/json).
func appendRaw(b []byte, raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return append(b, "null"...)
	}
	if compactPlain(raw) {
		return append(b, raw...)
	}
	out, err := json.Marshal(raw)
	if err != nil {
		return append(b, "null"...)
	}
	return append(b, out...)
}

// compactPlain reports whether raw has no space outside strings and no
// character json.Marshal would escape in a RawMessage (printable ASCII
// only): it is then copied as it is. It does not check that raw is JSON;
// this package made it.
func compactPlain(raw []byte) bool {
	for _, c := range raw {
		if c <= ' ' || c >= 0x7f || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}
