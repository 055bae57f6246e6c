package colorfultreasure

import (
	"encoding/json"
	"strconv"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/gamekit"
)

// Snapshot encodes the whole state, face-down cards included, for storage,
// as json.Marshal(g) would, written directly: a snapshot is taken after
// every move, and encoding/json was 2% of the server's CPU in the load
// run's profile (issue 27; TestSnapshotJSONPlain holds the two alike,
// BenchmarkSnapshot). A kind that is none of the game's is the error
// json.Marshal gives.
func (g *Game) Snapshot() ([]byte, error) {
	if !g.validKinds() {
		return json.Marshal(g)
	}
	return gamekit.Pooled(func(b []byte) ([]byte, error) { return g.appendSnapshot(b), nil })
}

// validKinds reports whether every collected card's kind is one of the game's.
func (g *Game) validKinds() bool {
	for i := range g.Players {
		for _, c := range g.Players[i].Cards {
			if c.Kind < 0 || c.Kind >= NumKinds {
				return false
			}
		}
	}
	return true
}

// appendSnapshot appends g as json.Marshal encodes it; its cards' kinds are
// the game's.
func (g *Game) appendSnapshot(b []byte) []byte {
	b = domain.AppendJSONString(append(b, `{"mode":`...), string(g.Mode))
	b = domain.AppendJSONString(append(b, `,"catalog":`...), g.Catalog)
	b = domain.AppendJSONString(append(b, `,"catalog_hash":`...), g.Hash)
	if g.Seed != "" {
		b = domain.AppendJSONString(append(b, `,"seed":`...), g.Seed)
	}
	if g.Salt != "" {
		b = domain.AppendJSONString(append(b, `,"salt":`...), g.Salt)
	}
	b = domain.AppendJSONString(append(b, `,"variant":`...), string(g.Variant))
	b = domain.AppendList(append(b, `,"sides":`...), g.Sides[:], domain.AppendJSONString)
	b = appendInt(append(b, `,"start_player":`...), g.Start)
	b = domain.AppendList(append(b, `,"players":`...), g.Players, appendPlayer)
	b = append(b, `,"grid":[`...)
	for c := range g.Grid {
		if c > 0 {
			b = append(b, ',')
		}
		b = domain.AppendList(b, g.Grid[c], func(b []byte, cell Cell) []byte {
			b = strconv.AppendInt(append(b, `{"k":`...), int64(cell.Kind), 10)
			return append(strconv.AppendUint(append(b, `,"s":`...), uint64(cell.State), 10), '}')
		})
	}
	b = domain.AppendList(append(b, `],"diamond_tokens":`...), g.DiamondTokens[:], strconv.AppendBool)
	b = domain.AppendList(append(b, `,"lock_tokens":`...), g.LockTokens[:], strconv.AppendBool)
	b = domain.AppendList(append(b, `,"actions":`...), g.Actions[:], appendInt)
	b = appendInt(append(b, `,"colorful":`...), g.Colorful)
	b = appendInt(append(b, `,"explorer":`...), g.Explorer)
	b = domain.AppendJSONString(append(b, `,"phase":`...), string(g.Phase))
	b = appendInt(append(b, `,"turn":`...), g.Turn)
	b = appendInt(append(b, `,"round":`...), g.Round)
	b = strconv.AppendBool(append(b, `,"last_round":`...), g.LastRound)
	b = domain.AppendList(append(b, `,"revealed":`...), g.Revealed, appendPos)
	b = strconv.AppendBool(append(b, `,"fourth":`...), g.Fourth)
	b = strconv.AppendBool(append(b, `,"two_types":`...), g.TwoTypes)
	b = strconv.AppendBool(append(b, `,"claimed_this_turn":`...), g.Claimed)
	b = appendInt(append(b, `,"thefts":`...), g.Thefts)
	b = domain.AppendJSONString(append(b, `,"resume":`...), string(g.Resume))
	b = appendInt(append(b, `,"moves":`...), g.Moves)
	return append(b, '}')
}

func appendPlayer(b []byte, p Player) []byte {
	b = domain.AppendJSONString(append(b, `{"name":`...), p.Name)
	b = domain.AppendList(append(b, `,"cards":`...), p.Cards, func(b []byte, c Card) []byte {
		b = appendInt(append(b, `{"w":`...), c.Wonder)
		return append(appendKind(append(b, `,"k":`...), c.Kind), '}')
	})
	b = domain.AppendList(append(b, `,"diamond_tokens":`...), p.DiamondTokens, appendInt)
	b = appendInt(append(b, `,"key_tokens":`...), p.KeyTokens)
	b = appendInt(append(b, `,"chest_tokens":`...), p.ChestTokens)
	b = domain.AppendList(append(b, `,"actions":`...), p.Actions, appendInt)
	b = domain.AppendList(append(b, `,"claimed":`...), p.Claimed[:], strconv.AppendBool)
	b = appendInt(append(b, `,"turns":`...), p.Turns)
	return append(b, '}')
}

func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }
