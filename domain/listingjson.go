package domain

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/treasury-games/treasury/domain/i18n"
)

// A listing is encoded after every move for every seat whose listing
// changed, and its entries and pools in the table language were half of a
// Colorful Treasure listing's time through encoding/json's reflection
// (BenchmarkLegalMovesJSON). The functions below write them as json.Marshal
// does, byte for byte (TestListingJSONPlain).

// AppendLegalMoves appends moves as json.Marshal encodes them.
func AppendLegalMoves(b []byte, moves []LegalMove) []byte {
	if moves == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range moves {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendLegalMove(b, &moves[i])
	}
	return append(b, ']')
}

func appendLegalMove(b []byte, m *LegalMove) []byte {
	b = append(b, `{"move":`...)
	b = appendRaw(b, m.Move)
	b = append(b, `,"label":`...)
	b = AppendJSONString(b, m.Label)
	if m.LabelMessage != nil {
		b = append(b, `,"label_message":`...)
		b = AppendMessage(b, m.LabelMessage)
	}
	if c := m.Choose; c != nil {
		b = append(b, `,"choose":{"pool":`...)
		b = AppendJSONString(b, c.Pool)
		b = append(b, `,"min":`...)
		b = strconv.AppendInt(b, int64(c.Min), 10)
		b = append(b, `,"max":`...)
		b = strconv.AppendInt(b, int64(c.Max), 10)
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

// AppendPools appends pools as json.Marshal encodes them.
func AppendPools(b []byte, pools Pools) []byte {
	if pools == nil {
		return append(b, "null"...)
	}
	b = append(b, '{')
	var kb [8]string
	for i, name := range sortedKeys(kb[:0], pools) {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendJSONString(b, name)
		b = append(b, ':')
		parts := pools[name]
		if parts == nil {
			b = append(b, "null"...)
			continue
		}
		b = append(b, '[')
		for j := range parts {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendPart(b, &parts[j])
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func appendPart(b []byte, p *Part) []byte {
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
			b = AppendJSONString(b, name)
			b = append(b, ':')
			b = appendRaw(b, p.Add[name])
		}
		b = append(b, '}')
	}
	b = append(b, `,"label":`...)
	b = AppendJSONString(b, p.Label)
	if p.LabelMessage != nil {
		b = append(b, `,"label_message":`...)
		b = AppendMessage(b, p.LabelMessage)
	}
	if len(p.Excludes) > 0 {
		b = append(b, `,"excludes":`...)
		b = appendStrings(b, p.Excludes)
	}
	if p.Owes != 0 {
		b = append(b, `,"owes":`...)
		b = strconv.AppendInt(b, int64(p.Owes), 10)
	}
	return append(b, '}')
}

// AppendMessage appends m as json.Marshal encodes it: parameters by name,
// each a string, an integer, a message or a list of messages (any other
// value goes through encoding/json).
func AppendMessage(b []byte, m *i18n.Message) []byte {
	b = append(b, `{"key":`...)
	b = AppendJSONString(b, m.Key)
	if len(m.Params) > 0 {
		b = append(b, `,"params":{`...)
		var kb [8]string
		for i, name := range sortedKeys(kb[:0], m.Params) {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendJSONString(b, name)
			b = append(b, ':')
			b = appendParam(b, m.Params[name])
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

func appendParam(b []byte, v any) []byte {
	switch x := v.(type) {
	case string:
		return AppendJSONString(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case i18n.Message:
		return AppendMessage(b, &x)
	case []i18n.Message:
		if x == nil {
			return append(b, "null"...)
		}
		b = append(b, '[')
		for i := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendMessage(b, &x[i])
		}
		return append(b, ']')
	}
	raw, _ := json.Marshal(v)
	return append(b, raw...)
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

func appendStrings(b []byte, s []string) []byte {
	b = append(b, '[')
	for i, x := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendJSONString(b, x)
	}
	return append(b, ']')
}

// appendRaw writes raw JSON as json.Marshal writes a json.RawMessage: the
// entries' moves and the parts' members are encoded compact by their
// rulesets, so they are copied (anything else goes through encoding/json).
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
// a ruleset made it.
func compactPlain(raw []byte) bool {
	for _, c := range raw {
		if c <= ' ' || c >= 0x7f || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}
