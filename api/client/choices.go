package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/treasury-games/treasury/domain"
)

// Choices is a listing read for choosing a move and nothing else, as a load
// client reads one after every move of its table. ParseChoices finds the
// entries and the pools without decoding them, and Pick decodes only the
// entry it chooses and that entry's pool, leaving out their labels: decoding
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
// is walked or decoded, not every byte of it.
func ParseChoices(b []byte) (Choices, error) {
	var c Choices
	err := members(b, func(key, v []byte) error {
		var err error
		switch string(key) {
		case "version":
			c.Version, err = strconv.ParseInt(string(v), 10, 64)
		case "seat":
			c.Seat, err = strconv.Atoi(string(v))
		case "awaiting":
			err = json.Unmarshal(v, &c.Awaiting)
		case "moves":
			c.moves = notNull(v)
		case "pools":
			c.pools = notNull(v)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		return nil
	})
	if err != nil {
		return Choices{}, fmt.Errorf("a listing: %w", err)
	}
	return c, nil
}

func notNull(v []byte) []byte {
	if string(v) == "null" {
		return nil
	}
	return v
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
	err = elements(c.moves, func(e []byte) error {
		correction := false
		err := members(e, func(key, v []byte) error {
			if string(key) == "correction" {
				correction = string(v) == "true"
			}
			return nil
		})
		if !correction {
			forward = append(forward, e)
		}
		return err
	})
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
			var parts []struct {
				Add      map[string]json.RawMessage `json:"add"`
				Excludes []string                   `json:"excludes"`
				Owes     int                        `json:"owes"`
			}
			if err := json.Unmarshal(v, &parts); err != nil {
				return err
			}
			pool := make([]domain.Part, len(parts))
			for i, p := range parts {
				pool[i] = domain.Part{Add: p.Add, Excludes: p.Excludes, Owes: p.Owes}
			}
			pools = domain.Pools{e.Choose.Pool: pool}
			return nil
		})
		if err != nil {
			return nil, "", false, fmt.Errorf("a listing's pools: %w", err)
		}
	}
	return complete(domain.LegalMove{Move: e.Move, Choose: e.Choose, Holds: e.Holds, Correction: e.Correction}, pools, r)
}

// errJSON is a listing that is not the JSON it should be.
var errJSON = errors.New("malformed JSON")

// members calls fn with each member of the JSON object b (nil: none),
// its key as written between the quotes and its value.
func members(b []byte, fn func(key, value []byte) error) error {
	return each(b, '{', '}', func(i int) (int, error) {
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
	return each(b, '[', ']', func(i int) (int, error) {
		end, err := valueEnd(b, i)
		if err != nil {
			return 0, err
		}
		return end, fn(b[i:end])
	})
}

// each walks the JSON object or array b (nil: none) between open and
// shut, calling item at the start of each member or element; item returns
// where that ends.
func each(b []byte, open, shut byte, item func(i int) (int, error)) error {
	if b == nil {
		return nil
	}
	i := space(b, 0)
	if i >= len(b) || b[i] != open {
		return errJSON
	}
	if i = space(b, i+1); i < len(b) && b[i] == shut {
		return nil
	}
	for {
		end, err := item(i)
		if err != nil {
			return err
		}
		switch i = space(b, end); {
		case i < len(b) && b[i] == ',':
			i = space(b, i+1)
		case i < len(b) && b[i] == shut:
			return nil
		default:
			return errJSON
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
