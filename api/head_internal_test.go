package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

// TestWithHeadPlain: a listing with its head is the listing's object with
// "version" and "awaiting" (as json.Marshal writes who is awaited, [] for
// no one) first, whatever the object holds; what is not an object is left
// as it is.
func TestWithHeadPlain(t *testing.T) {
	heads := []domain.GameHead{
		{Version: 0},
		{Version: 7, Awaiting: []domain.Await{domain.SeatAwait(0, "cross", 1), domain.SeatAwait(3, "take", 2)}},
		{Version: 12, Awaiting: []domain.Await{domain.HostAwait("reveal", 1)}},
	}
	for _, obj := range []string{`{}`, ` { } `, `{"seat":1,"moves":[{"label":"a <b>"}]}`, ` {"x":null} `} {
		for _, h := range heads {
			got := withHead([]byte(obj), h)
			require.True(t, json.Valid(got), "%s", got)
			aw := h.Awaiting
			if aw == nil {
				aw = []domain.Await{}
			}
			wantAw, _ := json.Marshal(aw)
			prefix := `{"version":` + itoa(h.Version) + `,"awaiting":` + string(wantAw)
			assert.True(t, strings.HasPrefix(string(got), prefix), "%s: %s", obj, got)
			var in, out map[string]json.RawMessage
			require.NoError(t, json.Unmarshal([]byte(obj), &in))
			require.NoError(t, json.Unmarshal(got, &out))
			delete(out, "version")
			delete(out, "awaiting")
			assert.Equal(t, in, out, "the object's members as they were")
		}
	}
	assert.Equal(t, `[1]`, string(withHead([]byte(` [1] `), heads[1])))
}
