package domain

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Every move's answer starts with the game's head, written by hand: it must
// be what encoding/json writes.
func TestGameHeadJSONMatchesEncodingJSON(t *testing.T) {
	berlin := time.FixedZone("CET", 3600)
	for _, h := range []GameHead{
		{},
		{ID: "3q2XoU0W1mTQb9_c", Ruleset: "silver-and-gold", Mode: "digital", Version: 42, Phase: "crossing",
			CreatedAt: time.Date(2026, 11, 22, 1, 2, 3, 456789000, time.UTC), UpdatedAt: time.Date(2026, 11, 22, 1, 2, 4, 0, time.UTC)},
		{ID: "t", Awaiting: []Await{SeatAwait(2, "cross", 1), HostAwait("roll", 3)}, OnTurn: new(int), TurnNumber: 17},
		{ID: "t", Awaiting: []Await{}},
		{ID: "x", Ruleset: "r", Mode: "physical", Version: 1 << 40, Phase: "ended", Ended: true,
			CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 1, berlin), UpdatedAt: time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)},
	} {
		want, err := json.Marshal(h)
		require.NoError(t, err)
		require.Equal(t, string(want), string(h.AppendJSON(nil)))
	}
}

func TestAppendJSONString(t *testing.T) {
	for _, s := range []string{"", "plain-ID_09", `Zoë "Zed" <Z&Z>`, `back\slash`, "tab\there", "line\u2028sep",
		"bad\xffutf8", "Tom & Jerry", "a>b", "x<y", "del\x7f", "nul\x00"} {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		require.Equal(t, string(want), string(AppendJSONString([]byte("x"), s))[1:], "%q", s)
	}
}
