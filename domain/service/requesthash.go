package service

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"

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
	var buf [512]byte // a move's canonical form fits, and stays on the stack
	canon, rest, err := appendCanonical(buf[:0], move, 0)
	if err != nil || len(bytes.TrimSpace(rest)) > 0 {
		return domain.HashSecret(string(move))
	}
	return hashBytes(canon)
}

// hashBytes is domain.HashSecret of string(b), without copying b into a
// string first.
func hashBytes(b []byte) string {
	h := sha256.Sum256(b)
	var out [2 * sha256.Size]byte
	hex.Encode(out[:], h[:])
	return string(out[:])
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
// 15 µs and 80 allocations for a crossing; this, a tenth of the time, and
// no allocation while the form fits the buffer requestHash gives it:
// BenchmarkRequestHash).
func appendCanonical(b, data []byte, depth int) ([]byte, []byte, error) {
	data = skipSpace(data)
	if len(data) == 0 || depth > maxCanonicalDepth {
		return b, data, errNotCanonical
	}
	switch c := data[0]; {
	case c == '{':
		// The members go to b as they are read (key, then value, each in
		// canonical form), then once more after them in key order, which
		// is moved down over them: b is the only buffer.
		type member struct {
			key        []byte // decoded, to sort by
			start, end int    // of `"key":value` in b
		}
		var small [8]member
		members := small[:0]
		data = skipSpace(data[1:])
		if len(data) > 0 && data[0] == '}' {
			return append(b, "{}"...), data[1:], nil
		}
		start := len(b)
		for {
			at := len(b)
			k, rest, err := parseKey(skipSpace(data))
			if err != nil {
				return b, data, err
			}
			if b, err = appendString(b, skipSpace(data)); err != nil {
				return b, data, err
			}
			rest = skipSpace(rest)
			if len(rest) == 0 || rest[0] != ':' {
				return b, data, errNotCanonical
			}
			b = append(b, ':')
			if b, rest, err = appendCanonical(b, rest[1:], depth+1); err != nil {
				return b, data, err
			}
			members = append(members, member{k, at, len(b)})
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
		slices.SortStableFunc(members, func(x, y member) int { return bytes.Compare(x.key, y.key) })
		sorted := len(b)
		b = append(b, '{')
		for i, m := range members {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, b[m.start:m.end]...)
		}
		b = append(b, '}')
		n := copy(b[start:], b[sorted:])
		return b[:start+n], data, nil
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
		_, rest, err := parseKey(data)
		if err != nil {
			return b, data, err
		}
		b, err = appendString(b, data)
		return b, rest, err
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

// parseKey reads the JSON string at the start of data, as bytes to sort
// by: those of data itself when it has no escapes.
func parseKey(data []byte) ([]byte, []byte, error) {
	if len(data) == 0 || data[0] != '"' {
		return nil, data, errNotCanonical
	}
	escaped := false
	for i := 1; i < len(data); i++ {
		switch data[i] {
		case '\\':
			escaped = true
			i++
		case '"':
			if !escaped {
				return data[1:i], data[i+1:], nil
			}
			var s string
			if err := json.Unmarshal(data[:i+1], &s); err != nil {
				return nil, data, errNotCanonical
			}
			return []byte(s), data[i+1:], nil
		}
	}
	return nil, data, errNotCanonical
}

// appendString appends the canonical form of the JSON string at the start
// of data (which parseKey has read) to b: the string as written when
// domain.AppendJSONString would write it so (printable ASCII, nothing it
// escapes), else what it writes of the decoded string.
func appendString(b, data []byte) ([]byte, error) {
	for i := 1; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			return append(b, data[:i+1]...), nil
		case c < 0x20 || c >= 0x7f || c == '\\' || c == '<' || c == '>' || c == '&':
			k, _, err := parseKey(data)
			if err != nil {
				return b, err
			}
			return domain.AppendJSONString(b, string(k)), nil
		}
	}
	return b, errNotCanonical
}

func skipSpace(data []byte) []byte {
	for len(data) > 0 && (data[0] == ' ' || data[0] == '\t' || data[0] == '\n' || data[0] == '\r') {
		data = data[1:]
	}
	return data
}
