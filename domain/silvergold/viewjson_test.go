package silvergold

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

// requireViewJSON asserts that Game.AppendView writes for every viewer what
// encoding/json makes of the View struct, and that the snapshot is what
// encoding/json makes of the game.
func requireViewJSON(t testing.TB, g *Game, what string) {
	t.Helper()
	want, err := json.Marshal(g)
	require.NoError(t, err)
	if got, err := g.Snapshot(); err != nil || string(got) != string(want) {
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), "%s: snapshot", what)
	}
	viewers := []domain.Viewer{domain.Public, {Host: true, Seat: -1}}
	for seat := range g.Players {
		viewers = append(viewers, domain.Viewer{Seat: seat})
	}
	for _, v := range viewers {
		want, err := json.Marshal(g.View(v))
		require.NoError(t, err)
		if got := g.AppendView([]byte("prefix"), v); string(got) != "prefix"+string(want) {
			require.Equal(t, string(want), string(got), "%s, viewer %+v", what, v)
		}
	}
}

// The hand-written encoders of the view (what every move's answer carries)
// and of the snapshot (what is stored with every move) are held to
// encoding/json byte for byte, after every move of random games in both
// modes, for every viewer.
func TestViewJSONMatchesEncodingJSON(t *testing.T) {
	games := 300
	if testing.Short() || raceEnabled {
		games = 40
	}
	for i := 0; i < games; i++ {
		players, mode := 1+i%4, Digital
		if i%2 == 1 {
			mode = Physical
		}
		moves := 0
		g, log := randomGame(t, uint64(1000+i), players, mode, func(g *Game) {
			moves++
			requireViewJSON(t, g, fmt.Sprintf("game %d (%s, %d players) after move %d", i, mode, players, moves))
		})
		require.Equal(t, PhaseEnded, g.Phase)
		for _, pm := range log { // the move as the log stores it
			want, err := json.Marshal(pm.move)
			require.NoError(t, err)
			require.Equal(t, string(want), string(pm.move.AppendJSON(nil)))
		}
	}
}

// Names are the only free text in a view: every character encoding/json
// escapes must come out escaped the same way. The names a game may be created
// with hold no control character or invalid UTF-8 (names.Check), but the
// encoder does not rely on it: they are set on the game directly.
func TestViewJSONEscapesNames(t *testing.T) {
	names := []string{`Zoë "Zed" <Z&Z>`, `back\slash`, "tab\there", "line\u2028sep", "emoji 🎲", "bad\xffutf8", `</script>`, "Tom & Jerry", "a>b", "x<y", `q"uote`, "del\x7f"}
	for _, name := range names {
		g, err := New(Standard(), Setup{Mode: Digital, Players: []string{"Ann", "Bob"}, Seed: "escape"})
		require.NoError(t, err)
		g.Players[0].Name = name
		requireViewJSON(t, g, fmt.Sprintf("name %q", name))
	}
}

// A move in a view (a seat's crossing) encodes like encoding/json, whichever
// fields it has, including strings that need escaping.
func TestMoveJSONMatchesEncodingJSON(t *testing.T) {
	seat := 2
	moves := []Move{
		{},
		{Type: MoveKeep, Seat: &seat, Cards: []string{"grey-01", "green-10"}},
		{Type: MoveCross, Seat: &seat, Card: "orange-05", Boxes: []Pos{{1, 1}, {1, 2}}, Extra: []Extra{{Card: "green-10", Box: Pos{1, 0}}, {Card: "grey-01", Box: Pos{-1, 12}}}},
		{Type: MoveTake, Seat: &seat, From: "deck"},
		{Type: MoveReveal, Expedition: "T4"},
		{Type: "odd <&> \"type\"", Cards: []string{}, Boxes: []Pos{}, Extra: []Extra{}},
	}
	for _, m := range moves {
		want, err := json.Marshal(m)
		require.NoError(t, err)
		require.Equal(t, string(want), string(m.AppendJSON(nil)))
	}
}

// A box read by the fast path of Pos.UnmarshalJSON is the one encoding/json
// reads; whatever the fast path does not take goes to encoding/json.
func TestPosUnmarshalMatchesEncodingJSON(t *testing.T) {
	for _, in := range []string{
		"[1,2]", " [ 0 , 3 ] ", "[-1,12]", "[-0,0]", "[1234,5]", "[12345,1]", "[01,2]", "[1.0,2]", "[1e1,2]",
		"[1,2,3]", "[1]", "[]", "[,1]", "[-,1]", "[1,2", "1,2]", `["1",2]`, "null", "[1,2]x", "[\n1,\t2\r]",
	} {
		var want [2]int
		wantErr := json.Unmarshal([]byte(in), &want)
		var got Pos
		err := got.UnmarshalJSON([]byte(in))
		if wantErr != nil {
			require.Error(t, err, "%q", in)
			continue
		}
		require.NoError(t, err, "%q", in)
		require.Equal(t, Pos{want[0], want[1]}, got, "%q", in)
	}
}

func FuzzPosUnmarshal(f *testing.F) {
	for _, s := range []string{"[1,2]", " [ -3 , 04 ]", "[1,2,3]", "[9999,0]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		row, col, ok := parsePos([]byte(in))
		if !ok {
			return
		}
		var want [2]int
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatalf("%q: the fast path read (%d,%d), encoding/json refuses it: %v", in, row, col, err)
		}
		if want != [2]int{row, col} {
			t.Fatalf("%q: the fast path read (%d,%d), encoding/json %v", in, row, col, want)
		}
	})
}
