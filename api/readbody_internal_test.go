package api

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestCheckDuplicateNames(t *testing.T) {
	many := `{"a1":1,"a2":1,"a3":1,"a4":1,"a5":1,"a6":1,"a7":1,"a8":1,"a9":1,"b1":1,"b2":1,"b3":1,"b4":1,"b5":1,"b6":1,"b7":1,"b8":1,"b9":1`
	for _, c := range []struct {
		name, body, dup string // dup: the name said twice; "" passes
	}{
		{"a move", `{"type":"cross","seat":0,"card":"orange-05","boxes":[[1,1],[1,2]]}`, ""},
		{"twice", `{"type":"cross","seat":0,"type":"take"}`, "type"},
		{"escaped", `{"seat":0,"s\u0065at":1}`, "seat"},
		{"escaped first", `{"s\u0065at":0,"seat":1}`, "seat"},
		{"in a nested object", `{"extra":[{"card":"a","card":"b"}]}`, "card"},
		{"a name of the parent in a child", `{"card":"a","extra":[{"card":"b"}]}`, ""},
		{"siblings share names", `[{"card":"a"},{"card":"b"}]`, ""},
		{"the parent's names after a child", `{"card":"a","extra":{"x":1},"card":"b"}`, "card"},
		{"a child's names forgotten after it", `{"extra":{"x":1},"x":2}`, ""},
		{"a value is no name", `{"a":"b","b":"a"}`, ""},
		{"past sixteen names", many + `,"a3":2}`, "a3"},
		{"past sixteen names, none twice", many + `,"c1":2}`, ""},
		{"past sixteen names, nested", `{"x":` + many + `},"x":1}`, "x"},
		{"deeper than eight", `[[[[[[[[[[{"a":1,"a":2}]]]]]]]]]]`, "a"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := checkDuplicateNames([]byte(c.body))
			if name, _ := got.Params["name"].(string); name != c.dup || got.Zero() != (c.dup == "") {
				t.Errorf("checkDuplicateNames(%s) = %v, want %q named", c.body, got, c.dup)
			}
		})
	}
}

// BenchmarkCheckDuplicateNames: a move's body, scanned on every move.
func BenchmarkCheckDuplicateNames(b *testing.B) {
	body := []byte(`{"type":"cross","seat":2,"card":"orange-05","boxes":[[1,1],[1,2],[2,2]],"extra":[{"card":"green-10","box":[1,0]}]}`)
	b.ReportAllocs()
	for b.Loop() {
		if !checkDuplicateNames(body).Zero() {
			b.Fatal("a duplicate")
		}
	}
}

// readAll returns what a reader gives, whatever length was announced, and
// its error but io.EOF.
func TestReadAll(t *testing.T) {
	body := `{"type":"cross","seat":2}`
	broken := errors.New("broken")
	for _, c := range []struct {
		name   string
		r      func() io.Reader
		length int64
		err    error
	}{
		{"as long as announced", func() io.Reader { return strings.NewReader(body) }, int64(len(body)), nil},
		{"a byte at a time", func() io.Reader { return iotest.OneByteReader(strings.NewReader(body)) }, int64(len(body)), nil},
		{"with its EOF", func() io.Reader { return iotest.DataErrReader(strings.NewReader(body)) }, int64(len(body)), nil},
		{"unannounced", func() io.Reader { return strings.NewReader(body) }, -1, nil},
		{"shorter", func() io.Reader { return strings.NewReader(body) }, int64(len(body)) + 10, nil},
		{"longer", func() io.Reader { return strings.NewReader(body) }, 5, nil},
		{"one byte longer", func() io.Reader { return strings.NewReader(body) }, int64(len(body)) - 1, nil},
		{"cut off", func() io.Reader { return io.MultiReader(strings.NewReader(body), iotest.ErrReader(broken)) }, int64(len(body)) + 10, broken},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := readAll(c.r(), c.length)
			if string(got) != body || !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
				t.Errorf("readAll = %q, %v; want %q, %v", got, err, body, c.err)
			}
		})
	}
}
