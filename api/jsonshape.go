package api

import (
	"fmt"
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
func (l JSONLimits) Check(data []byte) string { return checkJSONShape(data, l) }

// checkJSONShape measures data in one pass and returns a reason when it is
// deeper, wider or longer than l allows. It does not check that data is valid
// JSON (the validator does, on bodies that pass): it only counts the
// brackets, separators and values outside strings, so that its cost is one
// read of each byte whatever the body holds.
func checkJSONShape(data []byte, l JSONLimits) string {
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
				return fmt.Sprintf("the request body nests arrays and objects more than %d deep", l.Depth)
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
				return fmt.Sprintf("an array or object of the request body has more than %d members", l.Array)
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
			return fmt.Sprintf("the request body holds more than %d values", l.Tokens)
		}
	}
	return ""
}
