package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/tidwall/gjson"

	"github.com/treasury-games/treasury/domain"
)

// Choices is a listing read for choosing a move and nothing else, as a load
// client reads one after every move of its table. ParseChoices finds the
// entries and the pools without decoding them (gjson), and Pick decodes only
// the entry it chooses and that entry's pool, leaving out their labels
// (BenchmarkPick in scripts/internal/play measures both ways): decoding
// every listing whole into Listing took 63% of the load run's clients' CPU
// (issue 27), and a listing owes nothing most of the time. Pick chooses what
// Listing.Pick chooses with the same source.
type Choices struct {
	Version  int64
	Seat     int // -1: the host's reports
	Awaiting []domain.Await
	moves    gjson.Result // the entries, a JSON array; none when it does not exist
	pools    gjson.Result // the pools, a JSON object; none when it does not exist
}

// errJSON is a listing that is not the JSON it should be.
var errJSON = errors.New("malformed JSON")

// ParseChoices reads a listing (the body of GET .../legal-moves, the data of
// a legal_moves event); the Choices keeps a copy of what it needs. Keys are
// matched as the server writes them (exactly, not
// case-insensitively as encoding/json does). A listing that owes nothing is
// read only up to its moves when its seat and awaiting come before them, as
// the server writes them.
func ParseChoices(b []byte) (Choices, error) {
	if !gjson.ValidBytes(b) {
		return Choices{}, fmt.Errorf("a listing: %w", errJSON)
	}
	// gjson.ParseBytes copies the listing into a string of its own, so
	// the Choices never depend on b staying as it is.
	l := gjson.ParseBytes(b)
	if !l.IsObject() {
		return Choices{}, fmt.Errorf("a listing: %w: not an object", errJSON)
	}
	var c Choices
	var err error
	seat, awaiting := false, false
	l.ForEach(func(key, v gjson.Result) bool {
		switch key.Str {
		case "version":
			c.Version, err = integer(v)
		case "seat":
			var n int64
			n, err = integer(v)
			c.Seat, seat = int(n), true
		case "awaiting":
			c.Awaiting, err = awaits(v)
			awaiting = true
		case "moves":
			if seat && awaiting && !c.Owed() {
				return false // nothing to choose: the rest is not read
			}
			c.moves, err = kind(v, v.IsArray())
		case "pools":
			c.pools, err = kind(v, v.IsObject())
		}
		if err != nil {
			err = fmt.Errorf("a listing's %s: %w", key.Str, err)
		}
		return err == nil
	})
	if err != nil {
		return Choices{}, err
	}
	return c, nil
}

// integer is the JSON number v as an int64: an error for anything else
// (a fraction, an exponent, or beyond int64, as encoding/json says).
func integer(v gjson.Result) (int64, error) {
	if v.Type != gjson.Number {
		return 0, fmt.Errorf("%w: %s is not a number", errJSON, v.Raw)
	}
	n, err := strconv.ParseInt(v.Raw, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %s is not an int64", errJSON, v.Raw)
	}
	return n, nil
}

// awaits reads a listing's awaiting as encoding/json reads it into
// []domain.Await, with the keys matched exactly (a listing is read after
// every move of a table: encoding/json took a tenth of the load client's
// reading of it).
func awaits(v gjson.Result) ([]domain.Await, error) {
	return objects(v, func(a *domain.Await, key string, f gjson.Result) (err error) {
		var n int64
		switch key {
		case "actor":
			a.Actor, err = text(f, a.Actor)
		case "action":
			a.Action, err = text(f, a.Action)
		case "seat":
			if f.Type == gjson.Null {
				a.Seat = nil
			} else if n, err = integer(f); err == nil {
				seat := int(n)
				a.Seat = &seat
			}
		case "count":
			if f.Type != gjson.Null {
				n, err = integer(f)
				a.Count = int(n)
			}
		}
		return err
	})
}

// text is the JSON string v, or was when v is null (encoding/json leaves a
// string as it is for null).
func text(v gjson.Result, was string) (string, error) {
	switch v.Type {
	case gjson.Null:
		return was, nil
	case gjson.String:
		return v.Str, nil
	}
	return "", fmt.Errorf("%w: %.40s is not a string", errJSON, v.Raw)
}

// kind returns v when it is of the kind wanted (ok), nothing when it is
// null, and an error otherwise.
func kind(v gjson.Result, ok bool) (gjson.Result, error) {
	switch {
	case v.Type == gjson.Null:
		return gjson.Result{}, nil
	case !ok:
		return gjson.Result{}, fmt.Errorf("%w: %.40s", errJSON, v.Raw)
	}
	return v, nil
}

// Owed reports whether the listed seat is among those the game awaits
// (Listing.Owed).
func (c Choices) Owed() bool {
	return Listing{Seat: c.Seat, Awaiting: c.Awaiting}.Owed()
}

// Pick chooses a move as Listing.Pick does.
func (c Choices) Pick(r interface{ IntN(int) int }) (move json.RawMessage, typ string, ok bool, err error) {
	if !c.Owed() {
		return nil, "", false, nil
	}
	var few [32]string
	forward := few[:0]
	c.moves.ForEach(func(_, e gjson.Result) bool {
		if e.Get("correction").Type != gjson.True {
			forward = append(forward, e.Raw)
		}
		return true
	})
	if len(forward) == 0 {
		return nil, "", false, nil
	}
	var e struct {
		Move       json.RawMessage `json:"move"`
		Choose     *domain.Choose  `json:"choose"`
		Holds      []string        `json:"holds"`
		Correction bool            `json:"correction"`
	}
	if err := json.Unmarshal([]byte(forward[r.IntN(len(forward))]), &e); err != nil {
		return nil, "", false, fmt.Errorf("a listed move: %w", err)
	}
	var pools domain.Pools
	if e.Choose != nil {
		c.pools.ForEach(func(name, pool gjson.Result) bool {
			if name.Str != e.Choose.Pool {
				return true
			}
			var parts []domain.Part
			if parts, err = partsOf(pool); err == nil && parts != nil {
				pools = domain.Pools{name.Str: parts}
			}
			return false
		})
		if err != nil {
			return nil, "", false, fmt.Errorf("a listing's pools: %w", err)
		}
	}
	return complete(domain.LegalMove{Move: e.Move, Choose: e.Choose, Holds: e.Holds, Correction: e.Correction}, pools, r)
}

// partsOf reads a pool's parts without their labels, as encoding/json
// reads the rest into []domain.Part (with the keys matched exactly): the
// pool of the move picked is read after every listing that owes one.
func partsOf(pool gjson.Result) ([]domain.Part, error) {
	return objects(pool, func(p *domain.Part, key string, f gjson.Result) (err error) {
		switch key {
		case "add":
			p.Add, err = rawMembers(f, p.Add)
		case "excludes":
			p.Excludes, err = array(f, func(e gjson.Result) (string, error) { return text(e, "") })
		case "owes":
			if f.Type != gjson.Null {
				var n int64
				n, err = integer(f)
				p.Owes = int(n)
			}
		}
		return err
	})
}

// rawMembers reads an object into m (a new map when m is nil) as
// encoding/json reads one into a map[string]json.RawMessage: nil for null.
func rawMembers(v gjson.Result, m map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	if v.Type == gjson.Null {
		return nil, nil
	}
	if !v.IsObject() {
		return nil, fmt.Errorf("%w: %.40s is not an object", errJSON, v.Raw)
	}
	if m == nil {
		m = map[string]json.RawMessage{}
	}
	v.ForEach(func(key, f gjson.Result) bool {
		m[key.Str] = json.RawMessage(f.Raw)
		return true
	})
	return m, nil
}

// array reads an array as encoding/json reads one into a []T, each member
// read by member: nil for null.
func array[T any](v gjson.Result, member func(gjson.Result) (T, error)) ([]T, error) {
	if v.Type == gjson.Null {
		return nil, nil
	}
	if !v.IsArray() {
		return nil, fmt.Errorf("%w: %.40s is not an array", errJSON, v.Raw)
	}
	out := []T{}
	var err error
	v.ForEach(func(_, e gjson.Result) bool {
		var t T
		t, err = member(e)
		out = append(out, t)
		return err == nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// objects reads an array of objects as encoding/json reads one into a
// []T (a zero T for null), each member of an object read into its T by
// field.
func objects[T any](v gjson.Result, field func(t *T, key string, f gjson.Result) error) ([]T, error) {
	return array(v, func(e gjson.Result) (T, error) {
		var t T
		switch {
		case e.Type == gjson.Null:
			return t, nil
		case !e.IsObject():
			return t, fmt.Errorf("%w: %.40s is not an object", errJSON, e.Raw)
		}
		var err error
		e.ForEach(func(key, f gjson.Result) bool {
			err = field(&t, key.Str, f)
			return err == nil
		})
		return t, err
	})
}
