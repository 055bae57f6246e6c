package api_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// TestTakeBackEveryRuleset plays a game of every ruleset in every mode
// through the service, taking back what the listings offer now and then:
// every take-back's events match their schemas, each viewer then sees the
// game as before the moves taken back (when they were the latest), a
// take-back the listing does not offer is refused with a take-back rule, and
// the finished game's record, take-backs and all, verifies offline with the
// score the server shows.
func TestTakeBackEveryRuleset(t *testing.T) {
	schemas := eventSchemas(t)
	for _, rs := range rulesets.All() {
		info := rs.Info()
		for _, mode := range info.Modes {
			t.Run(rs.Name()+"/"+mode, func(t *testing.T) {
				ctx := t.Context()
				store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "treasury.db"))
				if err != nil {
					t.Fatal(err)
				}
				defer store.Close()
				s := service.New(store, rulesets.All()...)
				r := rand.New(rand.NewPCG(23, uint64(len(mode))))
				req := randomRequest(t, info, mode, r)
				req.Salt = ""
				c, err := s.Create(ctx, rs.Name(), req)
				if err != nil {
					t.Fatal(err)
				}
				id := c.Game.ID
				n := len(req.Players)
				viewers := []domain.Viewer{domain.Public, domain.HostViewer}
				for i := range n {
					viewers = append(viewers, domain.SeatViewer(i))
				}
				views := map[int64][]string{} // version -> each viewer's view
				look := func() domain.GameView {
					var host domain.GameView
					for i, v := range viewers {
						gv, err := s.Game(ctx, id, v)
						if err != nil {
							t.Fatal(err)
						}
						views[gv.Version] = append(views[gv.Version][:i:i], string(gv.State))
						if v.Host {
							host = gv
						}
					}
					return host
				}
				live, stop := s.Subscribe(id)
				defer stop()
				list := func(v domain.Viewer, seat int) (l struct {
					Moves []domain.LegalMove `json:"moves"`
					Pools domain.Pools       `json:"pools"`
				}) {
					_, b, err := s.LegalMoves(ctx, id, v, seat)
					if err != nil {
						t.Fatal(err)
					}
					if err := json.Unmarshal(b, &l); err != nil {
						t.Fatal(err)
					}
					return l
				}
				took, refused := 0, false
				for moves := 0; ; moves++ {
					if moves > 5000 {
						t.Fatal("the game has not ended after 5000 moves")
					}
					g := look()
					if g.Ended {
						break
					}
					// Every actor's take-backs, as its listing offers them.
					type offer struct {
						actor domain.Actor
						e     domain.LegalMove
					}
					var offers []offer
					for seat := -1; seat < n; seat++ {
						v, a := domain.HostViewer, domain.Actor{Host: true}
						if seat >= 0 {
							v, a = domain.SeatViewer(seat), domain.Actor{Seat: seat}
						}
						for _, e := range list(v, seat).Moves {
							if domain.IsTakeBack(e.Move) {
								offers = append(offers, offer{a, e})
							}
						}
					}
					if !refused && g.Version >= 3 {
						// A take-back of the first move is offered to nobody by now but
						// the host correcting a physical game's first turn.
						offered := false
						for _, o := range offers {
							offered = offered || string(o.e.Move) == `{"type":"take_back","version":1}`
						}
						if !offered {
							_, err := s.Play(ctx, id, domain.Actor{Seat: 0}, []byte(`{"type":"take_back","version":1}`), domain.PlayOptions{})
							if domain.ErrorCode(err) != domain.IllegalMove || len(domain.ErrorRule(err)) < 10 || domain.ErrorRule(err)[:10] != "take-back-" {
								t.Fatalf("a take-back nobody is offered: %v", err)
							}
							refused = true
						}
					}
					if len(offers) > 0 && took < 4 && r.IntN(3) == 0 {
						o := offers[r.IntN(len(offers))]
						var tb domain.TakeBack
						if err := json.Unmarshal(o.e.Move, &tb); err != nil {
							t.Fatal(err)
						}
						if _, err := s.Play(ctx, id, o.actor, o.e.Move, domain.PlayOptions{}); err != nil {
							t.Fatalf("the listed %s (%s) by %+v was refused: %v", o.e.Move, o.e.Label, o.actor, err)
						}
						took++
						u := <-live
						checkTakeBackMove(t, u.Move)
						if len(u.Events) == 0 || u.Events[0].Type != domain.EventTakenBack {
							t.Fatalf("a take-back's events start with %v", u.Events)
						}
						var ev domain.TakenBack
						if err := json.Unmarshal(u.Events[0].Data, &ev); err != nil {
							t.Fatal(err)
						}
						for _, e := range u.Events {
							checkRulesetEvent(t, schemas, rs.Name(), e)
						}
						after := look()
						if ev.Versions[len(ev.Versions)-1] == g.Version {
							// The latest moves were taken back: everyone sees the game as
							// before them, nothing more.
							for i, v := range viewers {
								if got, want := views[after.Version][i], views[tb.Version-1][i]; got != want {
									t.Fatalf("after %s, %+v sees\n%s\nand before move %d saw\n%s", o.e.Label, v, got, tb.Version, want)
								}
							}
						}
						t.Logf("version %d: %s", after.Version, ev.Label)
						continue
					}
					actor, move := serviceListedMove(t, s, id, g, r)
					if _, err := s.Play(ctx, id, actor, move, domain.PlayOptions{}); err != nil {
						t.Fatalf("the listed %s by %+v was refused: %v", move, actor, err)
					}
					<-live
				}
				if mode == domain.Digital && rs.Name() == "lucky-treasure-hunter" {
					if took != 0 {
						t.Errorf("a digital Lucky Treasure Hunter game offered %d take-backs; every move shows cards or rolls", took)
					}
				} else if took == 0 {
					t.Errorf("no take-back was offered in a whole game")
				}
				if !refused {
					t.Error("no take-back was refused")
				}
				rec, err := s.Record(ctx, id, domain.HostViewer)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := json.Marshal(rec)
				var back domain.Record
				if err := json.Unmarshal(b, &back); err != nil {
					t.Fatal(err)
				}
				verdict := domain.VerifyRecord(rulesets.All(), back)
				if !verdict.Valid {
					t.Fatalf("the record with %d take-backs does not verify: %+v", took, verdict.Problem)
				}
				score, err := s.Score(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				if string(score) != string(verdict.Score) {
					t.Errorf("the record's score is\n%s\nand the server's\n%s", verdict.Score, score)
				}
			})
		}
	}
}

// checkTakeBackMove validates a logged take-back against the TakeBack schema.
func checkTakeBackMove(t *testing.T, move json.RawMessage) {
	t.Helper()
	var v any
	if err := json.Unmarshal(move, &v); err != nil {
		t.Fatal(err)
	}
	if err := spec.Doc.Components.Schemas["TakeBack"].Value.VisitJSON(v, openapi3.MultiErrors()); err != nil {
		t.Errorf("the logged take-back %s does not match TakeBack: %v", move, err)
	}
}

// serviceListedMove picks an awaited actor of game g at random and one of
// its listed moves other than a take-back, from the service's listing.
func serviceListedMove(t *testing.T, s *service.Games, id string, g domain.GameView, r *rand.Rand) (domain.Actor, json.RawMessage) {
	t.Helper()
	if len(g.Awaiting) == 0 {
		t.Fatal("the game has not ended and awaits nobody")
	}
	a := g.Awaiting[r.IntN(len(g.Awaiting))]
	actor, v, seat := domain.Actor{Host: true}, domain.HostViewer, -1
	if a.Actor != domain.ActorHost {
		actor, v, seat = domain.Actor{Seat: *a.Seat}, domain.SeatViewer(*a.Seat), *a.Seat
	}
	_, b, err := s.LegalMoves(t.Context(), id, v, seat)
	if err != nil {
		t.Fatal(err)
	}
	var l struct {
		Moves []domain.LegalMove `json:"moves"`
		Pools domain.Pools       `json:"pools"`
	}
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	var ready []domain.LegalMove
	for _, m := range l.Moves {
		if !domain.IsTakeBack(m.Move) {
			ready = append(ready, m)
		}
	}
	if len(ready) == 0 {
		t.Fatal(fmt.Sprintf("seat %d's listing offers nothing: %s", seat, b))
	}
	move, err := ready[r.IntN(len(ready))].Complete(l.Pools, r)
	if err != nil {
		t.Fatal(err)
	}
	return actor, move
}

// TestSharedTakeBack: on two servers sharing PostgreSQL, a move made on one
// is taken back on the other (which reads the log from the store), and the
// first server then reads the game and its listings as the take-back left
// it.
func TestSharedTakeBack(t *testing.T) {
	srv := startShared(t, 2, sharedOptions{})
	a, b := srv[0].games, srv[1].games
	ctx := t.Context()
	c, err := a.Create(ctx, "silver-and-gold", domain.CreateRequest{Mode: domain.Physical, Players: []string{"Ann", "Bob"}})
	if err != nil {
		t.Fatal(err)
	}
	id := c.Game.ID
	r := rand.New(rand.NewPCG(5, 6))
	g, err := a.Game(ctx, id, domain.HostViewer)
	if err != nil {
		t.Fatal(err)
	}
	before := string(g.State)
	actor, move := serviceListedMove(t, a, id, g, r)
	if _, err := a.Play(ctx, id, actor, move, domain.PlayOptions{}); err != nil {
		t.Fatal(err)
	}
	// A, which stored move 1 itself, offers the take-back without reading
	// the log.
	logReads := srv[0].store.called("Moves")
	if _, l, err := a.LegalMoves(ctx, id, domain.HostViewer, -1); err != nil || !strings.Contains(string(l), `{"type":"take_back","version":1}`) {
		t.Fatalf("server A's host listing offers no take-back of move 1 (%v): %s", err, l)
	}
	if n := srv[0].store.called("Moves") - logReads; n != 0 {
		t.Errorf("server A read the log %d times for its listing, want 0", n)
	}
	// B offers the host the correction, and makes it.
	_, l, err := b.LegalMoves(ctx, id, domain.HostViewer, -1)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(l), `{"type":"take_back","version":1}`) {
		t.Fatalf("server B's host listing offers no take-back of move 1: %s", l)
	}
	if _, err := b.Play(ctx, id, domain.Actor{Host: true}, []byte(`{"type":"take_back","version":1}`), domain.PlayOptions{}); err != nil {
		t.Fatal(err)
	}
	after, err := a.Game(ctx, id, domain.HostViewer)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version != 2 || string(after.State) != before {
		t.Fatalf("server A reads version %d:\n%s\nwant version 2 as before move 1:\n%s", after.Version, after.State, before)
	}
	if _, l, err = a.LegalMoves(ctx, id, domain.HostViewer, -1); err != nil || strings.Contains(string(l), "take_back") {
		t.Fatalf("server A's host listing after the take-back (%v): %s", err, l)
	}
}
