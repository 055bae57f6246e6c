package silvergold

import (
	"bytes"
	"math/bits"
	"slices"
	"strconv"
	"sync"
)

// A crossing listing is made of pieces that follow from the catalog alone:
// each placement of a pattern on a card (its member of "placements" and its
// entry), each box of a card (its member of "single_boxes" and of
// "free_boxes", its entry and its part of the extra pool). The server
// writes a crossing listing for every seat at the start of every turn, and
// writing those pieces (labels rendered, messages and moves encoded) made
// nearly all of its cost (issue 27, BenchmarkLegalMovesJSON). crossPieces
// writes each piece once per catalog, with the writers of the plain listing
// (Legal.AppendJSON over a listing of that one piece), and
// Game.appendCrossListing puts a listing's tail together from them.
// TestLegalJSONPlain holds what it writes to json.Marshal of the plain
// listing.

// crossPieces are a catalog's pieces, by card index, each card's made when a
// listing first shows it (about 2 MB for the 47 cards of the standard
// catalog, all patterns listed).
type crossPieces struct {
	cards []cardPieces
}

type cardPieces struct {
	boxesOnce sync.Once
	boxes     [MaxRows * GridStride]boxPieces // by bit index
	pattern   [NumPatterns]patternPieces
}

type patternPieces struct {
	once       sync.Once
	placements []placementPieces // as the catalog's placements of the pattern on the card
}

// placementPieces are a placement's member of "placements" and its entry
// after the seat of its move (entryLead).
type placementPieces struct {
	placement, entry []byte
}

// boxPieces are a box's member of "single_boxes" and of its card's
// "free_boxes", its entry after the seat of its move (entryLead) and its
// part of the extra pool.
type boxPieces struct {
	single, free, entry, part []byte
}

// entryLead is what a crossing entry writes before its seat.
const entryLead = `{"move":{"type":"cross","seat":`

// placementPieces returns the pieces of the placements of pattern pat on card.
func (c *Catalog) placementPieces(card int, pat Pattern) []placementPieces {
	pp := &c.derived.pieces.cards[card].pattern[pat]
	pp.once.Do(func() {
		masks := c.derived.placements[card][pat]
		pp.placements = make([]placementPieces, len(masks))
		for i, m := range masks {
			pl, _ := cardPlacement(nil, &c.Cards[card], m)
			l := Legal{Action: MoveCross, Expedition: expeditionOf(pat), Placements: []Placement{pl}}
			pp.placements[i] = placementPieces{placement: appendPlacement(nil, pl), entry: onlyEntry(&l)}
		}
	})
	return pp.placements
}

// boxPieces returns the pieces of card's boxes, by bit index.
func (c *Catalog) boxPieces(card int) *[MaxRows * GridStride]boxPieces {
	cp := &c.derived.pieces.cards[card]
	cp.boxesOnce.Do(func() {
		cd := &c.Cards[card]
		for v := cd.Boxes; v != 0; v &= v - 1 {
			bit := v & -v
			pl, _ := cardPlacement(nil, cd, bit)
			fb := FreeBox{Box: pl.Boxes[0], Symbol: cd.symbol(bit)}
			l := Legal{Action: MoveCross, Expedition: expeditionOf(0), Singles: []Placement{pl},
				Free: []FreeCard{{Card: cd.ID, Boxes: []FreeBox{fb}}}}
			var w entryWriter
			part := w.appendPools(nil, &l)
			lead := `{"` + poolExtra + `":[`
			if !bytes.HasPrefix(part, []byte(lead)) || !bytes.HasSuffix(part, []byte("]}")) {
				panic("silvergold: a box's part is not written as its pool's only one: " + string(part))
			}
			cp.boxes[bitIndex(bit)] = boxPieces{single: appendPlacement(nil, pl), free: appendFreeBox(nil, fb),
				entry: onlyEntry(&l), part: part[len(lead) : len(part)-2]}
		}
	})
	return &cp.boxes
}

// onlyEntry returns the entry of l, a crossing listing of one placement or
// box, after its seat.
func onlyEntry(l *Legal) []byte {
	var w entryWriter
	lead := "[" + entryLead + strconv.Itoa(l.Seat)
	b := w.appendEntries(nil, l)
	if !bytes.HasPrefix(b, []byte(lead)) || !bytes.HasSuffix(b, []byte("]")) || bytes.Count(b, []byte(`{"move":`)) != 1 {
		panic("silvergold: a crossing entry is not written as the one of its listing: " + string(b))
	}
	return b[len(lead) : len(b)-1]
}

func bitIndex(bit Mask) int { return bits.TrailingZeros16(uint16(bit)) }

// appendCrossListing appends seat's listing while it crosses
// (Game.crossing): its head (Legal.appendHead) and its tail
// (Legal.appendTail) put together from the catalog's pieces, in one
// allocation when b has no room for it. It writes the listing's entries and
// pools from the pieces, not through Legal.entries or eachEntry.
func (g *Game) appendCrossListing(b []byte, seat int) []byte {
	pat, _ := g.Current()
	p := &g.Players[seat]
	var pb [64]*placementPieces
	var bb [64]*boxPieces
	var fb [8]int
	pls, boxes, free := pb[:0], bb[:0], fb[:0] // free: how many of boxes are each card's
	for i := range p.Hand {
		card := p.Hand[i].Card
		open := crossable(&g.cat.Cards[card], g.crossBase(p, i))
		pcs := g.cat.placementPieces(card, pat)
		for j, m := range g.cat.derived.placements[card][pat] {
			if m&^open == 0 {
				pls = append(pls, &pcs[j])
			}
		}
		bps := g.cat.boxPieces(card)
		n := len(boxes)
		for v := open; v != 0; v &= v - 1 {
			boxes = append(boxes, &bps[bitIndex(v&-v)])
		}
		free = append(free, len(boxes)-n)
	}
	var sb [20]byte
	seatLead := strconv.AppendInt(append(sb[:0], entryLead...), int64(seat), 10)
	size := 1024 + len(p.Hand)*64 // the head, the members' names, each card's free boxes
	for _, pl := range pls {
		size += len(pl.placement) + len(seatLead) + len(pl.entry) + 2
	}
	for _, bp := range boxes {
		size += len(bp.single) + len(bp.free) + len(seatLead) + len(bp.entry) + len(bp.part) + 4
	}
	b = g.crossListingHead(slices.Grow(b, size), seat)

	b = append(b, `,"placements":[`...)
	for i, pl := range pls {
		b = comma(b, i)
		b = append(b, pl.placement...)
	}
	b = append(b, `],"single_boxes":[`...)
	for i, bp := range boxes {
		b = comma(b, i)
		b = append(b, bp.single...)
	}
	b = append(b, `],"free_boxes":[`...)
	from := 0
	for i := range p.Hand {
		b = comma(b, i)
		b = append(b, `{"card":`...)
		b = appendString(b, g.cat.Cards[p.Hand[i].Card].ID)
		b = append(b, `,"boxes":[`...)
		for j, bp := range boxes[from : from+free[i]] {
			b = comma(b, j)
			b = append(b, bp.free...)
		}
		from += free[i]
		b = append(b, "]}"...)
	}
	b = append(b, `],"keep_from":[],"take_from":[],"deck":false,"deck_cards":[],"reveal_from":[],"moves":[`...)
	for i, pl := range pls {
		b = comma(b, i)
		b = append(append(b, seatLead...), pl.entry...)
	}
	for i, bp := range boxes {
		b = comma(b, len(pls)+i)
		b = append(append(b, seatLead...), bp.entry...)
	}
	b = append(b, `],"pools":{"`+poolExtra+`":`...)
	if len(boxes) == 0 {
		return append(b, "null}}"...) // nullWhenEmpty
	}
	b = append(b, '[')
	for i, bp := range boxes {
		b = comma(b, i)
		b = append(b, bp.part...)
	}
	return append(b, "]}}"...)
}

// crossListingHead appends the head of seat's listing (Legal.appendHead)
// while it crosses (Game.crossing).
func (g *Game) crossListingHead(b []byte, seat int) []byte {
	l := g.newLegal(seat)
	g.crossHead(&l, seat)
	return l.appendHead(b)
}

// comma writes the comma before the member i of a list.
func comma(b []byte, i int) []byte {
	if i > 0 {
		return append(b, ',')
	}
	return b
}
