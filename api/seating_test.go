package api_test

import (
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api/client"
	ct "github.com/treasury-games/treasury/domain/colorfultreasure"
)

// joinCodeFormat is what a join code looks like: 6 capital letters and
// digits without look-alikes.
var joinCodeFormat = regexp.MustCompile(`^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$`)

type joinSeatJSON struct {
	Seat  int    `json:"seat"`
	Name  string `json:"name"`
	Taken bool   `json:"taken"`
}

type joinTableJSON struct {
	GameID  string         `json:"game_id"`
	Ruleset string         `json:"ruleset"`
	Mode    string         `json:"mode"`
	Seats   []joinSeatJSON `json:"seats"`
}

type seatCredJSON struct {
	GameID     string `json:"game_id"`
	Seat       int    `json:"seat"`
	Credential string `json:"credential"`
}

// joinCode asks for the game's join code with the host credential.
func (tb *table) joinCode(t *testing.T) string {
	t.Helper()
	r := tb.s.Do(t, http.MethodPost, tb.path("/join-code"), nil, cred(tb.host))
	wantStatus(t, r, http.StatusOK)
	c := decode[struct {
		Code   string `json:"code"`
		GameID string `json:"game_id"`
	}](t, r.Body)
	if c.GameID != tb.id {
		t.Fatalf("the code names game %q, not %q", c.GameID, tb.id)
	}
	return c.Code
}

func TestJoinCodes(t *testing.T) {
	s := newServer(t)
	tb := newTable(t, s, "digital", 3, "join-seed")
	code := tb.joinCode(t)

	t.Run("six characters without look-alikes, the same from every host device", func(t *testing.T) {
		if !joinCodeFormat.MatchString(code) {
			t.Fatalf("code %q", code)
		}
		if again := tb.joinCode(t); again != code {
			t.Errorf("asked again: %q, then %q", code, again)
		}
		other := newTable(t, s, "digital", 2, "")
		if c := other.joinCode(t); c == code {
			t.Errorf("two games share code %q", c)
		}
	})

	t.Run("the join page shows the names and which seats are free, whatever the case and spacing typed", func(t *testing.T) {
		typed := strings.ToLower(code[:3] + " " + code[3:])
		r := s.Do(t, http.MethodPost, "/v1/join", map[string]any{"code": typed})
		wantStatus(t, r, http.StatusOK)
		j := decode[joinTableJSON](t, r.Body)
		want := []joinSeatJSON{{0, "Ann", false}, {1, "Ben", false}, {2, "Cat", false}}
		if j.GameID != tb.id || j.Mode != "digital" || j.Ruleset != "silver-and-gold" || !equalSeats(j.Seats, want) {
			t.Fatalf("join page %s", r.Body)
		}
		if strings.Contains(string(r.Body), tb.host) || strings.Contains(string(r.Body), tb.seats[0]) {
			t.Fatal("the join page shows a credential")
		}
	})

	t.Run("a seat whose link was opened is taken and cannot be picked", func(t *testing.T) {
		tb.get(t, tb.seats[0]) // Ann opened the host's link
		j := decode[joinTableJSON](t, s.Do(t, http.MethodPost, "/v1/join", map[string]any{"code": code}).Body)
		if !j.Seats[0].Taken || j.Seats[1].Taken {
			t.Fatalf("seats %+v", j.Seats)
		}
		p := wantProblem(t, s.Do(t, http.MethodPost, "/v1/join/seat", map[string]any{"code": code, "seat": 0}), http.StatusConflict, "conflict")
		if !strings.Contains(p.Detail, "Ann") {
			t.Errorf("the refusal does not name the seat: %q", p.Detail)
		}
		tb.get(t, tb.seats[0]) // and Ann still plays
	})

	t.Run("only the host credential shows it (Ann's is no host's)", func(t *testing.T) {
		wantProblem(t, s.Do(t, http.MethodPost, tb.path("/join-code"), nil, cred(tb.seats[0])), http.StatusForbidden, "forbidden")
		wantProblem(t, s.Do(t, http.MethodPost, tb.path("/join-code"), nil), http.StatusUnauthorized, "unauthorized")
	})

	t.Run("a free seat picked gets a credential of its own; the unused link stops working", func(t *testing.T) {
		r := s.Do(t, http.MethodPost, "/v1/join/seat", map[string]any{"code": code, "seat": 1})
		wantStatus(t, r, http.StatusCreated)
		c := decode[seatCredJSON](t, r.Body)
		if c.GameID != tb.id || c.Seat != 1 || c.Credential == "" || c.Credential == tb.seats[1] {
			t.Fatalf("took %s", r.Body)
		}
		l := s.Do(t, http.MethodGet, tb.path("/legal-moves"), nil, cred(c.Credential))
		wantStatus(t, l, http.StatusOK)
		wantProblem(t, s.Do(t, http.MethodGet, tb.path("/legal-moves"), nil, cred(tb.seats[1])), http.StatusUnauthorized, "unauthorized")
		tb.seats[1] = c.Credential
	})

	t.Run("of eight phones picking the same free seat at once, one gets it", func(t *testing.T) {
		var (
			wg       sync.WaitGroup
			mu       sync.Mutex
			statuses = map[int]int{}
			winner   string
		)
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := s.Do(t, http.MethodPost, "/v1/join/seat", map[string]any{"code": code, "seat": 2})
				mu.Lock()
				defer mu.Unlock()
				statuses[r.Status]++
				if r.Status == http.StatusCreated {
					winner = decode[seatCredJSON](t, r.Body).Credential
				} else if !strings.Contains(string(r.Body), `"code":"conflict"`) {
					t.Errorf("a loser got %d %s", r.Status, r.Body)
				}
			}()
		}
		wg.Wait()
		if statuses[http.StatusCreated] != 1 || statuses[http.StatusConflict] != 7 {
			t.Fatalf("statuses %v", statuses)
		}
		wantStatus(t, s.Do(t, http.MethodGet, tb.path("/legal-moves"), nil, cred(winner)), http.StatusOK)
	})

	t.Run("a pick retried with its Idempotency-Key after a lost answer gets the same credential", func(t *testing.T) {
		other := newTable(t, s, "physical", 2, "")
		otherCode := other.joinCode(t)
		key := header("Idempotency-Key", "0f8c2d4e6a1b3c5d7e9f0a2b4c6d8e0f")
		first := s.Do(t, http.MethodPost, "/v1/join/seat", map[string]any{"code": otherCode, "seat": 0}, key)
		wantStatus(t, first, http.StatusCreated)
		again := s.Do(t, http.MethodPost, "/v1/join/seat", map[string]any{"code": otherCode, "seat": 0}, key)
		wantStatus(t, again, http.StatusCreated)
		c1, c2 := decode[seatCredJSON](t, first.Body), decode[seatCredJSON](t, again.Body)
		if c1.Credential != c2.Credential {
			t.Fatal("the retry got another credential")
		}
		wantStatus(t, s.Do(t, http.MethodGet, other.path("/legal-moves"), nil, cred(c1.Credential)), http.StatusOK)
		wantProblem(t, s.Do(t, http.MethodPost, "/v1/join/seat", map[string]any{"code": otherCode, "seat": 0},
			header("Idempotency-Key", "another-phone-another-key-0001")), http.StatusConflict, "conflict")
		wantProblem(t, s.Do(t, http.MethodPost, "/v1/join/seat", map[string]any{"code": otherCode, "seat": 1},
			header("Idempotency-Key", "short")), http.StatusBadRequest, "validation_failed")
	})

	t.Run("a seat that is none is refused", func(t *testing.T) {
		wantProblem(t, s.Do(t, http.MethodPost, "/v1/join/seat", map[string]any{"code": code, "seat": 5}), http.StatusBadRequest, "invalid")
	})

	t.Run("the code expires with the game", func(t *testing.T) {
		tb.playToEnd(t, true, nil)
		p := wantProblem(t, s.Do(t, http.MethodPost, "/v1/join", map[string]any{"code": code}), http.StatusNotFound, "not_found")
		if !strings.Contains(p.Detail, "ended") {
			t.Errorf("the refusal does not say the game ended: %q", p.Detail)
		}
		wantProblem(t, s.Do(t, http.MethodPost, "/v1/join/seat", map[string]any{"code": code, "seat": 0}), http.StatusNotFound, "not_found")
		wantProblem(t, s.Do(t, http.MethodPost, tb.path("/join-code"), nil, cred(tb.host)), http.StatusConflict, "conflict")
	})
}

func equalSeats(a, b []joinSeatJSON) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestJoinCodeGuessing(t *testing.T) {
	s := newServer(t)
	tb := newTable(t, s, "physical", 2, "")
	code := tb.joinCode(t)

	// A typo is forgiven: right codes spend nothing.
	for range 20 {
		wantStatus(t, s.Do(t, http.MethodPost, "/v1/join", map[string]any{"code": code}), http.StatusOK)
	}
	// Wrong codes: ten, then the address must wait, even with the right one.
	wrong := []string{"AAAAAA", "BBBBBB", "CCCCCC", "DDDDDD", "EEEEEE", "FFFFFF", "GGGGGG", "HHHHHH", "JJJJJJ", "KKKKKK"}
	for _, w := range wrong {
		if w == code {
			continue
		}
		wantProblem(t, s.Do(t, http.MethodPost, "/v1/join", map[string]any{"code": w}), http.StatusNotFound, "not_found")
	}
	if code == "AAAAAA" || code == "BBBBBB" { // one of the wrong ones was right: one more wrong
		wantProblem(t, s.Do(t, http.MethodPost, "/v1/join", map[string]any{"code": "MMMMMM"}), http.StatusNotFound, "not_found")
	}
	for _, body := range []map[string]any{{"code": "NNNNNN"}, {"code": code}, {"code": code, "seat": 0}} {
		path := "/v1/join"
		if _, ok := body["seat"]; ok {
			path = "/v1/join/seat"
		}
		r := s.Do(t, http.MethodPost, path, body)
		p := wantProblem(t, r, http.StatusTooManyRequests, "rate_limited")
		if r.Header.Get("Retry-After") == "" || !strings.Contains(p.Detail, "join codes") {
			t.Errorf("429 without Retry-After or reason: %v %q", r.Header, p.Detail)
		}
	}
	// Other routes of the same address are not held up.
	tb.get(t, tb.host)
}

func TestReissueSeat(t *testing.T) {
	s := newServer(t)
	tb := newTable(t, s, "digital", 2, "reissue-seed")
	lost := tb.seats[0]
	st := openStream(t, s, tb.path("/events"), "Authorization", "Bearer "+lost)
	if ev, _ := st.next(t); ev.Type != "snapshot" {
		t.Fatalf("first event %s", ev.Type)
	}

	wantProblem(t, s.Do(t, http.MethodPost, tb.path("/seats/0/credential"), nil, cred(tb.seats[1])), http.StatusForbidden, "forbidden")
	wantProblem(t, s.Do(t, http.MethodPost, tb.path("/seats/0/credential"), nil), http.StatusUnauthorized, "unauthorized")
	wantProblem(t, s.Do(t, http.MethodPost, tb.path("/seats/7/credential"), nil, cred(tb.host)), http.StatusBadRequest, "invalid")

	r := s.Do(t, http.MethodPost, tb.path("/seats/0/credential"), nil, cred(tb.host))
	wantStatus(t, r, http.StatusOK)
	c := decode[seatCredJSON](t, r.Body)
	if c.Seat != 0 || c.GameID != tb.id || c.Credential == "" || c.Credential == lost {
		t.Fatalf("issued %s", r.Body)
	}

	t.Run("the old credential is refused at once", func(t *testing.T) {
		wantProblem(t, s.Do(t, http.MethodGet, tb.path("/legal-moves"), nil, cred(lost)), http.StatusUnauthorized, "unauthorized")
		wantProblem(t, s.Do(t, http.MethodGet, tb.path(""), nil, cred(lost)), http.StatusUnauthorized, "unauthorized")
	})

	t.Run("its open stream is told and ends", func(t *testing.T) {
		var got []string
		for {
			ev, ok := st.next(t)
			if !ok {
				break
			}
			got = append(got, ev.Type)
		}
		if err := <-st.err; !errors.Is(err, io.EOF) {
			t.Errorf("the stream ended with %v", err)
		}
		if len(got) != 1 || got[0] != "credential_revoked" {
			t.Fatalf("events after the re-issue: %v", got)
		}
		wantProblem(t, s.Do(t, http.MethodGet, tb.path("/events"), nil, cred(lost)), http.StatusUnauthorized, "unauthorized")
	})

	t.Run("the new credential plays the seat, and the seat is no longer free", func(t *testing.T) {
		l := s.Do(t, http.MethodGet, tb.path("/legal-moves"), nil, cred(c.Credential))
		wantStatus(t, l, http.StatusOK)
		code := tb.joinCode(t)
		j := decode[joinTableJSON](t, s.Do(t, http.MethodPost, "/v1/join", map[string]any{"code": code}).Body)
		if !j.Seats[0].Taken {
			t.Fatalf("seats %+v", j.Seats)
		}
	})

	t.Run("the other seat's stream goes on", func(t *testing.T) {
		other := openStream(t, s, tb.path("/events"), "Authorization", "Bearer "+tb.seats[1])
		if ev, _ := other.next(t); ev.Type != "snapshot" {
			t.Fatalf("first event %s", ev.Type)
		}
		wantStatus(t, s.Do(t, http.MethodPost, tb.path("/seats/0/credential"), nil, cred(tb.host)), http.StatusOK)
		tb.seats[0] = c.Credential // stale now; the host plays on
		g, _ := tb.get(t, tb.host)
		_, m := tb.nextMove(t, g.State, catalog(t, s), true)
		tb.play(t, tb.host, m)
		if ev, _ := other.next(t); ev.Type != "move" {
			t.Fatalf("seat 1's stream: %s", ev.Type)
		}
	})
}

type nextGameJSON struct {
	Game       json.RawMessage `json:"game"`
	Host       bool            `json:"host"`
	Seat       *int            `json:"seat"`
	Credential string          `json:"credential"`
}

type nextHeadJSON struct {
	ID      string         `json:"id"`
	Ruleset string         `json:"ruleset"`
	Mode    string         `json:"mode"`
	Version int64          `json:"version"`
	Options map[string]any `json:"options"`
	State   struct {
		Players []struct {
			Name string `json:"name"`
		} `json:"players"`
	} `json:"state"`
}

// playAgain asks POST /next with a credential and wants status.
func (tb *table) playAgain(t *testing.T, credential string, status int) (nextGameJSON, nextHeadJSON) {
	t.Helper()
	r := tb.s.Do(t, http.MethodPost, tb.path("/next"), nil, cred(credential))
	wantStatus(t, r, status)
	n := decode[nextGameJSON](t, r.Body)
	return n, decode[nextHeadJSON](t, n.Game)
}

func TestPlayAgain(t *testing.T) {
	s := newServer(t)

	t.Run("silver-and-gold: the same players one seat on, every phone told, each seat its own credential", func(t *testing.T) {
		tb := newTable(t, s, "digital", 2, "again-seed")
		wantProblem(t, s.Do(t, http.MethodPost, tb.path("/next"), nil, cred(tb.host)), http.StatusConflict, "conflict")
		streams := []*stream{
			openStream(t, s, tb.path("/events?next_game=true"), "Authorization", "Bearer "+tb.seats[0]),
			openStream(t, s, tb.path("/events?next_game=true"), "Authorization", "Bearer "+tb.seats[1]),
		}
		tb.playToEnd(t, true, nil)
		wantProblem(t, s.Do(t, http.MethodPost, tb.path("/next"), nil, cred(tb.seats[0])), http.StatusNotFound, "not_found")

		r := s.Do(t, http.MethodPost, tb.path("/next"), nil, cred(tb.host))
		wantStatus(t, r, http.StatusCreated)
		host := decode[nextGameJSON](t, r.Body)
		head := decode[nextHeadJSON](t, host.Game)
		if r.Header.Get("Location") != "/v1/games/"+head.ID || !host.Host || host.Seat != nil || host.Credential == "" {
			t.Fatalf("play again: %v %s", r.Header, r.Body)
		}
		if head.ID == tb.id || head.Ruleset != "silver-and-gold" || head.Mode != "digital" || head.Version != 0 ||
			len(head.State.Players) != 2 || head.State.Players[0].Name != "Ben" || head.State.Players[1].Name != "Ann" {
			t.Fatalf("next game %s", host.Game)
		}
		again, againHead := tb.playAgain(t, tb.host, http.StatusOK)
		if againHead.ID != head.ID || again.Credential != host.Credential {
			t.Fatalf("asked again: game %s credential changed %v", againHead.ID, again.Credential != host.Credential)
		}
		wantStatus(t, s.Do(t, http.MethodGet, "/v1/games/"+head.ID+"/legal-moves?seat=0", nil, cred(host.Credential)), http.StatusOK)

		for i, st := range streams {
			var last client.Event
			for {
				ev, ok := st.next(t)
				if !ok {
					break
				}
				last = ev
			}
			if last.Type != "next_game" || string(last.Data) != `{"game_id":"`+head.ID+`"}` {
				t.Fatalf("seat %d's stream ended with %s %s", i, last.Type, last.Data)
			}
		}

		creds := map[string]int{}
		for old := range 2 {
			n, h := tb.playAgain(t, tb.seats[old], http.StatusOK)
			want := (old + 1) % 2 // Ann (0) sits at 1 now, Ben (1) at 0
			if n.Host || n.Seat == nil || *n.Seat != want || h.ID != head.ID || n.Credential == "" {
				t.Fatalf("seat %d: %+v", old, n)
			}
			if n.Credential == host.Credential || strings.Contains(string(n.Game), host.Credential) {
				t.Fatalf("seat %d learnt the host's credential", old)
			}
			for c := range creds {
				if strings.Contains(string(n.Game), c) {
					t.Fatalf("seat %d learnt another seat's credential", old)
				}
			}
			creds[n.Credential] = want
			// It acts for its own seat and no other.
			wantStatus(t, s.Do(t, http.MethodGet, "/v1/games/"+head.ID+"/legal-moves", nil, cred(n.Credential)), http.StatusOK)
			other := "1"
			if want == 1 {
				other = "0"
			}
			wantProblem(t, s.Do(t, http.MethodGet, "/v1/games/"+head.ID+"/legal-moves?seat="+other, nil, cred(n.Credential)), http.StatusForbidden, "forbidden")
			again, _ := tb.playAgain(t, tb.seats[old], http.StatusOK)
			if again.Credential != n.Credential {
				t.Errorf("seat %d asked again and got another credential", old)
			}
		}
		if len(creds) != 2 {
			t.Fatalf("the seats share a credential")
		}

		// A stream opened after the next game began is told at once.
		late := openStream(t, s, tb.path("/events?next_game=true"))
		var types []string
		for {
			ev, ok := late.next(t)
			if !ok {
				break
			}
			types = append(types, ev.Type)
		}
		if types[len(types)-1] != "next_game" {
			t.Errorf("a late stream: %v", types)
		}
	})

	t.Run("colorful-treasure: same seats, same options, the next start player", func(t *testing.T) {
		opts := map[string]any{"variant": "junior", "start_player": 2}
		tb := newCTTable(t, s, "digital", 3, "ct-again", opts)
		ctPlayToEnd(t, tb, rand.New(rand.NewPCG(1, 2)), true, nil)
		_, head := tb.playAgain(t, tb.host, http.StatusCreated)
		if head.Ruleset != ct.RulesetName || head.Options["variant"] != "junior" || head.Options["start_player"] != float64(0) {
			t.Fatalf("next game options %v", head.Options)
		}
		for i, name := range []string{"Ann", "Ben", "Cat"} {
			if head.State.Players[i].Name != name {
				t.Fatalf("players %+v", head.State.Players)
			}
		}
		n, _ := tb.playAgain(t, tb.seats[1], http.StatusOK)
		if *n.Seat != 1 {
			t.Fatalf("Ben sits at %d", *n.Seat)
		}
	})
}

// TestSharedReissueSeat: on two servers over one PostgreSQL database, a
// seat issued again on A is refused on B at once (B had used and cached it),
// and B's stream of the old credential is told within a heartbeat.
func TestSharedReissueSeat(t *testing.T) {
	srv := startShared(t, 2, sharedOptions{heartbeat: 200 * time.Millisecond})
	a, b := srv[0], srv[1]
	p, _ := newKeeps(t, a)
	old := p.seats[0]
	wantStatus(t, b.Do(t, http.MethodGet, "/v1/games/"+p.id+"/legal-moves", nil, cred(old)), http.StatusOK)
	st := openStream(t, b.server, "/v1/games/"+p.id+"/events", "Authorization", "Bearer "+old)
	if ev, _ := st.next(t); ev.Type != "snapshot" {
		t.Fatalf("first event %s", ev.Type)
	}
	r := a.Do(t, http.MethodPost, "/v1/games/"+p.id+"/seats/0/credential", nil, cred(p.host))
	wantStatus(t, r, http.StatusOK)
	fresh := decode[seatCredJSON](t, r.Body).Credential
	wantProblem(t, b.Do(t, http.MethodGet, "/v1/games/"+p.id+"/legal-moves", nil, cred(old)), http.StatusUnauthorized, "unauthorized")
	wantStatus(t, b.Do(t, http.MethodGet, "/v1/games/"+p.id+"/legal-moves", nil, cred(fresh)), http.StatusOK)
	for {
		ev, ok := st.next(t) // fails after 10 s without an event
		if !ok {
			t.Fatal("the stream ended without credential_revoked")
		}
		if ev.Type == "credential_revoked" {
			break
		}
	}
}
