package luckytreasurehunter

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/treasury-games/treasury/domain"
)

// position sets up a game from text, one "key: value" per line:
//
//	mode: physical            (default digital)
//	heart: 0  faces: 3        (Captain Heart's seat, pirate faces; defaults 0 and 3)
//	turn: 1   phase: steal    (the seat on turn and the step it is at; default Captain Heart, place)
//	pile: rrgs                (digital: the draw pile, top first, one letter per card: s g p r j)
//	pilesize: 7               (physical: cards left in the pile; the rest of the unseen cards are discarded)
//	middle: r5 r2 p1          (sets: a letter and a size)
//	discard: rr
//	last: true                (the last card has been drawn)
//	steal: r3 from 1 set 0 pirates 1   (a steal under way: the set, its owner or "middle", dice showing the pirate)
//	0: hand ggrrs; sets r5 g3; captain used   (one line per seat, in order)
//
// Sets of a seat or the middle are written in the order they lie.
func position(t testing.TB, text string) *Game {
	t.Helper()
	g := &Game{Mode: Digital, Seed: "test-seed", PirateFaces: DefaultPirateFaces, Phase: PhasePlace, Pile: []Treasure{}, Middle: []Set{}, Turn: -1}
	pileSize := -1
	var steal string
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("position line %q has no colon", line)
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch key {
		case "mode":
			g.Mode = Mode(val)
			g.Seed = ""
		case "heart":
			g.Heart = atoi(t, val)
		case "faces":
			g.PirateFaces = atoi(t, val)
		case "turn":
			g.Turn = atoi(t, val)
		case "phase":
			g.Phase = Phase(val)
		case "pile":
			g.Pile = letters(t, val)
		case "pilesize":
			pileSize = atoi(t, val)
		case "middle":
			g.Middle = sets(t, val)
		case "discard":
			for _, c := range letters(t, val) {
				g.Discard[c]++
			}
		case "last":
			g.LastRound = val == "true"
		case "steal":
			steal = val
		default:
			seat := atoi(t, key)
			if seat != len(g.Players) {
				t.Fatalf("seat line %d out of order", seat)
			}
			p := Player{Name: botNames[seat], Sets: []Set{}}
			for _, part := range strings.Split(val, ";") {
				part = strings.TrimSpace(part)
				switch {
				case strings.HasPrefix(part, "hand"):
					h := strings.TrimSpace(strings.TrimPrefix(part, "hand"))
					if n, err := strconv.Atoi(h); err == nil {
						p.HandSize = n // physical: only the size is known
						continue
					}
					for _, c := range letters(t, h) {
						p.Hand[c]++
					}
					p.HandSize = p.Hand.Total()
				case strings.HasPrefix(part, "sets"):
					p.Sets = sets(t, strings.TrimPrefix(part, "sets"))
				case part == "captain used":
					p.CaptainUsed = true
				case part == "":
				default:
					t.Fatalf("seat %d: cannot read %q", seat, part)
				}
			}
			g.Players = append(g.Players, p)
		}
	}
	if g.Turn < 0 {
		g.Turn = g.Heart
	}
	if steal != "" {
		f := strings.Fields(steal)
		s := sets(t, f[0])[0]
		owner := Middle
		if f[2] != "middle" {
			owner = atoi(t, f[2])
		}
		st := &Steal{Owner: owner, Set: atoi(t, f[4]), Treasure: s.Treasure, Size: s.Size, Pirates: atoi(t, f[6])}
		st.Failed = st.Size - st.Pirates
		g.Steal = st
		if g.Phase == PhaseRoll {
			st.Pending = st.Failed
		}
	}
	if g.Mode == Physical && pileSize >= 0 {
		// Whatever unseen cards the pile and hands do not hold are discarded.
		extra := g.PileSize() - pileSize
		for tr := Treasure(0); extra > 0 && tr < NumTreasures; tr++ {
			u := g.Unseen()[tr]
			n := min(u, extra)
			g.Discard[tr] += n
			extra -= n
		}
	}
	return g
}

func atoi(t testing.TB, s string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return n
}

func letters(t testing.TB, s string) []Treasure {
	t.Helper()
	out := []Treasure{}
	for _, c := range strings.ReplaceAll(s, " ", "") {
		i := strings.IndexRune("sgprj", c)
		if i < 0 {
			t.Fatalf("no treasure letter %q", c)
		}
		out = append(out, Treasure(i))
	}
	return out
}

func sets(t testing.TB, s string) []Set {
	t.Helper()
	out := []Set{}
	for _, f := range strings.Fields(s) {
		out = append(out, Set{Treasure: letters(t, f[:1])[0], Size: atoi(t, f[1:])})
	}
	return out
}

// setsText writes sets in the notation.
func setsText(sets []Set) string {
	var parts []string
	for _, s := range sets {
		parts = append(parts, string(s.Treasure.Letter())+strconv.Itoa(s.Size))
	}
	return strings.Join(parts, " ")
}

// handText writes a hand in the notation, by type.
func handText(c Counts) string {
	var b strings.Builder
	for tr, n := range c {
		b.WriteString(strings.Repeat(string(Treasure(tr).Letter()), n))
	}
	return b.String()
}

// rigDice makes the next digital roll of n dice show want (true = pirate)
// by moving the game's roll counter to a roll number the seed rolls so.
func rigDice(t testing.TB, g *Game, want ...bool) {
	t.Helper()
	for r := g.Rolls + 1; r < g.Rolls+100000; r++ {
		if slices.Equal(rollDice(g.Seed, r, len(want), g.PirateFaces), want) {
			g.Rolls = r - 1
			return
		}
	}
	t.Fatalf("no roll of %v found", want)
}

func seat(n int) domain.Actor { return domain.Actor{Seat: n} }

var host = domain.Actor{Host: true}

// mv reads a move in JSON.
func mv(t testing.TB, s string) *Move {
	t.Helper()
	m, err := DecodeMove([]byte(s))
	if err != nil {
		t.Fatalf("move %s: %v", s, err)
	}
	return &m
}

func itoa(n int) string { return strconv.Itoa(n) }
