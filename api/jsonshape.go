package api

import (
	"bytes"
	"encoding/json"

	"github.com/treasury-games/treasury/domain/i18n"
)

// JSONLimits bound the shape of a JSON request body. The schema validator's
// cost grows far faster than a body's length with its nesting (an 18 KB
// array nested 9,000 deep took a second of CPU to refuse), so every JSON body
// is measured by one cheap pass before it is validated, and refused with 400
// body_too_complex beyond any of these.
type JSONLimits struct {
	Depth  int // the most arrays and objects open at once
	Array  int // the most members of one array or object
	Tokens int // the most values, keys included, in the whole body
}

// DefaultJSONLimits are far above any request a client sends: a move nests 4
// deep and a whole game record 6 to 8 deep, with some 20,000 tokens in the
// largest record the record body limit (256 KiB) admits pretty-printed.
var DefaultJSONLimits = JSONLimits{Depth: 32, Array: 10000, Tokens: 200000}

// maxJSONDepth is the deepest JSONLimits.Depth may be.
const maxJSONDepth = 63

// Check returns a reason when data is deeper, wider or longer than l allows,
// "" when it is within them: the check the server makes of every JSON body,
// for callers outside the server (treasury verify).
func (l JSONLimits) Check(data []byte) string { return i18n.Text(checkJSONShape(data, l)) }

// checkJSONShape measures data in one pass and returns a reason when it is
// deeper, wider or longer than l allows. It does not check that data is valid
// JSON (the validator does, on bodies that pass): it only counts the
// brackets, separators and values outside strings, so that its cost is one
// read of each byte whatever the body holds.
func checkJSONShape(data []byte, l JSONLimits) i18n.Message {
	// counts[d] is how many members the container open at depth d has.
	var counts [maxJSONDepth + 1]int
	depth, tokens := 0, 0
	inValue := false // inside a number or literal, which ends at any separator
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch c {
		case '"':
			// A string: skip to its closing quote.
			i++
			for ; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
			inValue = false
			tokens++
		case '{', '[':
			inValue = false
			tokens++
			depth++
			if depth > l.Depth {
				return i18n.M("api.body.too-deep", "depth", l.Depth)
			}
			counts[depth] = 0
		case '}', ']':
			inValue = false
			if depth > 0 {
				depth--
			}
		case ',':
			inValue = false
			counts[depth]++
			if counts[depth] >= l.Array {
				return i18n.M("api.body.too-wide", "members", l.Array)
			}
		case ' ', '\t', '\r', '\n', ':':
			inValue = false
		default:
			if !inValue {
				inValue = true
				tokens++
			}
		}
		if tokens > l.Tokens {
			return i18n.M("api.body.too-many-values", "values", l.Tokens)
		}
	}
	return i18n.Message{}
}

// checkDuplicateNames returns a reason when an object of data names a member
// twice, "" otherwise. encoding/json keeps the last of the two, another
// reader may keep the first (RFC 8259 leaves it open): a body that means two
// things is refused rather than read one way. Names are compared as JSON
// reads them ("a" and "\u0061" are one name). Like checkJSONShape it only
// scans: a body that is not JSON is left to the parser after it.
func checkDuplicateNames(data []byte) i18n.Message {
	type frame struct {
		object  bool
		wantKey bool
		first   int                 // where its names start in names
		more    map[string]struct{} // all of them, past a few
	}
	// The names of the objects open, the innermost last; a move's body
	// fits in the arrays, kept on the stack.
	var frames [8]frame
	var firstNames [16][]byte
	stack, names := frames[:0], firstNames[:0]
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '{':
			stack = append(stack, frame{object: true, wantKey: true, first: len(names)})
		case '[':
			stack = append(stack, frame{first: len(names)})
		case '}', ']':
			if n := len(stack); n > 0 {
				names = names[:stack[n-1].first]
				stack = stack[:n-1]
			}
		case ',':
			if n := len(stack); n > 0 && stack[n-1].object {
				stack[n-1].wantKey = true
			}
		case '"':
			start, escaped := i, false
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
					escaped = true
				}
			}
			n := len(stack)
			if n == 0 || !stack[n-1].object || !stack[n-1].wantKey || i >= len(data) {
				continue
			}
			f := &stack[n-1]
			f.wantKey = false
			name := data[start+1 : i]
			if escaped {
				var s string
				if json.Unmarshal(data[start:i+1], &s) != nil {
					continue // not a JSON string: the parser says so
				}
				name = []byte(s)
			}
			if f.more != nil {
				if _, dup := f.more[string(name)]; dup {
					return i18n.M("api.body.duplicate-member", "name", string(name))
				}
				f.more[string(name)] = struct{}{}
				continue
			}
			for _, seen := range names[f.first:] {
				if bytes.Equal(seen, name) {
					return i18n.M("api.body.duplicate-member", "name", string(name))
				}
			}
			names = append(names, name)
			if len(names)-f.first > 16 {
				f.more = make(map[string]struct{}, 2*(len(names)-f.first))
				for _, s := range names[f.first:] {
					f.more[string(s)] = struct{}{}
				}
				names = names[:f.first]
			}
		}
	}
	return i18n.Message{}
}
