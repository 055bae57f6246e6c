package domain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
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
			return nil, Errorf(Invalid, "options must be a JSON object of option names and values")
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
			return nil, Errorf(Invalid, "unknown option %q: this ruleset takes no options", names[0])
		}
		return nil, Errorf(Invalid, "unknown option %q: this ruleset takes %s", names[0], strings.Join(known, ", "))
	}
	return json.Marshal(out)
}

func (o Option) check(v json.RawMessage, players int) (any, error) {
	bad := func(format string, args ...any) error {
		return Errorf(Invalid, "option %s: %s", o.Name, fmt.Sprintf(format, args...))
	}
	// json.Unmarshal takes null as "leave it as it is": for an option it
	// would be 0, false or "", which the client did not send.
	if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		want := map[string]string{"integer": "a whole number", "boolean": "true or false"}[o.Type]
		if want == "" {
			want = "a string"
		}
		return nil, bad("must be %s, not null (leave the option out for its default, %s)", want, o.Default)
	}
	switch o.Type {
	case "integer":
		var n int
		if err := json.Unmarshal(v, &n); err != nil { // 2.0 and 2e0 too
			return nil, bad("must be a whole number written without a fraction or exponent, not %s", v)
		}
		lo, hi := o.Minimum, o.Maximum
		if o.Seat {
			if n < 0 || n >= players {
				return nil, bad("names a seat, 0 to %d in a game of %d players; %d is none", players-1, players, n)
			}
		}
		if (lo != nil && n < *lo) || (hi != nil && n > *hi) {
			return nil, bad("must be from %d to %d, not %d", deref(lo), deref(hi), n)
		}
		return n, nil
	case "boolean":
		var b bool
		if err := json.Unmarshal(v, &b); err != nil {
			return nil, bad("must be true or false, not %s", v)
		}
		return b, nil
	default:
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, bad("must be a string, not %s", v)
		}
		if len(o.Enum) > 0 && !slices.Contains(o.Enum, s) {
			return nil, bad("must be one of %s, not %q", strings.Join(o.Enum, ", "), s)
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
