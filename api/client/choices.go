package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/treasury-games/treasury/domain"
)

// Choices is a listing read for choosing a move and nothing else, as a load
// client reads one after every move of its table. ParseChoices reads only
// what tells whether the listing owes a move (its version, seat and
// awaiting) and, when it owes one, finds the entries and the pools without
// decoding them (gjson); Pick checks the listing whole and decodes only the
// entry it chooses and that entry's pool, leaving out their labels
// (BenchmarkChoices, and BenchmarkPick in scripts/internal/play, measure it):
// decoding every listing whole into Listing took 63% of the load run's
// clients' CPU (issue 27), and a listing owes nothing most of the time.
// Pick chooses what Listing.Pick chooses with the same source.
type Choices struct {
	Version  int64
	Seat     int // -1: the host's reports
	Awaiting []domain.Await
	raw      string       // the listing, checked whole by Pick
	moves    gjson.Result // the entries, a JSON array; none when it does not exist
	pools    gjson.Result // the pools, a JSON object; none when it does not exist
}

// errJSON is a listing that is not the JSON it should be.
var errJSON = errors.New("malformed JSON")

// ParseChoices reads a listing (the body of GET .../legal-moves, the data of
// a legal_moves event); the Choices keeps a copy of it. Keys are matched as
// the server writes them (exactly, not case-insensitively as encoding/json
// does). ParseChoices checks what it reads, the listing's version, seat and
// awaiting, and reads a listing that owes nothing no further once it has
// them (the server writes them first); Pick checks the listing whole. A
// listing that is not the JSON it should be is an error of one or the
// other: of ParseChoices when what tells whether it owes a move is, of Pick
// otherwise, whether it owes one or not.
func ParseChoices(b []byte) (Choices, error) {
	// gjson.ParseBytes copies the listing into a string of its own, so
	// the Choices never depend on b staying as it is.
	l := gjson.ParseBytes(b)
	if !l.IsObject() {
		return Choices{}, fmt.Errorf("a listing: %w: not an object", errJSON)
	}
	c := Choices{raw: l.Raw}
	var err error
	version, seat, awaiting := false, false, false
	l.ForEach(func(key, v gjson.Result) bool {
		switch key.Str {
		case "version":
			c.Version, err = integer(v)
			version = true
		case "seat":
			var n int64
			n, err = integer(v)
			c.Seat, seat = int(n), true
		case "awaiting":
			if !gjson.Valid(v.Raw) {
				err = errJSON
			} else {
				c.Awaiting, err = awaits(v)
			}
			awaiting = true
		case "moves":
			c.moves, err = kind(v, v.IsArray())
		case "pools":
			c.pools, err = kind(v, v.IsObject())
		}
		if err != nil {
			err = fmt.Errorf("a listing's %s: %w", key.Str, err)
			return false
		}
		if version && seat && awaiting && !c.Owed() {
			// Nothing to choose: the rest is not read.
			c.moves, c.pools = gjson.Result{}, gjson.Result{}
			return false
		}
		return true
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

// Pick chooses a move as Listing.Pick does. It checks the listing whole
// first: a listing that is not JSON is an error, whether it owes a move or
// not.
func (c Choices) Pick(r interface{ IntN(int) int }) (move json.RawMessage, typ string, ok bool, err error) {
	if c.raw != "" && !gjson.Valid(c.raw) {
		return nil, "", false, fmt.Errorf("a listing: %w", errJSON)
	}
	if !c.Owed() {
		return nil, "", false, nil
	}
	var few [32]string
	forward := few[:0]
	c.moves.ForEach(func(_, e gjson.Result) bool {
		if !correction(e) {
			forward = append(forward, e.Raw)
		}
		return true
	})
	if len(forward) == 0 {
		return nil, "", false, nil
	}
	e, err := entry(gjson.Parse(forward[r.IntN(len(forward))]))
	if err != nil {
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
	return complete(e, pools, r, moveType)
}

// correction reports whether the entry e is marked a correction. An entry
// whose text holds neither the word nor an escape (which could spell it)
// is not one, and is not read.
func correction(e gjson.Result) bool {
	if !strings.Contains(e.Raw, "correction") && !strings.Contains(e.Raw, `\`) {
		return false
	}
	return e.Get("correction").Type == gjson.True
}

// entry reads a listed entry as encoding/json reads one into a
// domain.LegalMove, without its labels (with the keys matched exactly).
func entry(v gjson.Result) (domain.LegalMove, error) {
	return object(v, domain.LegalMove{}, func(e *domain.LegalMove, key string, f gjson.Result) (err error) {
		switch key {
		case "move":
			e.Move = json.RawMessage(f.Raw)
		case "choose":
			e.Choose, err = choose(f, e.Choose)
		case "holds":
			e.Holds, err = array(f, func(h gjson.Result) (string, error) { return text(h, "") })
		case "correction":
			switch f.Type {
			case gjson.True, gjson.False:
				e.Correction = f.Type == gjson.True
			case gjson.Null:
			default:
				err = fmt.Errorf("%w: %.40s is not a boolean", errJSON, f.Raw)
			}
		}
		return err
	})
}

// choose reads an entry's choose into was (a new one when was is nil) as
// encoding/json reads one into a *domain.Choose: nil for null.
func choose(v gjson.Result, was *domain.Choose) (*domain.Choose, error) {
	if v.Type == gjson.Null {
		return nil, nil
	}
	if was == nil {
		was = &domain.Choose{}
	}
	c, err := object(v, *was, func(c *domain.Choose, key string, f gjson.Result) (err error) {
		var n int64
		switch key {
		case "pool":
			c.Pool, err = text(f, c.Pool)
		case "min":
			if f.Type != gjson.Null {
				n, err = integer(f)
				c.Min = int(n)
			}
		case "max":
			if f.Type != gjson.Null {
				n, err = integer(f)
				c.Max = int(n)
			}
		}
		return err
	})
	return &c, err
}

// moveType is the type of a completed move, read as encoding/json reads
// one into a struct of it (with the key matched exactly).
func moveType(move json.RawMessage) (string, error) {
	v := gjson.ParseBytes(move)
	switch {
	case len(move) == 0:
		return "", fmt.Errorf("%w: no move", errJSON)
	case v.Type == gjson.Null:
		return "", nil
	case !v.IsObject():
		return "", fmt.Errorf("%w: %.40s is not an object", errJSON, v.Raw)
	}
	return text(v.Get("type"), "")
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
// []T (a zero T for null), each object read by object.
func objects[T any](v gjson.Result, field func(t *T, key string, f gjson.Result) error) ([]T, error) {
	var zero T
	return array(v, func(e gjson.Result) (T, error) { return object(e, zero, field) })
}

// object reads an object into t as encoding/json reads one into a T (t as
// it is for null), each member read by field.
func object[T any](v gjson.Result, t T, field func(t *T, key string, f gjson.Result) error) (T, error) {
	switch {
	case v.Type == gjson.Null:
		return t, nil
	case !v.IsObject():
		return t, fmt.Errorf("%w: %.40s is not an object", errJSON, v.Raw)
	}
	var err error
	v.ForEach(func(key, f gjson.Result) bool {
		err = field(&t, key.Str, f)
		return err == nil
	})
	return t, err
}
