package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/treasury-games/treasury/domain"
)

// Choices is a listing read for choosing a move and nothing else, as a load
// client reads one after every move of its table. ParseChoices finds the
// entries and the pools without decoding them, and Pick decodes only the
// entry it chooses and that entry's pool, leaving out their labels
// (BenchmarkPick in scripts/internal/play measures both ways): decoding
// every listing whole into Listing took 63% of the load run's clients' CPU
// (issue 27), and a listing owes nothing most of the time. Pick chooses what
// Listing.Pick chooses with the same source.
type Choices struct {
	Version  int64
	Seat     int // -1: the host's reports
	Awaiting []domain.Await
	moves    []byte // the entries, a JSON array; nil for none
	pools    []byte // the pools, a JSON object; nil for none
}

// ParseChoices reads a listing (the body of GET .../legal-moves, the data of
// a legal_moves event). The Choices refers to b, which must not change while
// it is used. Keys are matched as the server writes them (exactly, not
// case-insensitively as encoding/json does), and the JSON is checked where it
// is walked or decoded, not every byte of it: a listing that owes nothing is
// read only up to its moves when its seat and awaiting come before them, as
// the server writes them.
func ParseChoices(b []byte) (Choices, error) {
	var c Choices
	seat, awaiting := false, false
	err := members(b, func(key, v []byte) error {
		var err error
		switch string(key) {
		case "version":
			c.Version, err = strconv.ParseInt(string(v), 10, 64)
		case "seat":
			c.Seat, err = strconv.Atoi(string(v))
			seat = true
		case "awaiting":
			c.Awaiting, err = awaits(v)
			awaiting = true
		case "moves":
			if seat && awaiting && !c.Owed() {
				return errEnough
			}
			c.moves = notNull(v)
		case "pools":
			c.pools = notNull(v)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		return nil
	})
	if err != nil && err != errEnough {
		return Choices{}, fmt.Errorf("a listing: %w", err)
	}
	return c, nil
}

// errEnough stops a walk that has found what it needs.
var errEnough = errors.New("enough")

func notNull(v []byte) []byte {
	if string(v) == "null" {
		return nil
	}
	return v
}

// awaits decodes a listing's awaiting as encoding/json would.
func awaits(v []byte) ([]domain.Await, error) {
	return objects(v, func(a *domain.Await, key, v []byte) error {
		var err error
		switch string(key) {
		case "actor":
			a.Actor, err = jsonString(v)
		case "seat":
			if v = notNull(v); v != nil {
				var seat int
				seat, err = strconv.Atoi(string(v))
				a.Seat = &seat
			}
		case "action":
			a.Action, err = jsonString(v)
		case "count":
			a.Count, err = strconv.Atoi(string(v))
		}
		return err
	})
}

// objects decodes the JSON array of objects v (null: nil) as encoding/json
// would decode it into a []T, each member of each object by member.
func objects[T any](v []byte, member func(t *T, key, value []byte) error) ([]T, error) {
	if v = notNull(v); v == nil {
		return nil, nil
	}
	out := []T{}
	err := elements(v, func(e []byte) error {
		var t T
		err := members(notNull(e), func(key, v []byte) error { return member(&t, key, v) })
		out = append(out, t)
		return err
	})
	return out, err
}

// jsonString decodes a JSON string; one without escapes is taken as it is.
func jsonString(v []byte) (string, error) {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' && !bytes.ContainsRune(v[1:len(v)-1], '\\') {
		return string(v[1 : len(v)-1]), nil
	}
	var s string
	err := json.Unmarshal(v, &s)
	return s, err
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
	var forward [][]byte
	if c.moves != nil {
		_, err = walk(c.moves, 0, '[', ']', func(i int) (int, error) {
			correction := false
			end, err := object(c.moves, i, func(key, v []byte) error {
				if string(key) == "correction" {
					correction = string(v) == "true"
				}
				return nil
			})
			if err == nil && !correction {
				forward = append(forward, c.moves[i:end])
			}
			return end, err
		})
	}
	if err != nil {
		return nil, "", false, fmt.Errorf("a listing's moves: %w", err)
	}
	if len(forward) == 0 {
		return nil, "", false, nil
	}
	var e struct {
		Move       json.RawMessage `json:"move"`
		Choose     *domain.Choose  `json:"choose"`
		Holds      []string        `json:"holds"`
		Correction bool            `json:"correction"`
	}
	if err := json.Unmarshal(forward[r.IntN(len(forward))], &e); err != nil {
		return nil, "", false, fmt.Errorf("a listed move: %w", err)
	}
	var pools domain.Pools
	if e.Choose != nil {
		err := members(c.pools, func(name, v []byte) error {
			if string(name) != e.Choose.Pool {
				return nil
			}
			pool, err := parts(v)
			pools = domain.Pools{e.Choose.Pool: pool}
			return err
		})
		if err != nil {
			return nil, "", false, fmt.Errorf("a listing's pools: %w", err)
		}
	}
	return complete(domain.LegalMove{Move: e.Move, Choose: e.Choose, Holds: e.Holds, Correction: e.Correction}, pools, r)
}

// parts decodes a pool as encoding/json would, leaving out the labels.
func parts(v []byte) ([]domain.Part, error) {
	return objects(v, func(p *domain.Part, key, v []byte) error {
		var err error
		switch string(key) {
		case "add":
			if v = notNull(v); v != nil {
				p.Add = map[string]json.RawMessage{}
			}
			err = members(v, func(name, v []byte) error {
				k, err := jsonString(append(append([]byte{'"'}, name...), '"'))
				p.Add[k] = json.RawMessage(v)
				return err
			})
		case "excludes":
			err = elements(notNull(v), func(x []byte) error {
				s, err := jsonString(x)
				p.Excludes = append(p.Excludes, s)
				return err
			})
		case "owes":
			p.Owes, err = strconv.Atoi(string(v))
		}
		return err
	})
}

// errJSON is a listing that is not the JSON it should be.
var errJSON = errors.New("malformed JSON")

// members calls fn with each member of the JSON object b (nil: none),
// its key as written between the quotes and its value.
func members(b []byte, fn func(key, value []byte) error) error {
	if b == nil {
		return nil
	}
	_, err := object(b, space(b, 0), fn)
	return err
}

// object calls fn with each member of the JSON object that starts at b[i],
// and returns its end.
func object(b []byte, i int, fn func(key, value []byte) error) (int, error) {
	return walk(b, i, '{', '}', func(i int) (int, error) {
		if i >= len(b) || b[i] != '"' {
			return 0, errJSON
		}
		end, err := stringEnd(b, i)
		if err != nil {
			return 0, err
		}
		key := b[i+1 : end-1]
		if i = space(b, end); i >= len(b) || b[i] != ':' {
			return 0, errJSON
		}
		i = space(b, i+1)
		if end, err = valueEnd(b, i); err != nil {
			return 0, err
		}
		return end, fn(key, b[i:end])
	})
}

// elements calls fn with each element of the JSON array b (nil: none).
func elements(b []byte, fn func(value []byte) error) error {
	if b == nil {
		return nil
	}
	_, err := walk(b, space(b, 0), '[', ']', func(i int) (int, error) {
		end, err := valueEnd(b, i)
		if err != nil {
			return 0, err
		}
		return end, fn(b[i:end])
	})
	return err
}

// walk walks the JSON object or array that starts at b[i], between open
// and shut, calling item at the start of each member or element; item
// returns where that ends. It returns the end of the whole.
func walk(b []byte, i int, open, shut byte, item func(i int) (int, error)) (int, error) {
	if i >= len(b) || b[i] != open {
		return 0, errJSON
	}
	if i = space(b, i+1); i < len(b) && b[i] == shut {
		return i + 1, nil
	}
	for {
		end, err := item(i)
		if err != nil {
			return 0, err
		}
		switch i = space(b, end); {
		case i < len(b) && b[i] == ',':
			i = space(b, i+1)
		case i < len(b) && b[i] == shut:
			return i + 1, nil
		default:
			return 0, errJSON
		}
	}
}

// space returns the index of the first byte from i on that is not JSON's
// white space.
func space(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// valueEnd returns the end of the JSON value that starts at b[i].
func valueEnd(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, errJSON
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, err := stringEnd(b, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, errJSON
	case ',', ':', '}', ']':
		return 0, errJSON
	}
	j := i // a number, true, false or null
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	return j, nil
}

// stringEnd returns the end of the JSON string that starts at b[i]: the
// quote after it that no backslash escapes.
func stringEnd(b []byte, i int) (int, error) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		}
	}
	return 0, errJSON
}
