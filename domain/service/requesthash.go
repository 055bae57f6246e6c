package service

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/treasury-games/treasury/domain"
)

// requestHash is the hash an idempotency record keeps of a move, so that a
// retry is told from another move sent with the same key: the hash of the
// move's canonical JSON (no whitespace, object members sorted by key,
// strings escaped as encoding/json escapes them, numbers as written), so
// that a client that re-serialises the same move (spacing, key order,
// escapes) is recognised as retrying it. A move that is not JSON is hashed
// as it is. Without a key nothing is hashed: Play needs no hash then.
func requestHash(move []byte, key string) string {
	if key == "" {
		return ""
	}
	canon, rest, err := appendCanonical(make([]byte, 0, len(move)), move, 0)
	if err != nil || len(bytes.TrimSpace(rest)) > 0 {
		return domain.HashSecret(string(move))
	}
	return domain.HashSecret(string(canon))
}

// sameRequest reports whether a move whose hash is reqHash is the one an
// idempotency record hashed as stored. Records written before moves were
// hashed in canonical form hashed the bytes as sent.
func sameRequest(stored, reqHash string, move []byte) bool {
	return stored == reqHash || stored == domain.HashSecret(string(move))
}

var errNotCanonical = errors.New("domain: not JSON that can be put in canonical form")

// maxCanonicalDepth bounds the recursion of appendCanonical; a move nests 4
// deep.
const maxCanonicalDepth = 64

// appendCanonical appends the canonical form of the JSON value at the start
// of data to b, and returns the rest of data. It is a hand-written
// equivalent of decoding with UseNumber and encoding again (which costs some
// 15 µs and 80 allocations for a crossing; this, a fifth of the time and
// under half the allocations: BenchmarkRequestHash).
func appendCanonical(b, data []byte, depth int) ([]byte, []byte, error) {
	data = skipSpace(data)
	if len(data) == 0 || depth > maxCanonicalDepth {
		return b, data, errNotCanonical
	}
	switch c := data[0]; {
	case c == '{':
		type member struct {
			key   string
			value []byte
		}
		var members []member
		data = skipSpace(data[1:])
		if len(data) > 0 && data[0] == '}' {
			return append(b, "{}"...), data[1:], nil
		}
		for {
			k, rest, err := parseString(skipSpace(data))
			if err != nil {
				return b, data, err
			}
			rest = skipSpace(rest)
			if len(rest) == 0 || rest[0] != ':' {
				return b, data, errNotCanonical
			}
			var v []byte
			if v, rest, err = appendCanonical(nil, rest[1:], depth+1); err != nil {
				return b, data, err
			}
			members = append(members, member{k, v})
			rest = skipSpace(rest)
			if len(rest) == 0 {
				return b, data, errNotCanonical
			}
			if rest[0] == '}' {
				data = rest[1:]
				break
			}
			if rest[0] != ',' {
				return b, data, errNotCanonical
			}
			data = rest[1:]
		}
		slices.SortStableFunc(members, func(x, y member) int { return strings.Compare(x.key, y.key) })
		b = append(b, '{')
		for i, m := range members {
			if i > 0 {
				b = append(b, ',')
			}
			b = domain.AppendJSONString(b, m.key)
			b = append(b, ':')
			b = append(b, m.value...)
		}
		return append(b, '}'), data, nil
	case c == '[':
		b = append(b, '[')
		data = skipSpace(data[1:])
		if len(data) > 0 && data[0] == ']' {
			return append(b, ']'), data[1:], nil
		}
		for first := true; ; first = false {
			if !first {
				b = append(b, ',')
			}
			var err error
			if b, data, err = appendCanonical(b, data, depth+1); err != nil {
				return b, data, err
			}
			data = skipSpace(data)
			if len(data) == 0 {
				return b, data, errNotCanonical
			}
			if data[0] == ']' {
				return append(b, ']'), data[1:], nil
			}
			if data[0] != ',' {
				return b, data, errNotCanonical
			}
			data = data[1:]
		}
	case c == '"':
		s, rest, err := parseString(data)
		if err != nil {
			return b, data, err
		}
		return domain.AppendJSONString(b, s), rest, nil
	default: // a number or a literal, as written
		i := 0
		for i < len(data) && (data[i] >= '0' && data[i] <= '9' || data[i] >= 'a' && data[i] <= 'z' || data[i] == '-' || data[i] == '+' || data[i] == '.' || data[i] == 'E') {
			i++
		}
		if i == 0 {
			return b, data, errNotCanonical
		}
		return append(b, data[:i]...), data[i:], nil
	}
}

// parseString reads the JSON string at the start of data.
func parseString(data []byte) (string, []byte, error) {
	if len(data) == 0 || data[0] != '"' {
		return "", data, errNotCanonical
	}
	escaped := false
	for i := 1; i < len(data); i++ {
		switch data[i] {
		case '\\':
			escaped = true
			i++
		case '"':
			if !escaped {
				return string(data[1:i]), data[i+1:], nil
			}
			var s string
			if err := json.Unmarshal(data[:i+1], &s); err != nil {
				return "", data, errNotCanonical
			}
			return s, data[i+1:], nil
		}
	}
	return "", data, errNotCanonical
}

func skipSpace(data []byte) []byte {
	for len(data) > 0 && (data[0] == ' ' || data[0] == '\t' || data[0] == '\n' || data[0] == '\r') {
		data = data[1:]
	}
	return data
}
