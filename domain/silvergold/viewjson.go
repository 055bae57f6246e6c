package silvergold

import (
	"encoding/base64"
	"math/bits"
	"strconv"

	"github.com/treasury-games/treasury/domain"
)

// The answer to every move carries the game as its mover sees it, so a View
// is encoded once per accepted move. encoding/json spends most of that time
// on reflection and on checking what the Marshalers of Pos return; the
// functions below write the same bytes directly. TestViewJSONMatchesEncodingJSON
// holds them to encoding/json's output over thousands of random games, every
// viewer, and player names that need escaping.

// AppendView appends the game as v may see it: the bytes json.Marshal(g.View(v))
// gives, written straight from the game without building the View.
func (g *Game) AppendView(b []byte, v domain.Viewer) []byte {
	b = append(b, `{"ruleset":"`+RulesetName+`","mode":`...)
	b = appendString(b, string(g.Mode))
	b = append(b, `,"catalog":{"name":`...)
	b = appendString(b, g.Catalog)
	b = append(b, `,"hash":`...)
	b = appendString(b, g.Hash)
	b = append(b, `,"href":`...)
	b = appendString(b, catalogHref(g.Catalog, g.Hash))
	b = append(b, '}')
	b = g.appendProgress(b)
	b = append(b, `,"expedition":`...)
	if pat, ok := g.Current(); ok {
		b = append(b, `{"code":`...)
		b = appendString(b, pat.Code())
		b = append(b, `,"name":`...)
		b = appendString(b, pat.Name())
		b = append(b, `,"name_message":{"key":`...)
		b = appendString(b, pat.Message().Key)
		b = append(b, '}')
		b = append(b, `,"boxes":`...)
		b = appendPositions(b, patterns[pat].cells)
		b = append(b, '}')
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"revealed_this_round":[`...)
	for i, p := range g.Revealed {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, p.Code())
	}
	b = append(b, `],"display":`...)
	b = g.appendCardIDs(b, g.Display)
	b = append(b, `,"deck_size":`...)
	b = strconv.AppendInt(b, int64(g.DeckSize()), 10)
	b = append(b, `,"cups_left":`...)
	b = appendInts(b, nonNilInts(g.Cups))
	b = append(b, `,"resolving":`...)
	if g.Resolving >= 0 {
		b = strconv.AppendInt(b, int64(g.Resolving), 10)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"players":`...)
	if len(g.Players) == 0 {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range g.Players {
			if i > 0 {
				b = append(b, ',')
			}
			b = g.appendPlayerView(b, i, g.sees(v, i))
		}
		b = append(b, ']')
	}
	b = append(b, `,"awaiting":[`...)
	for i, a := range g.Awaiting() {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendAwaited(b, a)
	}
	return append(b, "]}"...)
}

// appendProgress appends the phase, round, turn and start player, which the
// view and the snapshot both carry in that order.
func (g *Game) appendProgress(b []byte) []byte {
	b = append(b, `,"phase":`...)
	b = appendString(b, string(g.Phase))
	b = append(b, `,"round":`...)
	b = strconv.AppendInt(b, int64(g.Round), 10)
	b = append(b, `,"turn":`...)
	b = strconv.AppendInt(b, int64(g.Turn), 10)
	b = append(b, `,"start_player":`...)
	b = strconv.AppendInt(b, int64(g.Start), 10)
	return b
}

// appendPlayerView appends seat i as PlayerView encodes it; mine says whether
// the viewer may see the seat's private cards (see View).
func (g *Game) appendPlayerView(b []byte, i int, mine bool) []byte {
	p := &g.Players[i]
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, `,"name":`...)
	b = appendString(b, p.Name)
	b = append(b, `,"kept":`...)
	b = strconv.AppendBool(b, p.Kept)
	if mine && g.Phase == PhaseSetup && !p.Kept && len(p.Dealt) > 0 {
		b = append(b, `,"dealt":`...)
		b = g.appendCardIDs(b, p.Dealt)
	}
	b = append(b, `,"cards":[`...)
	for j, h := range g.shownHand(i, mine) {
		if j > 0 {
			b = append(b, ',')
		}
		c := &g.cat.Cards[h.Card]
		b = append(b, `{"card":`...)
		b = appendString(b, c.ID)
		b = append(b, `,"colour":`...)
		b = appendString(b, c.Colour.String())
		b = append(b, `,"value":`...)
		b = strconv.AppendInt(b, int64(c.Value), 10)
		b = append(b, `,"seal":`...)
		if c.Seal == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, `{"colour":`...)
			b = appendString(b, c.Seal.Colour.String())
			b = append(b, `,"points":`...)
			b = strconv.AppendInt(b, int64(c.Seal.Points), 10)
			b = append(b, '}')
		}
		b = append(b, `,"grid":`...)
		b = appendStrings(b, g.cat.derived.grids[h.Card])
		b = append(b, `,"crossed":[`...)
		for k, v := 0, uint16(h.Crossed); v != 0; v &= v - 1 {
			if k > 0 {
				b = append(b, ',')
			}
			k++
			at := bits.TrailingZeros16(v)
			b = appendPos(b, Pos{Row: at / GridStride, Col: at % GridStride})
		}
		b = append(b, `],"boxes_left":`...)
		b = strconv.AppendInt(b, int64((c.Boxes &^ h.Crossed).Count()), 10)
		b = append(b, '}')
	}
	b = append(b, `],"scoring_pile":`...)
	b = g.appendCardIDs(b, p.Pile)
	b = append(b, `,"coins":`...)
	b = strconv.AppendInt(b, int64(p.Coins), 10)
	b = append(b, `,"cups":`...)
	b = appendInts(b, nonNilInts(p.Cups))
	b = append(b, `,"palms":`...)
	b = appendInts(b, nonNilInts(p.Palms))
	b = append(b, `,"crossed_this_turn":`...)
	b = strconv.AppendBool(b, p.Crossed)
	b = append(b, `,"passed":`...)
	b = strconv.AppendBool(b, p.Passed)
	b = append(b, `,"crossing":`...)
	if p.Crossing == nil {
		b = append(b, "null"...)
	} else {
		b = p.Crossing.AppendJSON(b)
	}
	b = append(b, `,"coin_rows_completed":`...)
	b = strconv.AppendInt(b, int64(p.Rows), 10)
	b = append(b, `,"takes_owed":`...)
	b = strconv.AppendInt(b, int64(p.Takes), 10)
	return append(b, '}')
}

// appendCardIDs appends the ids of cards as a JSON array ([] when none).
func (g *Game) appendCardIDs(b []byte, cards []int) []byte {
	b = append(b, '[')
	for i, c := range cards {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, g.cardID(c))
	}
	return append(b, ']')
}

// nonNilInts returns s, or an empty slice for nil: the view copies these
// lists, so they are never null in it.
func nonNilInts(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

// AppendJSON appends m encoded exactly as json.Marshal(m) encodes it.
func (m *Move) AppendJSON(b []byte) []byte {
	b = append(b, `{"type":`...)
	b = appendString(b, m.Type)
	if m.Seat != nil {
		b = append(b, `,"seat":`...)
		b = strconv.AppendInt(b, int64(*m.Seat), 10)
	}
	if len(m.Cards) > 0 {
		b = append(b, `,"cards":`...)
		b = appendStrings(b, m.Cards)
	}
	b = appendNonEmpty(b, `,"card":`, m.Card)
	if len(m.Boxes) > 0 {
		b = append(b, `,"boxes":`...)
		b = appendPositions(b, m.Boxes)
	}
	if len(m.Extra) > 0 {
		b = append(b, `,"extra":[`...)
		for i, e := range m.Extra {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"card":`...)
			b = appendString(b, e.Card)
			b = append(b, `,"box":`...)
			b = appendPos(b, e.Box)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = appendNonEmpty(b, `,"from":`, m.From)
	b = appendNonEmpty(b, `,"expedition":`, m.Expedition)
	return append(b, '}')
}

func appendPos(b []byte, p Pos) []byte {
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(p.Row), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(p.Col), 10)
	return append(b, ']')
}

// appendList writes s as encoding/json writes a slice (domain.AppendList).
func appendList[T any](b []byte, s []T, elem func([]byte, T) []byte) []byte {
	return domain.AppendList(b, s, elem)
}

func appendPositions(b []byte, ps []Pos) []byte { return appendList(b, ps, appendPos) }
func appendInts(b []byte, s []int) []byte       { return appendList(b, s, appendInt) }
func appendStrings(b []byte, s []string) []byte { return appendList(b, s, appendString) }

// appendNonEmpty writes the member key (with its comma and colon) and s,
// unless s is empty: a string member tagged omitempty.
func appendNonEmpty(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return appendString(append(b, key...), s)
}

func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }

// appendString writes s as a JSON string, as encoding/json does.
func appendString(b []byte, s string) []byte { return domain.AppendJSONString(b, s) }

// appendSnapshot appends g encoded exactly as json.Marshal(g) encodes it:
// the snapshot stored with every move.
func (g *Game) appendSnapshot(b []byte) []byte {
	b = append(b, `{"mode":`...)
	b = appendString(b, string(g.Mode))
	b = append(b, `,"catalog":`...)
	b = appendString(b, g.Catalog)
	b = append(b, `,"catalog_hash":`...)
	b = appendString(b, g.Hash)
	b = appendNonEmpty(b, `,"seed":`, g.Seed)
	b = appendNonEmpty(b, `,"salt":`, g.Salt)
	b = g.appendProgress(b)
	b = append(b, `,"players":`...)
	if g.Players == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range g.Players {
			if i > 0 {
				b = append(b, ',')
			}
			b = g.Players[i].appendJSON(b)
		}
		b = append(b, ']')
	}
	b = append(b, `,"deck":`...)
	b = appendInts(b, g.Deck)
	b = append(b, `,"display":`...)
	b = appendInts(b, g.Display)
	if len(g.Returned) > 0 {
		b = append(b, `,"returned":`...)
		b = appendInts(b, g.Returned)
	}
	b = append(b, `,"expedition_deck":`...)
	b = appendPatterns(b, g.ExpDeck)
	b = append(b, `,"revealed":`...)
	b = appendPatterns(b, g.Revealed)
	b = append(b, `,"cups":`...)
	b = appendInts(b, g.Cups)
	b = append(b, `,"resolving":`...)
	b = strconv.AppendInt(b, int64(g.Resolving), 10)
	b = append(b, `,"resolved":`...)
	b = strconv.AppendInt(b, int64(g.Resolved), 10)
	b = append(b, `,"started":`...)
	b = strconv.AppendBool(b, g.Started)
	b = append(b, `,"moves":`...)
	b = strconv.AppendInt(b, int64(g.Moves), 10)
	return append(b, '}')
}

func (p *Player) appendJSON(b []byte) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, p.Name)
	if len(p.Dealt) > 0 {
		b = append(b, `,"dealt":`...)
		b = appendInts(b, p.Dealt)
	}
	b = append(b, `,"kept":`...)
	b = strconv.AppendBool(b, p.Kept)
	b = append(b, `,"hand":`...)
	if p.Hand == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, h := range p.Hand {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"card":`...)
			b = strconv.AppendInt(b, int64(h.Card), 10)
			b = append(b, `,"crossed":`...)
			b = strconv.AppendUint(b, uint64(h.Crossed), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"pile":`...)
	b = appendInts(b, p.Pile)
	b = append(b, `,"coins":`...)
	b = strconv.AppendInt(b, int64(p.Coins), 10)
	b = append(b, `,"cups":`...)
	b = appendInts(b, p.Cups)
	b = append(b, `,"palms":`...)
	b = appendInts(b, p.Palms)
	b = append(b, `,"crossed_this_turn":`...)
	b = strconv.AppendBool(b, p.Crossed)
	b = append(b, `,"passed":`...)
	b = strconv.AppendBool(b, p.Passed)
	if p.Crossing != nil {
		b = append(b, `,"crossing":`...)
		b = p.Crossing.AppendJSON(b)
	}
	if u := p.Undo; u != nil {
		b = append(b, `,"undo":{"crossed":`...)
		b = appendList(b, u.Crossed, func(b []byte, m Mask) []byte { return strconv.AppendUint(b, uint64(m), 10) })
		b = append(b, `,"coins":`...)
		b = strconv.AppendInt(b, int64(u.Coins), 10)
		b = append(b, `,"palms":`...)
		b = strconv.AppendInt(b, int64(u.Palms), 10)
		b = append(b, '}')
	}
	b = append(b, `,"rows":`...)
	b = strconv.AppendInt(b, int64(p.Rows), 10)
	b = append(b, `,"takes":`...)
	b = strconv.AppendInt(b, int64(p.Takes), 10)
	if p.Changes != 0 {
		b = append(b, `,"changes":`...)
		b = strconv.AppendInt(b, int64(p.Changes), 10)
	}
	return append(b, '}')
}

// appendPatterns writes ps as encoding/json writes a slice of a byte type:
// a base64 string.
func appendPatterns(b []byte, ps []Pattern) []byte {
	if ps == nil {
		return append(b, "null"...)
	}
	raw := make([]byte, len(ps))
	for i, p := range ps {
		raw[i] = byte(p)
	}
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, raw)
	return append(b, '"')
}
