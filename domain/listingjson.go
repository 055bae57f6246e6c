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
	return AppendList(b, moves, AppendLegalMove)
}

// AppendList appends s as encoding/json writes a slice: null when nil, else
// each element written by elem, in brackets.
func AppendList[T any](b []byte, s []T, elem func([]byte, T) []byte) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = elem(b, x)
	}
	return append(b, ']')
}

// AppendLegalMove appends m as json.Marshal encodes it; a game whose
// listing options embed their entry writes the entry and then its own
// members before the closing brace.
func AppendLegalMove(b []byte, m LegalMove) []byte {
	b = append(b, `{"move":`...)
	b = appendRaw(b, m.Move)
	b = append(b, `,"label":`...)
	b = AppendJSONString(b, m.Label)
	if m.LabelMessage != nil {
		b = append(b, `,"label_message":`...)
		b = AppendMessage(b, m.LabelMessage)
	}
	if m.Choose != nil {
		b = append(b, `,"choose":`...)
		b = AppendChoose(b, m.Choose)
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

// AppendChoose appends c as json.Marshal encodes it.
func AppendChoose(b []byte, c *Choose) []byte {
	b = append(b, `{"pool":`...)
	b = AppendJSONString(b, c.Pool)
	b = append(b, `,"min":`...)
	b = strconv.AppendInt(b, int64(c.Min), 10)
	b = append(b, `,"max":`...)
	b = strconv.AppendInt(b, int64(c.Max), 10)
	return append(b, '}')
}

// AppendPools appends pools as json.Marshal encodes them.
func AppendPools(b []byte, pools Pools) []byte {
	return appendMap(b, pools, func(b []byte, parts []Part) []byte { return AppendList(b, parts, appendPart) })
}

// appendMap appends m as encoding/json writes a map of strings: null when
// nil, else each member, sorted by name, with its value written by value.
func appendMap[V any](b []byte, m map[string]V, value func([]byte, V) []byte) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	b = append(b, '{')
	var kb [8]string
	for i, name := range sortedKeys(kb[:0], m) {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendJSONString(b, name)
		b = append(b, ':')
		b = value(b, m[name])
	}
	return append(b, '}')
}

func appendPart(b []byte, p Part) []byte {
	b = append(b, `{"add":`...)
	b = appendMap(b, p.Add, appendRaw)
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
		b = append(b, `,"params":`...)
		b = appendMap(b, m.Params, appendParam)
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
		return AppendList(b, x, func(b []byte, m i18n.Message) []byte { return AppendMessage(b, &m) })
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

func appendStrings(b []byte, s []string) []byte { return AppendList(b, s, AppendJSONString) }

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

// AppendTakeBackEntry appends the listing entry of take-back move, a
// correction labelled by label, as json.Marshal encodes Entry(move, label)
// with Correction set: the service adds one to a listing for every
// take-back its reader may make, after every move.
func AppendTakeBackEntry(b []byte, move TakeBack, label i18n.Message) []byte {
	b = append(b, `{"move":{"type":`...)
	b = AppendJSONString(b, move.Type)
	b = append(b, `,"version":`...)
	b = strconv.AppendInt(b, move.Version, 10)
	if len(move.Versions) > 0 {
		b = append(b, `,"versions":[`...)
		for i, v := range move.Versions {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, v, 10)
		}
		b = append(b, ']')
	}
	b = append(b, `},"label":`...)
	b = AppendJSONString(b, i18n.Text(label))
	b = append(b, `,"label_message":`...)
	b = AppendMessage(b, &label)
	return append(b, `,"correction":true}`...)
}

// AppendAwait appends a as json.Marshal encodes it: a listing's head and
// every ruleset's status say who is awaited.
func AppendAwait(b []byte, a Await) []byte {
	b = append(b, `{"actor":`...)
	b = AppendJSONString(b, a.Actor)
	if a.Seat != nil {
		b = append(b, `,"seat":`...)
		b = strconv.AppendInt(b, int64(*a.Seat), 10)
	}
	b = append(b, `,"action":`...)
	b = AppendJSONString(b, a.Action)
	b = append(b, `,"count":`...)
	b = strconv.AppendInt(b, int64(a.Count), 10)
	return append(b, '}')
}
