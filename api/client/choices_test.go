package client

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/treasury-games/treasury/domain"
)

// TestChoicesAsListing: whatever the layout of a listing (white space,
// strings holding brackets, quotes and the word correction, members in
// another order, null pools, corrections only), Choices owes and picks what
// Listing does with the same source.
func TestChoicesAsListing(t *testing.T) {
	for name, s := range map[string]string{
		"spaced": ` { "version" : 7 , "seat" : 0 ,
			"awaiting" : [ { "actor" : "seat" , "seat" : 0 , "action" : "cross" , "count" : 1 } ] ,
			"moves" : [
				{ "move" : { "type" : "take_back" , "seat" : 0 } , "label" : "Take back" , "correction" : true } ,
				{ "move" : { "type" : "cross" , "seat" : 0 } , "label" : "Cross" , "choose" : { "pool" : "boxes" , "min" : 1 , "max" : 2 } } ] ,
			"pools" : { "other" : [ { "add" : { "extra" : 9 } , "label" : "9" } ] ,
				"boxes" : [ { "add" : { "extra" : 1 } , "label" : "1" } , { "add" : { "extra" : 2 } , "label" : "2" , "owes" : 1 } , { "add" : { "extra" : 3 } , "label" : "3" } ] } } `,
		"tricky strings": `{"moves":[
				{"move":{"type":"pass","note":"a \"quoted\" ]} [{ \\"},"label":"\"correction\":true","correction":false},
				{"move":{"type":"roll"},"label_message":{"key":"k","params":{"x":"}"}},"label":"Roll ]"}],
			"pools":null,"seat":2,"version":3,"awaiting":[{"actor":"seat","seat":2,"action":"roll","count":1}]}`,
		"escapes and nulls": `{"version":2,"seat":1,"awaiting":[{"actor":"seat","seat":null,"action":"x","count":1},{"actor":"s\u0065at","seat":1,"action":"cro\"ss","count":2}],
			"moves":[{"move":{"type":"cross","seat":1},"label":"Cross","choose":{"pool":"p\u00e9","min":0,"max":3},"holds":["h\"1"]}],
			"pools":{"pé":[{"add":null,"label":"0"},{"add":{"e\u0078tra":"a\"b","n":[1, 2]},"excludes":["h\"1"],"label":"1"},{"add":{"extra":"c"},"excludes":null,"owes":1},{"add":{"extra":"d"},"excludes":["z"]}]}}`,
		"corrections only":   `{"version":1,"seat":0,"awaiting":[{"actor":"seat","seat":0,"action":"roll","count":1}],"moves":[{"move":{"type":"take_back"},"label":"Take back","correction":true}],"pools":{}}`,
		"escaped correction": `{"version":1,"seat":0,"awaiting":[{"actor":"seat","seat":0,"action":"roll","count":1}],"moves":[{"move":{"type":"take_back"},"label":"Take back","corr\u0065ction":true},{"move":{"type":"roll"},"label":"Roll"},{"move":{"type":"keep"},"label":"Keep","correction":false}]}`,
		"not owed":           `{"version":1,"seat":1,"awaiting":[{"actor":"seat","seat":0,"action":"roll","count":1}],"moves":[{"move":{"type":"roll"},"label":"Roll"}]}`,
		"the host":           `{"version":1,"seat":-1,"awaiting":[{"actor":"host","action":"roll","count":1}],"moves":[{"move":{"type":"roll"},"label":"Roll"}]}`,
		"no moves":           `{"version":1,"seat":0,"awaiting":[{"actor":"seat","seat":0,"action":"roll","count":1}],"moves":null}`,
	} {
		l := listing(t, s)
		c, err := ParseChoices([]byte(s))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if c.Owed() != l.Owed() || c.Version != l.Version {
			t.Errorf("%s: owed %v at %d, want %v at %d", name, c.Owed(), c.Version, l.Owed(), l.Version)
		}
		for seed := range uint64(50) {
			wm, wt, wok, werr := l.Pick(rand.New(rand.NewPCG(seed, 9)))
			gm, gt, gok, gerr := c.Pick(rand.New(rand.NewPCG(seed, 9)))
			if werr != nil || gerr != nil || !bytes.Equal(wm, gm) || wt != gt || wok != gok {
				t.Fatalf("%s, seed %d: picked %s %q %v %v, want %s %q %v %v", name, seed, gm, gt, gok, gerr, wm, wt, wok, werr)
			}
		}
	}
}

// TestChoicesMalformed: a listing that is not the JSON it should be is an
// error of ParseChoices or of Pick, not a move, whether it owes a move or
// not.
func TestChoicesMalformed(t *testing.T) {
	owed := `"seat":0,"awaiting":[{"actor":"seat","seat":0,"action":"roll","count":1}]`
	for name, s := range map[string]string{
		"empty":                    ``,
		"an array":                 `[]`,
		"cut":                      `{"version":1,` + owed + `,"moves":[{"move":{"type":"roll"},"label":"Ro`,
		"no colon":                 `{"version" 1}`,
		"no comma":                 `{"version":1 "seat":0}`,
		"version a word":           `{"version":"one"}`,
		"moves an object":          `{` + owed + `,"moves":{"move":1}}`,
		"entry cut":                `{` + owed + `,"moves":[{"move":{"type":"roll"}}`,
		"entry not JSON":           `{` + owed + `,"moves":[{"move":{"type":roll}}]}`,
		"label not JSON":           `{` + owed + `,"moves":[{"move":{"type":"roll"},"label":Roll}]}`,
		"pools not JSON":           `{` + owed + `,"moves":[{"move":{"type":"roll"}}],"pools":{"p":[{"add":{]}}`,
		"not owed, cut":            `{"version":1,"seat":1,"awaiting":[],"moves":[{"move":{"type":"roll"},"label":"Ro`,
		"not owed, no comma after": `{"version":1,"seat":1,"awaiting":[] "moves":[]}`,
		"not owed, trailing":       `{"version":1,"seat":1,"awaiting":[],"moves":[]}}`,
		"awaiting cut":             `{"version":1,"seat":0,"awaiting":[{"actor":"seat","seat":0,"action":"roll","count":1]}`,
	} {
		c, err := ParseChoices([]byte(s))
		if err != nil {
			continue
		}
		if m, _, _, err := c.Pick(rand.New(rand.NewPCG(1, 1))); err == nil {
			t.Errorf("%s: picked %s, want an error", name, m)
		}
	}
}

// TestChoicesAwaiting: ParseChoices reads awaiting as encoding/json reads
// it into []domain.Await (the keys as the server writes them), and refuses
// what encoding/json refuses.
func TestChoicesAwaiting(t *testing.T) {
	for _, awaiting := range []string{
		`[{"actor":"seat","seat":2,"action":"cross","count":1}]`,
		`[{"actor":"host","action":"reveal","count":1},{"actor":"seat","seat":0,"action":"take","count":3}]`,
		`[{"count":2,"seat":1,"actor":"seat","action":"cross","label":"ignored","more":{"seat":9}}]`,
		`[{"actor":"seat","seat":1,"seat":null,"action":"cross"}]`,
		`[{"actor":"se\u0061t","seat":-0,"action":null}]`,
		`[null,{}]`, `[]`, `null`,
		`{}`, `[1]`, `[{"seat":"1"}]`, `[{"seat":1.5}]`, `[{"count":1e2}]`, `[{"actor":3}]`, `[{"seat":99999999999999999999}]`,
	} {
		body := []byte(`{"version":3,"seat":1,"awaiting":` + awaiting + `,"moves":[]}`)
		var want struct{ Awaiting []domain.Await }
		werr := json.Unmarshal(body, &want)
		got, gerr := ParseChoices(body)
		if (werr == nil) != (gerr == nil) || (werr == nil && !reflect.DeepEqual(got.Awaiting, want.Awaiting)) {
			t.Errorf("awaiting %s: read %+v, %v; encoding/json %+v, %v", awaiting, got.Awaiting, gerr, want.Awaiting, werr)
		}
	}
}

// TestChoicesParts: the parts of a pool are read as encoding/json reads
// them into []domain.Part, labels aside, and refused where it refuses them.
func TestChoicesParts(t *testing.T) {
	for _, pool := range []string{
		`[{"add":{"boxes":[[1,2]]},"label":"B2","excludes":["b3","c2"],"owes":1}]`,
		`[ { "add" : { "extra" : [ 1 , 2 ] , "card" : "gr\u0065y-07" } , "label" : "x" } , { "owes" : 2 } ]`,
		`[{"add":{"a":1},"add":{"b":2}},{"add":{"a":1},"add":null},{"excludes":["a"],"excludes":["b",null]}]`,
		`[{"owes":null,"excludes":null,"add":{}}]`,
		`[null,{}]`, `[]`, `null`,
		`{}`, `[1]`, `[{"add":[1]}]`, `[{"excludes":"a"}]`, `[{"excludes":[1]}]`, `[{"owes":1.5}]`, `[{"owes":"1"}]`,
	} {
		body := []byte(`{"version":3,"seat":0,"awaiting":[{"actor":"seat","seat":0,"action":"cross","count":1}],` +
			`"moves":[{"move":{"type":"cross","seat":0},"label":"Cross","choose":{"pool":"p","min":0,"max":0}}],"pools":{"p":` + pool + `}}`)
		var want struct{ Pools domain.Pools }
		werr := json.Unmarshal(body, &want)
		for i := range want.Pools["p"] {
			want.Pools["p"][i].Label = ""
		}
		c, err := ParseChoices(body)
		if err != nil {
			t.Fatal(err)
		}
		got, gerr := partsOf(c.pools.Get("p"))
		if (werr == nil) != (gerr == nil) || (werr == nil && !reflect.DeepEqual(got, want.Pools["p"])) {
			t.Errorf("pool %s: read %+v, %v; encoding/json %+v, %v", pool, got, gerr, want.Pools["p"], werr)
		}
	}
}

// TestChoicesEntry: the entry picked is read as encoding/json reads it into
// a domain.LegalMove, its labels aside, and refused where it refuses it.
func TestChoicesEntry(t *testing.T) {
	for _, e := range []string{
		`{"move":{"type":"cross","seat":0},"label":"Cross","choose":{"pool":"p","min":1,"max":2},"holds":["a","b"]}`,
		`{ "move" : { "type" : "keep" } , "label_message" : { "key" : "k" , "params" : { "a" : "}" } } , "correction" : false }`,
		`{"move":null,"choose":null,"holds":null,"correction":null}`,
		`{"choose":{"pool":"p","min":1},"choose":{"max":3,"min":null},"holds":["a",null],"move":{"type":"x"},"move":[1]}`,
		`{"choose":{"pool":"p\u00e9","min":-1,"max":0},"holds":[]}`,
		`{}`, `null`,
		`[]`, `1`, `{"choose":[1]}`, `{"choose":{"pool":1}}`, `{"choose":{"min":1.5}}`, `{"choose":{"max":"2"}}`,
		`{"holds":"a"}`, `{"holds":[1]}`, `{"correction":1}`, `{"correction":"true"}`,
	} {
		var want domain.LegalMove
		werr := json.Unmarshal([]byte(e), &want)
		want.Label, want.LabelMessage = "", nil
		got, gerr := entry(gjson.Parse(e))
		if (werr == nil) != (gerr == nil) || (werr == nil && !reflect.DeepEqual(got, want)) {
			t.Errorf("entry %s: read %+v, %v; encoding/json %+v, %v", e, got, gerr, want, werr)
		}
	}
}

// TestChoicesMoveType: the type of a picked move is read as encoding/json
// reads it into a struct of it.
func TestChoicesMoveType(t *testing.T) {
	for _, m := range []string{`{"type":"cross","seat":0}`, `{"seat":0}`, `{"type":null}`, `null`, ``, `[]`, `{"type":1}`} {
		want, werr := jsonType(json.RawMessage(m))
		got, gerr := moveType(json.RawMessage(m))
		if (werr == nil) != (gerr == nil) || got != want {
			t.Errorf("move %s: type %q, %v; encoding/json %q, %v", m, got, gerr, want, werr)
		}
	}
}
