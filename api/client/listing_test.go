package client

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

func listing(t *testing.T, s string) Listing {
	t.Helper()
	var l Listing
	if err := json.Unmarshal([]byte(s), &l); err != nil {
		t.Fatal(err)
	}
	return l
}

// TestPickOwesOnlyWhenAwaited: a listing of a seat the game does not await,
// or one of corrections only, gives no move.
func TestPickOwesOnlyWhenAwaited(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for name, s := range map[string]string{
		"another seat": `{"seat":1,"awaiting":[{"actor":"seat","seat":0,"action":"roll","count":1}],"moves":[{"move":{"type":"roll","seat":1},"label":"Roll"}]}`,
		"the host":     `{"seat":0,"awaiting":[{"actor":"host","action":"roll","count":1}],"moves":[{"move":{"type":"roll","seat":0},"label":"Roll"}]}`,
		"corrections":  `{"seat":0,"awaiting":[{"actor":"seat","seat":0,"action":"roll","count":1}],"moves":[{"move":{"type":"take_back","seat":0},"label":"Take back","correction":true}]}`,
	} {
		if m, _, ok, err := listing(t, s).Pick(r); ok || err != nil {
			t.Errorf("%s: picked %s (%v), want nothing", name, m, err)
		}
	}
	host := listing(t, `{"seat":-1,"awaiting":[{"actor":"host","action":"roll","count":1}],"moves":[{"move":{"type":"roll"},"label":"Roll"}]}`)
	if m, typ, ok, err := host.Pick(r); !ok || err != nil || typ != "roll" || string(m) != `{"type":"roll"}` {
		t.Errorf("the host's listing: %s %q %v %v", m, typ, ok, err)
	}
}

// TestPickCompletesByTheRule: a picked entry is never a correction, and an
// entry with choose is completed by the rule of domain.LegalMove: between
// min and max parts (raised by what the parts owe), none excluded by the
// entry's holds or by a part picked before.
func TestPickCompletesByTheRule(t *testing.T) {
	l := listing(t, `{"seat":0,"awaiting":[{"actor":"seat","seat":0,"action":"cross","count":1}],
		"moves":[
			{"move":{"type":"take_back","seat":0},"label":"Take back","correction":true},
			{"move":{"type":"cross","seat":0},"label":"Cross","choose":{"pool":"boxes","min":1,"max":1},"holds":["a"]}],
		"pools":{"boxes":[
			{"add":{"extra":1},"label":"1","excludes":["a"]},
			{"add":{"extra":2},"label":"2","owes":1,"excludes":["b"]},
			{"add":{"extra":3},"label":"3","excludes":["b"]},
			{"add":{"extra":4},"label":"4"}]}}`)
	r := rand.New(rand.NewPCG(3, 4))
	seen := map[string]bool{}
	for range 500 {
		m, typ, ok, err := l.Pick(r)
		if err != nil || !ok || typ != "cross" {
			t.Fatalf("%s %q %v %v", m, typ, ok, err)
		}
		var got struct {
			Extra []int `json:"extra"`
		}
		if err := json.Unmarshal(m, &got); err != nil {
			t.Fatal(err)
		}
		seen[string(m)] = true
		owed, has := 0, map[int]bool{}
		for _, x := range got.Extra {
			has[x] = true
			if x == 2 {
				owed++
			}
		}
		switch {
		case has[1]:
			t.Errorf("%s: part 1 is excluded by the entry's holds", m)
		case has[2] && has[3]:
			t.Errorf("%s: parts 2 and 3 exclude each other", m)
		case len(got.Extra) < 1 || len(got.Extra) > 1+owed:
			t.Errorf("%s: %d parts, want 1 to %d", m, len(got.Extra), 1+owed)
		}
	}
	for _, want := range []string{`{"extra":[4],"seat":0,"type":"cross"}`, `{"extra":[2,4],"seat":0,"type":"cross"}`} {
		if !seen[want] {
			t.Errorf("never picked %s; picked %v", want, seen)
		}
	}
}
