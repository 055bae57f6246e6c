package silvergold

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

// plainDecode is DecodeMove without its reader: encoding/json alone.
func plainDecode(b []byte) (Move, error) {
	var m Move
	if err := domain.DecodeMove(b, "Silver & Gold", &m); err != nil {
		return Move{}, err
	}
	return m, nil
}

// requireDecodedAsPlain checks DecodeMove against encoding/json on b: the
// same move, or the same error; it returns whether the reader (rather than
// encoding/json) read it.
func requireDecodedAsPlain(t testing.TB, b []byte) bool {
	t.Helper()
	want, wantErr := plainDecode(b)
	got, err := DecodeMove(b)
	require.Equal(t, wantErr, err, "%s", b)
	require.Equal(t, want, got, "%s", b)
	fast, ok := decodeMove(b)
	if ok {
		require.NoError(t, wantErr, "the reader took %s, which encoding/json refuses", b)
		require.Equal(t, want, fast, "%s", b)
	}
	return ok
}

// gameMoves returns the moves bots make in games of both modes, as
// json.Marshal writes them.
func gameMoves(t testing.TB, games int) [][]byte {
	var out [][]byte
	for i := range games {
		setup := Setup{Mode: Digital, Players: []string{"Ann", "Bob", "Cid", "Dee"}[:2+i%3], Seed: "moves"}
		if i%2 == 1 {
			setup.Mode, setup.Seed = Physical, ""
		}
		g, err := New(Standard(), setup)
		require.NoError(t, err)
		bot := Bot{R: newRand(uint64(i))}
		table := &Table{R: bot.R}
		for {
			a, m, ok := Step(g, bot, table)
			if !ok {
				break
			}
			b, err := json.Marshal(m)
			require.NoError(t, err)
			out = append(out, b)
			require.NoError(t, g.Play(a, &m))
		}
	}
	return out
}

// DecodeMove reads every move as encoding/json does: the moves of whole
// games (every one of which the reader takes), and those moves broken, cut,
// spaced and renamed in the ways a client might (the reader leaves what it
// does not take to encoding/json, whose errors stay the player's words).
func TestDecodeMoveAsEncodingJSON(t *testing.T) {
	moves := gameMoves(t, 6)
	types := map[string]bool{}
	for _, b := range moves {
		require.True(t, requireDecodedAsPlain(t, b), "the reader leaves %s to encoding/json", b)
		var m Move
		require.NoError(t, json.Unmarshal(b, &m))
		types[m.Type] = true
	}
	for _, typ := range []string{MoveKeep, MoveCross, MoveTake, MoveReveal, MoveDisplay} {
		require.True(t, types[typ], "no %s move among the games' moves", typ)
	}
	odd := []string{
		`{}`, ` { } `, `{"type":"cross","seat":1,"card":"orange-05","boxes":[],"extra":[],"cards":[]}`,
		`{"type":"cross","extra":[{}]}`, `{"type":"cross","extra":[{"box":[1,2],"card":"g"}]}`,
		`{"type":"cross","extra":[{"card":"g","card":"h"}]}`, `{"type":"cross","extra":[{"card":"g","cardx":1}]}`,
		`{"type":"keep","type":"take"}`, `{"Type":"keep"}`, `{"TYPE":"keep"}`, `{"typ\u0065":"keep"}`, `{"type":"ke\u0065p"}`,
		`{"type":"keep\n"}`, "{\"type\":\"k\xffeep\"}", `{"type":"käse"}`, `{"type":null}`, `{"seat":null}`, `{"cards":null}`,
		`{"seat":-0}`, `{"seat":-1}`, `{"seat":01}`, `{"seat":1.0}`, `{"seat":1e0}`, `{"seat":12345}`, `{"seat":9999}`,
		`{"seat":99999999999999999999}`, `{"seat":"1"}`, `{"seat":true}`, `{"seat":-}`, `{"boxes":[[1,2],[3]]}`,
		`{"boxes":[[1,2,3]]}`, `{"boxes":[[1,2]}`, `{"boxes":[1,2]}`, `{"boxes":[[1,2],]}`, `{"cards":["a",]}`,
		`{"type":"keep",}`, `{"type":"keep"`, `{"type":"keep"}}`, `{"type":"keep"}]`, `{"type":"keep"} {}`, `{"type":"keep"}x`,
		`[]`, `null`, `"keep"`, ``, ` `, `{"type":"keep" "seat":1}`, `{"type" "keep"}`, `{type:"keep"}`, `{"bots":1}`,
	}
	for _, s := range odd {
		requireDecodedAsPlain(t, []byte(s))
	}
	// Every move of a game, cut short, with a byte dropped or replaced, and
	// with white space between its tokens.
	for i, b := range moves {
		if i%7 != 0 {
			continue
		}
		for j := range b {
			requireDecodedAsPlain(t, b[:j])
			requireDecodedAsPlain(t, append(b[:j:j], b[j+1:]...))
			for _, c := range []byte{' ', '"', '-', '0', '9', '[', ']', '{', '}', ',', ':', 'T', '.', 'e', '\\'} {
				requireDecodedAsPlain(t, append(append(b[:j:j], c), b[j+1:]...))
			}
		}
		spaced := strings.NewReplacer(",", " ,\n", ":", "\t: ", "[", "[ ", "]", " ]", "{", "\r{ ", "}", " }").Replace(string(b))
		require.True(t, requireDecodedAsPlain(t, []byte(spaced)), "the reader leaves %s to encoding/json", spaced)
	}
}

func FuzzDecodeMove(f *testing.F) {
	for _, s := range []string{`{"type":"cross","seat":1,"card":"orange-05","boxes":[[1,1],[1,2]],"extra":[{"card":"g","box":[0,0]}]}`,
		`{"type":"keep","seat":0,"cards":["grey-01","green-10"]}`, `{"type":"take","seat":3,"from":"deck"}`, `{"type":"reveal","expedition":"T4"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { requireDecodedAsPlain(t, b) })
}

// BenchmarkDecodeMove decodes a crossing as the load run's seats send it.
func BenchmarkDecodeMove(b *testing.B) {
	move := []byte(`{"type":"cross","seat":2,"card":"orange-05","boxes":[[1,1],[1,2],[2,2]]}`)
	for _, c := range []struct {
		name   string
		decode func([]byte) (Move, error)
	}{{"reader", DecodeMove}, {"encoding-json", plainDecode}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.decode(move); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
