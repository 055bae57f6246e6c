package service

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/treasury-games/treasury/domain"
)

func TestRequestHash(t *testing.T) {
	move := []byte(`{"type":"keep","seat":0,"cards":["grey-01","orange-04"]}`)
	same := [][]byte{
		[]byte(`{ "seat": 0, "cards": [ "grey-01", "orange-04" ], "type": "keep" }`),
		[]byte("{\n  \"cards\": [\"grey-01\",\"orange-04\"],\n  \"type\": \"ke\\u0065p\",\n  \"seat\": 0\n}"),
	}
	other := [][]byte{
		[]byte(`{"type":"keep","seat":0,"cards":["orange-04","grey-01"]}`),
		[]byte(`{"type":"keep","seat":1,"cards":["grey-01","orange-04"]}`),
		[]byte(`{"type":"keep","seat":0,"cards":["grey-01","orange-04"],"x":1}`),
	}
	h := requestHash(move, "k")
	for _, m := range same {
		if requestHash(m, "k") != h {
			t.Errorf("%s hashes unlike %s", m, move)
		}
	}
	for _, m := range other {
		if requestHash(m, "k") == h {
			t.Errorf("%s hashes like %s", m, move)
		}
	}
	if requestHash(move, "") != "" {
		t.Error("a move without a key is hashed")
	}
	if !sameRequest(domain.HashSecret(string(move)), h, move) {
		t.Error("a record that hashed the raw bytes no longer matches its move")
	}
}

// BenchmarkRequestHash compares the canonical hash of a typical crossing with
// the hash of its bytes as sent, which idempotency records kept before.
func BenchmarkRequestHash(b *testing.B) {
	move := []byte(`{"type":"cross","seat":2,"card":"grey-08","boxes":[[0,0],[0,1],[0,2],[1,2]],"extra":[{"card":"grey-08","box":[1,1]}]}`)
	b.Run("canonical", func(b *testing.B) {
		for b.Loop() {
			requestHash(move, "k")
		}
	})
	b.Run("bytes", func(b *testing.B) {
		for b.Loop() {
			domain.HashSecret(string(move))
		}
	})
}

// TestCanonicalIsEncodingJSON holds the hand-written canonical form to what
// encoding/json makes of the decoded value.
func TestCanonicalIsEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`{"type":"cross","seat":2,"card":"grey-08","boxes":[[0,0],[0,1]],"extra":[{"card":"grey-08","box":[1,1]}]}`,
		` { "b" : [ 1.50 , -2e3 , true , false , null , { } , [ ] ] , "a" : "x\u0041<&>\n\"é\u00e9" } `,
		`"just a string"`, `[]`, `{"z":{"y":{"x":[{"b":1,"a":2}]}}}`, `{"é":1,"e":2,"E":3}`,
		`{"b":{"d":1,"c":[{"f":"<","e":"\u00e9"}]},"a\u0062":2,"a":"é","\u0061a":[]}`,
		`{"k9":9,"k8":8,"k7":7,"k6":6,"k5":5,"k4":4,"k3":3,"k2":2,"k1":1,"k0":{"y":0,"x":[1,{"b":"\t","a":null}]}}`,
	} {
		got, rest, err := appendCanonical(nil, []byte(in), 0)
		if err != nil || len(skipSpace(rest)) > 0 {
			t.Errorf("appendCanonical(%s): %v, rest %q", in, err, rest)
			continue
		}
		d := json.NewDecoder(strings.NewReader(in))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(v)
		if string(got) != string(want) {
			t.Errorf("canonical form of %s:\n got %s\nwant %s", in, got, want)
		}
	}
}
