package service

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAppendMovesPlain: appendMoves adds the take-back entries to a listing
// as the plain version does (decoding and encoding it), wherever its
// "moves" member is and whatever the other members hold, and leaves to the
// plain version what is not an object.
func TestAppendMovesPlain(t *testing.T) {
	entries := []json.RawMessage{
		json.RawMessage(`{"move":{"type":"take_back","version":3},"label":"Undo","correction":true}`),
		json.RawMessage(`{"move":{"type":"take_back","version":2},"label":"Undo \"2\" ]}","correction":true}`),
	}
	for _, listing := range []string{
		`{"seat":0,"moves":[{"move":{"type":"keep"},"label":"Keep"}],"pools":{}}`,
		`{"moves":[],"seat":1}`,
		`{"moves":[ ],"seat":1}`,
		`{"seat":1,"moves":null}`,
		`{"seat":2}`,
		`{}`,
		` { "pools" : {"moves":[1,2]}, "label":"a \"moves\": [ } ]", "n": -1.5e3, "ok": true, "moves" : [ {"move":{"type":"x"},"label":"]"} ] } `,
		`{"action":"wait","moves":[{"move":{"type":"a"},"label":"\\"},{"move":{"type":"b"},"label":"b"}],"z":null}`,
		`{"a":"\\\"]}","moves":[{"label":"\\\\"},{"label":"\"\\\"\""}],"b":["\\",{"c":"x\"}"}]}`,
		`{"moves":[{"label":"\u0022]"}],"n":[1,2.5,-0,true,false,null]}`,
	} {
		want, err := appendMovesPlain([]byte(listing), entries)
		require.NoError(t, err, listing)
		got, ok := appendMoves(nil, []byte(listing), entries)
		require.True(t, ok, listing)
		assert.JSONEq(t, string(want), string(got), listing)
		assert.True(t, json.Valid(got), "%s: %s", listing, got)
		after, ok := appendMoves([]byte("event: "), []byte(listing), entries)
		require.True(t, ok, listing)
		assert.Equal(t, "event: "+string(got), string(after), "appended after what dst holds")
	}
	for _, bad := range []string{`[]`, `"moves"`, `{"moves":{}}`, `{"moves":[`, `{"a" 1}`, ``, `{"a":"x\"}`, `{"moves":["\\\"]}`, `{"a\":1}`} {
		_, ok := appendMoves(nil, []byte(bad), entries)
		assert.False(t, ok, bad)
	}
}
