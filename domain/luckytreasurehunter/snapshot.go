package luckytreasurehunter

import (
	"encoding/json"
	"strconv"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/gamekit"
)

// Snapshot encodes the whole state, hands and pile included, as
// json.Marshal(g) would, written directly: a snapshot is taken after every
// move, and encoding/json (a text marshaller call for every card of the
// pile) was 3.5% of the server's CPU in the load run's profile (issue 27;
// TestSnapshotJSONPlain holds the two alike, BenchmarkSnapshot). A treasure
// that is none of the game's is the error json.Marshal gives.
func (g *Game) Snapshot() ([]byte, error) {
	if !g.validTreasures() {
		return json.Marshal(g)
	}
	return gamekit.Pooled(func(b []byte) ([]byte, error) { return g.appendSnapshot(b), nil })
}

// validTreasures reports whether every treasure of g is one of the game's.
func (g *Game) validTreasures() bool {
	for _, t := range g.Pile {
		if t >= NumTreasures {
			return false
		}
	}
	ok := func(sets []Set) bool {
		for _, s := range sets {
			if s.Treasure >= NumTreasures {
				return false
			}
		}
		return true
	}
	for i := range g.Players {
		if !ok(g.Players[i].Sets) {
			return false
		}
	}
	return ok(g.Middle) && (g.Steal == nil || g.Steal.Treasure < NumTreasures)
}

// appendSnapshot appends g as json.Marshal encodes it; its treasures are the
// game's.
func (g *Game) appendSnapshot(b []byte) []byte {
	b = domain.AppendJSONString(append(b, `{"mode":`...), string(g.Mode))
	if g.Seed != "" {
		b = domain.AppendJSONString(append(b, `,"seed":`...), g.Seed)
	}
	if g.Salt != "" {
		b = domain.AppendJSONString(append(b, `,"salt":`...), g.Salt)
	}
	b = strconv.AppendInt(append(b, `,"pirate_faces":`...), int64(g.PirateFaces), 10)
	b = strconv.AppendInt(append(b, `,"captain_heart":`...), int64(g.Heart), 10)
	b = domain.AppendJSONString(append(b, `,"phase":`...), string(g.Phase))
	b = strconv.AppendInt(append(b, `,"turn":`...), int64(g.Turn), 10)
	b = strconv.AppendInt(append(b, `,"turns":`...), int64(g.Turns), 10)
	b = domain.AppendList(append(b, `,"players":`...), g.Players, appendPlayer)
	b = domain.AppendList(append(b, `,"pile":`...), g.Pile, appendTreasure)
	b = domain.AppendList(append(b, `,"middle":`...), g.Middle, appendSet)
	b = appendCounts(append(b, `,"discard":`...), g.Discard)
	b = strconv.AppendBool(append(b, `,"last_round":`...), g.LastRound)
	b = append(b, `,"steal":`...)
	if s := g.Steal; s == nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(append(b, `{"owner":`...), int64(s.Owner), 10)
		b = strconv.AppendInt(append(b, `,"set":`...), int64(s.Set), 10)
		b = appendTreasure(append(b, `,"treasure":`...), s.Treasure)
		b = strconv.AppendInt(append(b, `,"size":`...), int64(s.Size), 10)
		b = strconv.AppendInt(append(b, `,"pirates":`...), int64(s.Pirates), 10)
		b = strconv.AppendInt(append(b, `,"failed":`...), int64(s.Failed), 10)
		b = strconv.AppendInt(append(b, `,"pending":`...), int64(s.Pending), 10)
		b = strconv.AppendInt(append(b, `,"rerolls":`...), int64(s.Rerolls), 10)
		b = append(strconv.AppendBool(append(b, `,"captain":`...), s.Captain), '}')
	}
	b = strconv.AppendInt(append(b, `,"rolls":`...), int64(g.Rolls), 10)
	b = strconv.AppendInt(append(b, `,"moves":`...), int64(g.Moves), 10)
	return append(b, '}')
}

func appendPlayer(b []byte, p Player) []byte {
	b = domain.AppendJSONString(append(b, `{"name":`...), p.Name)
	b = appendCounts(append(b, `,"hand":`...), p.Hand)
	b = strconv.AppendInt(append(b, `,"hand_size":`...), int64(p.HandSize), 10)
	b = domain.AppendList(append(b, `,"sets":`...), p.Sets, appendSet)
	return append(strconv.AppendBool(append(b, `,"captain_used":`...), p.CaptainUsed), '}')
}

// appendTreasure appends t, one of the game's, as its MarshalText writes it.
func appendTreasure(b []byte, t Treasure) []byte {
	return append(append(append(b, '"'), treasureNames[t]...), '"')
}

func appendSet(b []byte, s Set) []byte {
	b = appendTreasure(append(b, `{"treasure":`...), s.Treasure)
	return append(strconv.AppendInt(append(b, `,"size":`...), int64(s.Size), 10), '}')
}

// appendCounts appends c as its MarshalJSON writes it.
func appendCounts(b []byte, c Counts) []byte {
	b = strconv.AppendInt(append(b, `{"silver":`...), int64(c[Silver]), 10)
	b = strconv.AppendInt(append(b, `,"gold":`...), int64(c[Gold]), 10)
	b = strconv.AppendInt(append(b, `,"pearl":`...), int64(c[Pearl]), 10)
	b = strconv.AppendInt(append(b, `,"ruby":`...), int64(c[Ruby]), 10)
	b = strconv.AppendInt(append(b, `,"jade":`...), int64(c[Jade]), 10)
	return append(b, '}')
}
