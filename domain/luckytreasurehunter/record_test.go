package luckytreasurehunter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

// playLogged plays a bot game through the domain adapter and returns the
// request it was created from, its log and the game.
func playLogged(t testing.TB, seed uint64, players int, mode Mode) (domain.CreateRequest, []domain.Logged, []domain.Actor, domain.Game) {
	req := domain.CreateRequest{Mode: string(mode), Players: botNames[:players],
		Options: json.RawMessage(fmt.Sprintf(`{"pirate_faces":%d,"captain_heart":%d}`, 1+seed%5, seed%uint64(players)))}
	if mode == Digital {
		req.Seed, req.Salt = fmt.Sprintf("record-%d", seed), "s"
	}
	dg, _, err := NewRules().Create(req)
	require.NoError(t, err)
	g, _ := Unwrap(dg)
	r := rand.New(rand.NewPCG(seed, 3))
	var log []domain.Logged
	var actors []domain.Actor
	for {
		actor, m, ok := Step(g, Bot{R: r}, Table{R: r})
		if !ok {
			break
		}
		b, _ := json.Marshal(&m)
		l, err := dg.Apply(actor, b)
		require.NoError(t, err)
		log = append(log, l)
		actors = append(actors, actor)
	}
	return req, log, actors, dg
}

func TestRecordReplays(t *testing.T) {
	for i := range 60 {
		mode := Digital
		if i%3 == 2 {
			mode = Physical
		}
		req, log, actors, dg := playLogged(t, uint64(i), 2+i%5, mode)
		moves := make([]domain.ReplayMove, len(log))
		for j, l := range log {
			moves[j] = domain.ReplayMove{Actor: actors[j], Move: l.Move}
		}
		rg, at, err := NewRules().Replay(dg.Setup(), components, moves)
		require.NoError(t, err)
		require.Zero(t, at)
		want, _ := dg.Snapshot()
		got, _ := rg.Snapshot()
		require.Equal(t, string(want), string(got), "replay reproduces the game")
		_ = req

		if mode != Digital {
			continue
		}
		// Tampering with what the seed rolled or dealt is caught.
		for j, l := range log {
			var m Move
			require.NoError(t, json.Unmarshal(l.Move, &m))
			switch {
			case len(m.Faces) > 0:
				if m.Faces[0] == FacePirate {
					m.Faces[0] = FaceBlank
				} else {
					m.Faces[0] = FacePirate
				}
			case len(m.Drawn) > 0:
				m.Drawn[0] = map[string]string{"silver": "gold"}[m.Drawn[0]]
				if m.Drawn[0] == "" {
					m.Drawn[0] = "silver"
				}
			default:
				continue
			}
			bad := append([]domain.ReplayMove(nil), moves...)
			bad[j].Move, _ = json.Marshal(&m)
			_, at, err := NewRules().Replay(dg.Setup(), components, bad)
			require.Error(t, err)
			assert.Equal(t, j+1, at)
			assert.Contains(t, []string{"seed-dice", "seed-draw"}, domain.ErrorRule(err))
			break
		}
	}
}

func TestLoggedDrawsArePrivate(t *testing.T) {
	_, log, _, _ := playLogged(t, 5, 4, Digital)
	private := 0
	for _, l := range log {
		if bytes.Contains(l.Move, []byte(`"drawn"`)) {
			private++
			require.NotNil(t, l.Public)
			assert.True(t, l.NotHost, "the host does not see draws")
			assert.NotContains(t, string(l.Public), "drawn")
		} else {
			assert.Nil(t, l.Public)
		}
	}
	assert.Positive(t, private)
}
