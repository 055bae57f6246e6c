// Package rulesettest is the conformance suite every ruleset runs from its
// own tests. It plays many seeded random games of the ruleset in every mode it
// offers and checks what the server relies on, whatever the game:
//
//   - a rejected move changes nothing, and its error is coded;
//   - snapshot, restore and snapshot again give the same bytes, and replaying
//     the log from the creation request gives the same state;
//   - the legal-move listing is the judge of legality: every candidate move
//     the listing offers is accepted, and every one it does not is refused;
//   - no viewer (the public, the host, each seat) can read a secret the
//     ruleset says it may not: not in a view, a legal-move listing, a score,
//     a logged move or an event (live or caught up), nor an error's reason;
//     where the ruleset can re-deal what a viewer may not know (Rehide), the
//     viewer's view and listings do not change;
//   - take-backs (takeback.go): after any take-back the policy allows, the
//     game is the replay of the log without the moves taken back, and no
//     viewer learns a secret by it; one it does not allow is refused with a
//     take-back rule;
//   - every game speaks the table language (table.go): it tells who it
//     awaits, each awaited actor's listing offers moves that are accepted as
//     listed, and games played from the listings alone end;
//   - every game speaks every language of domain/i18n (i18n.go): each label
//     of a listing, each <name>_message member of what a viewer reads and
//     each refusal is a message that every catalog holds.
//
// A ruleset provides a Harness: how to create a random game, which moves to
// try, whether a listing offers a move, and what each viewer must not see.
package rulesettest

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/treasury-games/treasury/domain"
)

// Candidate is a move to try: who makes it, whose legal moves list it (a
// seat, or -1 for the table's reports) and the move's JSON.
type Candidate struct {
	Actor domain.Actor
	Seat  int
	Move  []byte
}

// Harness is what the suite needs to know about a ruleset.
type Harness struct {
	Ruleset domain.Ruleset
	// NewGame returns the creation request of a random game in mode: its
	// players and options. The suite sets a digital game's seed and salt.
	NewGame func(r *rand.Rand, mode string) domain.CreateRequest
	// Candidates returns moves to try on g now: mostly legal ones of every
	// kind the game knows, and near misses. While the game runs, at least
	// one must be legal.
	Candidates func(g domain.Game, r *rand.Rand) []Candidate
	// Offered reports whether legal, the listing of c.Seat's legal moves as
	// c.Actor sees it, offers exactly the move c.
	Offered func(legal []byte, c Candidate) bool
	// Secrets returns byte strings that viewer v must not be able to read in
	// g now (plant recognisable ones: the seed, the ids of cards in another
	// seat's hidden hand, …). The digital seed is added by the suite.
	Secrets func(g domain.Game, v domain.Viewer) [][]byte
	// Rehide, optional, returns a copy of g in which what viewer v may not
	// know is dealt anew at random and everything v may know is unchanged:
	// v's view and legal moves must be the same bytes on it.
	Rehide func(g domain.Game, v domain.Viewer, r *rand.Rand) domain.Game
	// Games is how many games to play per mode; the suite plays a tenth as
	// many under -short or -race (TREASURY_CONFORMANCE_GAMES overrides).
	Games int
	// MaxMoves bounds a game; a game that has not ended by then fails.
	MaxMoves int
	// Budget bounds the time one mode's games take: once it has passed,
	// the suite stops after the game in play, having played at least a
	// tenth of Games. Each game is checked in full; a machine busy with
	// other work plays fewer of them instead of running past go test's
	// timeout. DefaultBudget when 0; TREASURY_CONFORMANCE_BUDGET (a
	// duration, 0 for none) overrides it, and TREASURY_CONFORMANCE_GAMES
	// plays exactly that many games whatever they take.
	Budget time.Duration
}

// DefaultBudget is a mode's budget when the harness says nothing: on a quiet
// machine every ruleset's games fit in it several times over.
const DefaultBudget = 30 * time.Second

// DefaultGames is how many games per mode a harness that says nothing plays.
const DefaultGames = 300

// Run plays the harness's games and reports every broken promise.
func Run(t *testing.T, h Harness) {
	t.Helper()
	if h.Ruleset == nil || h.NewGame == nil || h.Candidates == nil || h.Offered == nil || h.Secrets == nil {
		t.Fatal("rulesettest: the harness needs Ruleset, NewGame, Candidates, Offered and Secrets")
	}
	games := h.Games
	if games <= 0 {
		games = DefaultGames
	}
	if testing.Short() || raceEnabled {
		games = max(1, games/10)
	}
	least := max(1, games/10)
	budget := h.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	if d, err := time.ParseDuration(os.Getenv("TREASURY_CONFORMANCE_BUDGET")); err == nil {
		budget = d
	}
	if n, err := strconv.Atoi(os.Getenv("TREASURY_CONFORMANCE_GAMES")); err == nil && n > 0 {
		games, least, budget = n, n, 0
	}
	if h.MaxMoves <= 0 {
		h.MaxMoves = 5000
	}
	info := h.Ruleset.Info()
	if info.Name != h.Ruleset.Name() {
		t.Errorf("Info().Name is %q, Name() %q", info.Name, h.Ruleset.Name())
	}
	for _, mode := range info.Modes {
		t.Run(mode+" names", func(t *testing.T) { checkNames(t, h, mode) })
	}
	for _, mode := range info.Modes {
		t.Run(mode, func(t *testing.T) {
			moves, played, start := 0, 0, time.Now()
			for i := range games {
				if i >= least && budget > 0 && time.Since(start) > budget {
					break
				}
				moves += play(t, h, mode, uint64(i))
				played++
				if t.Failed() {
					return
				}
			}
			t.Logf("%d of %d %s games (seeds 0 to %d), %d moves, in %v", played, games, mode, played-1, moves,
				time.Since(start).Round(time.Millisecond))
			moves, listed, start := 0, 0, time.Now()
			for i := range max(1, played/4) {
				if i >= 1 && budget > 0 && time.Since(start) > budget/4 {
					break
				}
				moves += playFromListings(t, h, mode, uint64(i))
				listed++
				if t.Failed() {
					return
				}
			}
			t.Logf("%d %s games played from the listings alone, %d moves", listed, mode, moves)
		})
	}
}

// game is one game being played by the suite, with what it needs to check.
type game struct {
	t       *testing.T
	h       Harness
	name    string // for messages: mode and seed
	req     domain.CreateRequest
	cat     domain.CatalogBlob
	g       domain.Game
	r       *rand.Rand
	log     []domain.ReplayMove
	records []domain.MoveRecord
	events  [][]domain.Event
	entries []domain.LogEntry // the log as the take-back policy reads it
	// keyed is, for a domain.ListingKeyed game, each listing read by
	// viewer, seat and listing key: equal keys must list the same.
	keyed map[string][sha256.Size]byte
	// clones are the copies of the game checkClone took (domain.Cloner).
	clones []cloned
	// last is the move step applied last.
	last accepted
}

// accepted is a candidate the game took, with what it logged and told.
type accepted struct {
	c      Candidate
	logged domain.Logged
	events []domain.Event
	g      domain.Game
}

func play(t *testing.T, h Harness, mode string, seed uint64) int {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, uint64(len(mode))))
	req := h.NewGame(r, mode)
	req.Mode = mode
	req.Seed, req.Salt = "", ""
	if mode == domain.Digital {
		req.Seed = fmt.Sprintf("conformance-secret-seed-%d-%016x", seed, r.Uint64())
		req.Salt = fmt.Sprintf("salt%016x", r.Uint64())
	}
	x := &game{t: t, h: h, name: fmt.Sprintf("%s game %d", mode, seed), req: req, r: r}
	var err error
	x.g, x.cat, err = h.Ruleset.Create(req)
	if err != nil {
		t.Fatalf("%s: create %+v: %v", x.name, req, err)
	}
	x.checkSetup()
	snapAt, midSnap := r.IntN(60), []byte(nil)
	for n := 0; !x.g.Ended(); n++ {
		if n >= h.MaxMoves {
			t.Fatalf("%s: not ended after %d moves", x.name, n)
		}
		snap := x.roundTrip()
		if n == snapAt {
			midSnap = snap
		}
		x.checkViewers()
		x.checkTable(snap)
		cp := x.checkClone(snap)
		if !x.step(snap) || t.Failed() {
			return n
		}
		x.checkCloneMoves(cp)
		if n%16 == 15 {
			x.checkLog(false)
		}
		if n%8 == 7 {
			x.checkTakeBacks()
		}
	}
	x.roundTrip()
	x.checkViewers()
	x.checkTable(nil)
	x.checkClone(x.mustSnapshot(x.g))
	x.checkClonesKept()
	x.replay(len(x.log), x.mustSnapshot(x.g))
	if midSnap != nil && snapAt < len(x.log) {
		x.replay(snapAt, midSnap)
	}
	return len(x.log)
}

// checkNames checks that the ruleset holds its players' names to the one
// rule for names (names.Check): a game with a blank name, a control or
// bidirectional character, a name of 33 characters or two names alike once
// case is folded is refused as Invalid. (That an accent written two ways is
// one name is the comparison api/locale installs: TestNamesCompareAsPeopleReadThem
// and the API's TestPlayerNames.)
func checkNames(t *testing.T, h Harness, mode string) {
	for i, c := range []struct {
		name  string
		names func(n int) []string // n players' names, n as the harness chose
	}{
		{"blank", func(n int) []string { return withLast(n, " ") }},
		{"a control character", func(n int) []string { return withLast(n, "Ann\x1b[2J") }},
		{"a bidirectional override", func(n int) []string { return withLast(n, "Ann\u202eX") }},
		{"33 characters", func(n int) []string { return withLast(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefg") }},
		{"two alike", func(n int) []string { return withLast(max(n, 2), "René", "RENÉ") }},
	} {
		r := rand.New(rand.NewPCG(uint64(i), 7))
		req := h.NewGame(r, mode)
		req.Mode, req.Seed, req.Salt = mode, "", ""
		if mode == domain.Digital {
			req.Seed = "names"
		}
		req.Players = c.names(len(req.Players))
		if _, _, err := h.Ruleset.Create(req); domain.ErrorCode(err) != domain.Invalid {
			t.Errorf("%s: a game with players %q is not refused as invalid: %v", c.name, req.Players, err)
		}
	}
}

// withLast returns n players' names, the last ones being last.
func withLast(n int, last ...string) []string {
	out := make([]string, 0, n)
	for i := range n - len(last) {
		out = append(out, fmt.Sprintf("Player %d", i+1))
	}
	return append(out, last...)
}

// checkSetup checks that the game gives back the request it was made from.
func (x *game) checkSetup() {
	s := x.g.Setup()
	if s.Mode != x.req.Mode || s.Seed != x.req.Seed || s.Salt != x.req.Salt || !slices.Equal(s.Players, x.req.Players) {
		x.t.Fatalf("%s: Setup() returns %+v for a game created from %+v", x.name, s, x.req)
	}
	var opts map[string]any
	if err := json.Unmarshal(s.Options, &opts); err != nil {
		x.t.Fatalf("%s: Setup().Options is not a JSON object: %s", x.name, s.Options)
	}
	if x.g.Players() != len(x.req.Players) {
		x.t.Fatalf("%s: %d players named, Players() says %d", x.name, len(x.req.Players), x.g.Players())
	}
}

func (x *game) mustSnapshot(g domain.Game) []byte {
	b, err := g.Snapshot()
	if err != nil {
		x.t.Fatalf("%s: snapshot: %v", x.name, err)
	}
	return b
}

func (x *game) restore(snap []byte) domain.Game {
	g, err := x.h.Ruleset.Restore(snap, x.cat)
	if err != nil {
		x.t.Fatalf("%s: restore after %d moves: %v", x.name, len(x.log), err)
	}
	return g
}

// roundTrip checks snapshot → restore → snapshot and returns the snapshot.
func (x *game) roundTrip() []byte {
	snap := x.mustSnapshot(x.g)
	if again := x.mustSnapshot(x.restore(snap)); !bytes.Equal(snap, again) {
		x.t.Fatalf("%s: after %d moves a restored game snapshots differently:\n%s\n%s", x.name, len(x.log), snap, again)
	}
	return snap
}

// viewers are everyone who may look at the game.
func (x *game) viewers() []domain.Viewer {
	vs := []domain.Viewer{domain.Public, domain.HostViewer}
	for s := range x.g.Players() {
		vs = append(vs, domain.SeatViewer(s))
	}
	return vs
}

// listings are the seats whose legal moves viewer v may ask for.
func (x *game) listings(v domain.Viewer) []int {
	switch {
	case v.Host:
		out := []int{-1}
		for s := range x.g.Players() {
			out = append(out, s)
		}
		return out
	case v.Seat >= 0:
		return []int{v.Seat}
	}
	return nil
}

// secrets are what v must not read now.
func (x *game) secrets(v domain.Viewer) [][]byte {
	out := x.h.Secrets(x.g, v)
	if x.req.Seed != "" && !x.g.Ended() {
		out = append(out, []byte(x.req.Seed))
	}
	return out
}

// leak fails if out, shown to v as what, holds a secret of v's.
func (x *game) leak(v domain.Viewer, secrets [][]byte, what string, out []byte) {
	for _, s := range secrets {
		if len(s) > 0 && bytes.Contains(out, s) {
			x.t.Fatalf("%s, after %d moves: %s shown to %s holds %q, which it may not see:\n%s", x.name, len(x.log), what, viewerName(v), s, out)
		}
	}
}

func viewerName(v domain.Viewer) string {
	switch {
	case v.Host:
		return "the host"
	case v.Seat >= 0:
		return "seat " + strconv.Itoa(v.Seat)
	}
	return "the public"
}

// views returns what v reads of g: its view and its listings.
func (x *game) views(g domain.Game, v domain.Viewer) [][]byte {
	view, err := g.AppendView(nil, v)
	if err != nil {
		x.t.Fatalf("%s: view for %s: %v", x.name, viewerName(v), err)
	}
	if !json.Valid(view) {
		x.t.Fatalf("%s: the view for %s is not JSON: %s", x.name, viewerName(v), view)
	}
	x.checkMessageMembers("the view for "+viewerName(v), view)
	out := [][]byte{view}
	for _, seat := range x.listings(v) {
		l, err := g.LegalMoves(v, seat)
		if err != nil {
			x.t.Fatalf("%s: legal moves of seat %d for %s: %v", x.name, seat, viewerName(v), err)
		}
		x.checkListingLabels(l)
		if g == x.g {
			x.checkListingKey(v, seat, l)
		}
		x.checkMessageMembers("the listing of seat "+strconv.Itoa(seat)+" for "+viewerName(v), l)
		out = append(out, l)
	}
	return out
}

// checkListingKey holds a domain.ListingKeyed game to its promise: a
// listing key seen before lists what it listed then (no key: the listing
// is keyed by version, which never comes back).
func (x *game) checkListingKey(v domain.Viewer, seat int, listing []byte) {
	k, ok := x.g.(domain.ListingKeyed)
	if !ok {
		return
	}
	told := k.AppendListingKey(nil, seat)
	if len(told) == 0 {
		return
	}
	key := viewerName(v) + " " + strconv.Itoa(seat) + " " + string(told)
	sum := sha256.Sum256(listing)
	if x.keyed == nil {
		x.keyed = map[string][sha256.Size]byte{}
	}
	if prev, seen := x.keyed[key]; seen && prev != sum {
		x.t.Fatalf("%s, after %d moves: seat %d lists for %s something else than before under the same listing key %q:\n%s",
			x.name, len(x.log), seat, viewerName(v), key, listing)
	}
	x.keyed[key] = sum
}

// checkViewers searches everything each viewer reads now for its secrets,
// and (with Rehide) checks that it does not change when they are re-dealt.
func (x *game) checkViewers() {
	score, err := x.g.Score()
	if err != nil {
		x.t.Fatalf("%s: score: %v", x.name, err)
	}
	x.checkMessageMembers("the score", score)
	viewers := x.viewers()
	rehidden := x.r.IntN(len(viewers)) // one viewer a move: a re-deal costs a restore
	for vi, v := range viewers {
		secrets := x.secrets(v)
		x.leak(v, secrets, "the score", score)
		seen := x.views(x.g, v)
		for i, b := range seen {
			x.leak(v, secrets, []string{"the view", "a legal-move listing"}[min(i, 1)], b)
		}
		if x.h.Rehide != nil && !x.g.Ended() && vi == rehidden {
			other := x.views(x.h.Rehide(x.g, v, x.r), v)
			for i := range seen {
				if !bytes.Equal(seen[i], other[i]) {
					x.t.Fatalf("%s, after %d moves: %s reads something else once what it may not know is dealt anew:\n%s\n%s",
						x.name, len(x.log), viewerName(v), seen[i], other[i])
				}
			}
		}
	}
}

func viewerOf(a domain.Actor) domain.Viewer {
	if a.Host {
		return domain.HostViewer
	}
	return domain.SeatViewer(a.Seat)
}

// step tries the candidates of this position, each on the game as snap holds
// it, and plays one that was accepted. It returns false when none was.
func (x *game) step(snap []byte) bool {
	cands := x.h.Candidates(x.g, x.r)
	if due := domain.DueMove(x.g); due != nil {
		// The server makes its move; nobody else acts meanwhile.
		cands = []Candidate{{Actor: domain.SystemActor, Seat: -1, Move: due}}
	}
	if len(cands) == 0 {
		x.t.Fatalf("%s: no candidate move after %d moves, and the game has not ended", x.name, len(x.log))
	}
	x.r.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	var played *accepted
	for _, c := range cands {
		v := viewerOf(c.Actor)
		listing, lerr := x.g.LegalMoves(v, c.Seat)
		offered := c.Actor.IsSystem() || lerr == nil && x.h.Offered(listing, c)
		logged, err := x.g.Apply(c.Actor, c.Move)
		if err != nil {
			if offered {
				x.t.Fatalf("%s, after %d moves: seat %d's listing offers %s by %s, and it was refused: %v\nlisting: %s",
					x.name, len(x.log), c.Seat, c.Move, viewerName(v), err, listing)
			}
			if domain.ErrorCode(err) == domain.Internal {
				x.t.Fatalf("%s: %s by %s was refused with an uncoded error: %v", x.name, c.Move, viewerName(v), err)
			}
			x.leak(v, x.secrets(v), "the reason for refusing "+string(c.Move), []byte(domain.ErrorReason(err)))
			x.checkRefusal(c.Move, err)
			if after := x.mustSnapshot(x.g); !bytes.Equal(after, snap) {
				x.t.Fatalf("%s, after %d moves: the refused move %s (%v) changed the game:\n%s\n%s", x.name, len(x.log), c.Move, err, snap, after)
			}
			continue
		}
		if !offered {
			x.t.Fatalf("%s, after %d moves: %s by %s was accepted, but seat %d's listing does not offer it:\n%s",
				x.name, len(x.log), c.Move, viewerName(v), c.Seat, listing)
		}
		a := &accepted{c: c, logged: logged, events: x.g.Events(), g: x.g}
		if played == nil {
			played = a
		}
		x.g = x.restore(snap) // try the others on the position before
	}
	if played == nil {
		x.t.Fatalf("%s, after %d moves: every candidate was refused", x.name, len(x.log))
		return false
	}
	x.g = played.g
	x.last = *played
	x.log = append(x.log, domain.ReplayMove{Actor: played.c.Actor, Move: played.logged.Move})
	if !json.Valid(played.logged.Move) || (played.logged.Public != nil && !json.Valid(played.logged.Public)) {
		x.t.Fatalf("%s: move %d is logged as something other than JSON: %s / %s", x.name, len(x.log), played.logged.Move, played.logged.Public)
	}
	rec := domain.MoveRecord{Seq: int64(len(x.log)), Actor: played.c.Actor, Move: played.logged.Move,
		Public: played.logged.Public, For: played.logged.For, NotHost: played.logged.NotHost}
	x.records = append(x.records, rec)
	x.events = append(x.events, played.events)
	x.entries = append(x.entries, logEntry(len(x.log), played.c.Actor, played.logged.Move, x.g, played.events))
	// The service logs a move with where the game stands after it as the
	// game says (domain.LogEntryWith), and reads a stored move's from its
	// status event (domain.LogEntryOf): a ruleset's own status must say the
	// same, or take-backs would be judged one way in memory and another
	// from the store.
	if n := len(played.events); n > 0 && played.events[n-1].Type == "status" {
		stored := domain.LogEntryOf(&domain.MoveRecord{Seq: rec.Seq, Actor: rec.Actor, Move: rec.Move, Events: domain.MustJSON(played.events)})
		if e := x.entries[len(x.entries)-1]; stored.Phase != e.Phase || stored.TurnNumber != e.TurnNumber {
			x.t.Fatalf("%s: move %d's status event says phase %q, turn %d; the game says phase %q, turn %d",
				x.name, len(x.log), stored.Phase, stored.TurnNumber, e.Phase, e.TurnNumber)
		}
	}
	x.checkDisclosed(len(x.records)-1, true)
	return true
}

// checkDisclosed checks what each viewer reads of logged move i: live, as it
// happens, or caught up from the log now.
func (x *game) checkDisclosed(i int, live bool) {
	ended := x.g.Ended()
	for _, v := range x.viewers() {
		secrets := x.secrets(v)
		what := fmt.Sprintf("move %d of the log", i+1)
		if live {
			what = fmt.Sprintf("move %d as it happened", i+1)
		}
		x.leak(v, secrets, what, domain.DiscloseMove(&x.records[i], v, ended))
		for _, e := range domain.DiscloseEvents(x.events[i], v, ended, live) {
			if !json.Valid(e.Data) {
				x.t.Fatalf("%s: event %s of move %d is not JSON: %s", x.name, e.Type, i+1, e.Data)
			}
			x.leak(v, secrets, fmt.Sprintf("event %s of %s", e.Type, what), e.Data)
			x.checkMessageMembers(fmt.Sprintf("event %s of %s", e.Type, what), e.Data)
		}
	}
}

// checkLog checks every logged move as a viewer catching up reads it now.
func (x *game) checkLog(live bool) {
	for i := range x.records {
		x.checkDisclosed(i, live)
	}
}

// replay checks that the first n moves of the log, replayed from the
// creation request, give the state snap.
func (x *game) replay(n int, snap []byte) {
	g, bad, err := x.h.Ruleset.Replay(x.g.Setup(), x.cat, x.log[:n])
	if err != nil {
		x.t.Fatalf("%s: replaying %d moves stopped at move %d: %v", x.name, n, bad, err)
	}
	if got := x.mustSnapshot(g); !bytes.Equal(got, snap) {
		x.t.Fatalf("%s: %d moves replayed give another state:\n%s\nplayed:\n%s", x.name, n, got, snap)
	}
}
