package domain

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/treasury-games/treasury/domain/i18n"
)

// ResolveOptions checks the options a game is created with (a JSON object;
// nil, empty or null for every default) against what the ruleset offers, and
// returns them with every default filled in, as a JSON object with its
// members in name order. A problem names the option: an unknown one, a value
// of the wrong type, out of range or not among the choices.
func ResolveOptions(offered []Option, raw json.RawMessage, players int) (json.RawMessage, error) {
	given := map[string]json.RawMessage{}
	if t := bytes.TrimSpace(raw); len(t) > 0 && !bytes.Equal(t, []byte("null")) {
		if err := json.Unmarshal(t, &given); err != nil {
			return nil, Fail(Invalid, "table.option.not-object")
		}
	}
	out := make(map[string]any, len(offered))
	for _, o := range offered {
		v, ok := given[o.Name]
		delete(given, o.Name)
		if !ok {
			v = o.Default
		}
		val, err := o.check(v, players)
		if err != nil {
			return nil, err
		}
		out[o.Name] = val
	}
	if len(given) > 0 {
		var names, known []string
		for n := range given {
			names = append(names, n)
		}
		for _, o := range offered {
			known = append(known, o.Name)
		}
		slices.Sort(names)
		if len(known) == 0 {
			return nil, Fail(Invalid, "table.option.unknown-none", "option", names[0])
		}
		return nil, Fail(Invalid, "table.option.unknown", "option", names[0], "known", strings.Join(known, ", "))
	}
	return json.Marshal(out)
}

func (o Option) check(v json.RawMessage, players int) (any, error) {
	bad := func(key string, kv ...any) error {
		return Fail(Invalid, "table.option.bad", "option", o.Name, "problem", i18n.M(key, kv...))
	}
	// json.Unmarshal takes null as "leave it as it is": for an option it
	// would be 0, false or "", which the client did not send.
	if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		want := map[string]i18n.Message{"integer": i18n.M("table.option.a-whole-number"), "boolean": i18n.M("table.option.true-or-false")}[o.Type]
		if want.Zero() {
			want = i18n.M("table.option.a-string")
		}
		return nil, bad("table.option.null", "want", want, "default", string(o.Default))
	}
	switch o.Type {
	case "integer":
		var n int
		if err := json.Unmarshal(v, &n); err != nil { // 2.0 and 2e0 too
			return nil, bad("table.option.not-whole", "value", string(v))
		}
		lo, hi := o.Minimum, o.Maximum
		if o.Seat {
			if n < 0 || n >= players {
				return nil, bad("table.option.not-seat", "last", players-1, "players", players, "seat", n)
			}
		}
		if (lo != nil && n < *lo) || (hi != nil && n > *hi) {
			return nil, bad("table.option.range", "min", deref(lo), "max", deref(hi), "value", n)
		}
		return n, nil
	case "boolean":
		var b bool
		if err := json.Unmarshal(v, &b); err != nil {
			return nil, bad("table.option.not-bool", "value", string(v))
		}
		return b, nil
	default:
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, bad("table.option.not-string", "value", string(v))
		}
		if len(o.Enum) > 0 && !slices.Contains(o.Enum, s) {
			return nil, bad("table.option.not-enum", "choices", strings.Join(o.Enum, ", "), "value", s)
		}
		return s, nil
	}
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
