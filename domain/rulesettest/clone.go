package rulesettest

import (
	"bytes"
	"encoding/json"

	"github.com/treasury-games/treasury/domain"
)

// cloned is a copy of the game (domain.Cloner) taken after moves moves,
// with the snapshot it had then.
type cloned struct {
	g     domain.Game
	snap  []byte
	moves int
}

// checkClone holds a copy of the game (domain.Cloner) to the game restored
// from snap: the same snapshot, views, listings, listing keys, status and
// move due. It keeps the copy, for checkClonesKept to find it unchanged
// once the original has moved on, and returns a second copy for
// checkCloneMoves to move as the original moves (nil: no Cloner).
func (x *game) checkClone(snap []byte) domain.Game {
	c, ok := x.g.(domain.Cloner)
	if !ok {
		return nil
	}
	cp, r := c.Clone(), x.restore(snap)
	if got := x.mustSnapshot(cp); !bytes.Equal(got, snap) {
		x.t.Fatalf("%s: after %d moves a copy snapshots differently from the game:\n%s\n%s", x.name, len(x.log), got, snap)
	}
	for _, v := range x.viewers() {
		got, want := x.views(cp, v), x.views(r, v)
		for i := range want {
			if !bytes.Equal(got[i], want[i]) {
				x.t.Fatalf("%s: after %d moves %s reads of a copy\n%s\nand of the restored game\n%s", x.name, len(x.log), viewerName(v), got[i], want[i])
			}
		}
		for _, seat := range x.listings(v) {
			version := int64(len(x.log))
			if a, b := domain.AppendListingKey(nil, cp, version, seat), domain.AppendListingKey(nil, r, version, seat); !bytes.Equal(a, b) {
				x.t.Fatalf("%s: after %d moves seat %d's listing key is %q for a copy, %q restored", x.name, len(x.log), seat, a, b)
			}
		}
	}
	a, _ := json.Marshal(domain.StatusOf(cp))
	b, _ := json.Marshal(domain.StatusOf(r))
	if !bytes.Equal(a, b) || !bytes.Equal(domain.DueMove(cp), domain.DueMove(r)) {
		x.t.Fatalf("%s: after %d moves a copy stands at %s (due %s), the restored game at %s (due %s)", x.name, len(x.log), a, domain.DueMove(cp), b, domain.DueMove(r))
	}
	x.clones = append(x.clones, cloned{g: cp, snap: snap, moves: len(x.log)})
	return c.Clone()
}

// checkCloneMoves applies the move the game just took to cp, the game's
// copy from before it: the copy must log it, tell its events and snapshot
// as the game did, and leave the game as it was.
func (x *game) checkCloneMoves(cp domain.Game) {
	if cp == nil {
		return
	}
	want := x.mustSnapshot(x.g)
	last := x.last
	logged, err := cp.Apply(last.c.Actor, last.c.Move)
	if err != nil {
		x.t.Fatalf("%s: move %d (%s) was refused by a copy of the game before it: %v", x.name, len(x.log), last.c.Move, err)
	}
	a, _ := json.Marshal(struct {
		L domain.Logged
		E []domain.Event
	}{logged, cp.Events()})
	b, _ := json.Marshal(struct {
		L domain.Logged
		E []domain.Event
	}{last.logged, last.events})
	if !bytes.Equal(a, b) {
		x.t.Fatalf("%s: move %d on a copy logged and told\n%s\non the game\n%s", x.name, len(x.log), a, b)
	}
	if got := x.mustSnapshot(cp); !bytes.Equal(got, want) {
		x.t.Fatalf("%s: move %d on a copy left\n%s\non the game\n%s", x.name, len(x.log), got, want)
	}
	if after := x.mustSnapshot(x.g); !bytes.Equal(after, want) {
		x.t.Fatalf("%s: moving a copy on changed the game it was copied from:\n%s\n%s", x.name, after, want)
	}
}

// checkClonesKept checks that every copy kept by checkClone is as it was
// taken, the game it was copied from having moved on to its end.
func (x *game) checkClonesKept() {
	for _, c := range x.clones {
		if got := x.mustSnapshot(c.g); !bytes.Equal(got, c.snap) {
			x.t.Fatalf("%s: a copy taken after %d moves changed as the game moved on:\n%s\n%s", x.name, c.moves, got, c.snap)
		}
	}
}
