package api

import (
	"strings"
	"testing"
)

func TestCheckJSONShape(t *testing.T) {
	l := JSONLimits{Depth: 4, Array: 5, Tokens: 16}
	for _, c := range []struct {
		name, body, want string // want: a word of the reason; "" passes
	}{
		{"a move", `{"type":"cross","seat":0,"boxes":[[0,1],[1,1]]}`, ""},
		{"as deep as allowed", `[[[[1]]]]`, ""},
		{"one level too deep", `[[[[[1]]]]]`, "deep"},
		{"brackets inside strings do not count", `{"a":"[[[[[[[[{{{{{{,,,,,,,"}`, ""},
		{"escaped quotes stay inside the string", `{"a":"\"[[[[[[[[\\"}`, ""},
		{"an array of five", `[1,2,3,4,5]`, ""},
		{"an array of six", `[1,2,3,4,5,6]`, "members"},
		{"an object of six", `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}`, "members"},
		{"width counted per container", `[[1,2,3,4,5],[1,2,3,4,5]]`, ""},
		{"seventeen values", `[[1,2,3],[4,5,6],[7,8,9],[1,2,3]]`, "values"},
		{"numbers and literals are one value each", `[12345,true,null]`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := l.Check([]byte(c.body))
			if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
				t.Errorf("checkJSONShape(%s) = %q, want a reason with %q", c.body, got, c.want)
			}
		})
	}
}

// BenchmarkCheckJSONShape measures the scan of the worst bodies the record
// body limit admits: one that is refused at the first bracket too deep, and
// one that is read to its end (a string, the most bytes for one value).
func BenchmarkCheckJSONShape(b *testing.B) {
	for _, c := range []struct {
		name string
		body []byte
	}{
		{"nested", []byte(strings.Repeat("[", RecordBodyLimit))},
		{"flat", []byte(strings.Repeat("1,", RecordBodyLimit/2))},
		{"string", []byte(`"` + strings.Repeat("a", RecordBodyLimit-2) + `"`)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.body)))
			for b.Loop() {
				checkJSONShape(c.body, DefaultJSONLimits)
			}
		})
	}
}
