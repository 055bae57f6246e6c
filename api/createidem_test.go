package api_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/treasury-games/treasury/api/models"
	"github.com/treasury-games/treasury/domain"
)

// createKey is an Idempotency-Key for a creation: 128 random bits and more,
// as the spec asks, told apart by its tail.
func createKey(tail string) opt {
	return header("Idempotency-Key", "9c1d0f3e-5b7a-4e21-8f6d-"+tail)
}

// creation is what a creation answered: the game's id and the credentials.
type creation struct {
	id, host string
	seats    []string
	replayed string
	game     []byte
}

// wantCreated checks that r is a 201 with a game and credentials.
func wantCreated(t *testing.T, r resp) creation {
	t.Helper()
	wantStatus(t, r, http.StatusCreated)
	c := decode[models.Created](t, r.Body)
	if r.Header.Get("Location") != "/v1/games/"+c.Game.Id {
		t.Errorf("Location %q for game %s", r.Header.Get("Location"), c.Game.Id)
	}
	game, err := jsonMarshal(c.Game)
	if err != nil {
		t.Fatal(err)
	}
	return creation{id: c.Game.Id, host: c.Credentials.Host, seats: c.Credentials.Seats, replayed: r.Header.Get("Idempotency-Replayed"), game: game}
}

// sameCreated checks that a retry got the first answer's game and credentials.
func sameCreated(t *testing.T, retry, first creation) {
	t.Helper()
	if retry.id != first.id || retry.host != first.host || strings.Join(retry.seats, ",") != strings.Join(first.seats, ",") {
		t.Errorf("the retry got game %s (host %s, seats %v), the first request game %s (host %s, seats %v)",
			retry.id, retry.host, retry.seats, first.id, first.host, first.seats)
	}
}

// wantReplay checks that r answers a retry of the creation first answered:
// the same game and credentials, replayed.
func wantReplay(t *testing.T, r resp, first creation) creation {
	t.Helper()
	c := wantCreated(t, r)
	sameCreated(t, c, first)
	if c.replayed != "true" {
		t.Errorf("Idempotency-Replayed: %q on a retry", c.replayed)
	}
	return c
}

// storedGames counts the games a store holds.
func storedGames(t *testing.T, count func(context.Context) ([]domain.GameCount, error)) int {
	t.Helper()
	cs, err := count(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cs {
		n += c.Games
	}
	return n
}

// createAtOnce sends one creation to each of servers at once (a server may
// be named several times) and checks that they made one game between them,
// each answer with its credentials, and that one answer only was not a
// replay.
func createAtOnce(t *testing.T, servers []*server, body string, key opt, games func() int) {
	t.Helper()
	before := games()
	out := make([]resp, len(servers))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, s := range servers {
		wg.Go(func() {
			<-start
			out[i] = s.Do(t, http.MethodPost, "/v1/games", body, key)
		})
	}
	close(start)
	wg.Wait()
	firsts := 0
	c0 := wantCreated(t, out[0])
	for _, r := range out {
		c := wantCreated(t, r)
		sameCreated(t, c, c0)
		if c.replayed == "false" {
			firsts++
		}
	}
	if firsts != 1 {
		t.Errorf("%d of %d answers were not replays, want 1", firsts, len(out))
	}
	if got := games() - before; got != 1 {
		t.Errorf("%d requests with one key made %d games", len(out), got)
	}
}

// TestCreateIdempotency: a creation sent again with its Idempotency-Key (its
// answer lost) gets the first one's game and credentials and creates no
// other game, after a restart too; the key with another body is refused.
func TestCreateIdempotency(t *testing.T) {
	s := newServer(t)
	restart := func() { s.Stop(); s = startServer(t, s.Path) } // the server lives as long as the test
	games := func() int { return storedGames(t, s.Store.CountGames) }
	body := `{"ruleset":"silver-and-gold","mode":"physical","players":[{"name":"Ann"},{"name":"Ben"}]}`
	// The same request written otherwise (members in another order, spaces).
	again := `{ "players": [ {"name": "Ann"}, {"name": "Ben"} ], "mode": "physical", "ruleset": "silver-and-gold" }`

	key := createKey("000000000001")
	first := wantCreated(t, s.Do(t, http.MethodPost, "/v1/games", body, key))
	if first.replayed != "false" {
		t.Errorf("Idempotency-Replayed: %q on the first request", first.replayed)
	}

	t.Run("a retry gets the same game and credentials", func(t *testing.T) {
		wantReplay(t, s.Do(t, http.MethodPost, "/v1/games", again, key), first)
		if n := games(); n != 1 {
			t.Errorf("%d games stored after a creation and its retry", n)
		}
		// The credentials act: the host's gets the join code (the host's
		// only), a seat's its legal moves.
		wantStatus(t, s.Do(t, http.MethodPost, "/v1/games/"+first.id+"/join-code", nil, cred(first.host)), http.StatusOK)
		wantStatus(t, s.Do(t, http.MethodGet, "/v1/games/"+first.id+"/legal-moves", nil, cred(first.seats[1])), http.StatusOK)
	})

	t.Run("after a restart too", func(t *testing.T) {
		restart()
		wantReplay(t, s.Do(t, http.MethodPost, "/v1/games", body, key), first)
		if n := games(); n != 1 {
			t.Errorf("%d games stored", n)
		}
	})

	t.Run("the key with another body is refused", func(t *testing.T) {
		other := `{"ruleset":"silver-and-gold","mode":"physical","players":[{"name":"Ann"},{"name":"Cid"}]}`
		wantProblem(t, s.Do(t, http.MethodPost, "/v1/games", other, key), http.StatusUnprocessableEntity, "idempotency_key_reused")
		if n := games(); n != 1 {
			t.Errorf("%d games stored after a refused request", n)
		}
	})

	t.Run("requests sent at once with one key make one game", func(t *testing.T) {
		createAtOnce(t, []*server{s, s, s, s, s, s}, body, createKey("000000000002"), games)
	})

	t.Run("without a key every request makes a game", func(t *testing.T) {
		before := games()
		a := wantCreated(t, s.Do(t, http.MethodPost, "/v1/games", body))
		b := wantCreated(t, s.Do(t, http.MethodPost, "/v1/games", body))
		if a.id == b.id || a.host == b.host {
			t.Errorf("two requests without a key got game %s and %s", a.id, b.id)
		}
		if a.replayed != "false" || b.replayed != "false" {
			t.Errorf("Idempotency-Replayed: %q and %q without a key", a.replayed, b.replayed)
		}
		if got := games() - before; got != 2 {
			t.Errorf("two requests without a key made %d games", got)
		}
	})

	t.Run("a group's game sent again is the same game", func(t *testing.T) {
		g := newGroup(t, s, "Ann", "Ben")
		forGroup := map[string]any{"ruleset": "silver-and-gold", "mode": "physical", "players": players(2),
			"group": map[string]any{"id": g.id, "members": []string{g.members["Ann"], g.members["Ben"]}}}
		key := createKey("000000000004")
		a := wantCreated(t, s.Do(t, http.MethodPost, "/v1/games", forGroup, key, cred(g.cred)))
		wantReplay(t, s.Do(t, http.MethodPost, "/v1/games", forGroup, key, cred(g.cred)), a)
	})

	t.Run("a key too short to be random is refused", func(t *testing.T) {
		wantProblem(t, s.Do(t, http.MethodPost, "/v1/games", body, header("Idempotency-Key", "game-1")), http.StatusBadRequest, "validation_failed")
	})

	t.Run("a digital game's seed stays secret and the game's", func(t *testing.T) {
		seed := "a-secret-seed-for-the-retry"
		for i, digital := range []string{
			`{"ruleset":"silver-and-gold","mode":"digital","players":[{"name":"Ann"},{"name":"Ben"}]}`, // the server draws the seed
			`{"ruleset":"silver-and-gold","mode":"digital","seed":"` + seed + `","players":[{"name":"Ann"},{"name":"Ben"}]}`,
		} {
			key := createKey("00000000001" + strconv.Itoa(i))
			a := wantCreated(t, s.Do(t, http.MethodPost, "/v1/games", digital, key))
			b := wantReplay(t, s.Do(t, http.MethodPost, "/v1/games", digital, key), a)
			// The same deal and seed commitment: not a game dealt again.
			if string(b.game) != string(a.game) {
				t.Errorf("the retry's game\n%s\nthe first answer's\n%s", b.game, a.game)
			}
			for _, g := range [][]byte{a.game, b.game} {
				if strings.Contains(string(g), seed) {
					t.Errorf("an answer shows the seed: %s", g)
				}
			}
		}
	})
}

// TestSharedCreateIdempotency: on servers sharing one PostgreSQL database, a
// creation answered 503 because its commit's outcome was unknown (it was
// made) and sent again to another server gets the game it made; one key
// sent to three servers at once makes one game.
func TestSharedCreateIdempotency(t *testing.T) {
	srv := startShared(t, 3, sharedOptions{})
	a, b, c := srv[0], srv[1], srv[2]
	games := func() int { return storedGames(t, a.store.CountGames) }
	body := `{"ruleset":"lucky-treasure-hunter","mode":"digital","players":[{"name":"Ann"},{"name":"Ben"},{"name":"Cid"}]}`

	t.Run("a 503 sent again to another server gets the game it made", func(t *testing.T) {
		key := createKey("000000000101")
		a.store.unsure.Store(true)
		wantProblem(t, a.Do(t, http.MethodPost, "/v1/games", body, key), http.StatusServiceUnavailable, "unavailable")
		a.store.unsure.Store(false)
		if n := games(); n != 1 {
			t.Fatalf("%d games stored after the 503, want the one its commit made", n)
		}
		first := wantCreated(t, b.Do(t, http.MethodPost, "/v1/games", body, key))
		if first.replayed != "true" {
			t.Errorf("Idempotency-Replayed: %q on the retry", first.replayed)
		}
		wantReplay(t, c.Do(t, http.MethodPost, "/v1/games", body, key), first)
		if n := games(); n != 1 {
			t.Errorf("%d games stored after a creation and two retries", n)
		}
		wantStatus(t, c.Do(t, http.MethodPost, "/v1/games/"+first.id+"/join-code", nil, cred(first.host)), http.StatusOK)
		wantStatus(t, a.Do(t, http.MethodGet, "/v1/games/"+first.id+"/legal-moves", nil, cred(first.seats[2])), http.StatusOK)
		// The same key with another body, on a third server.
		other := strings.Replace(body, "Cid", "Dee", 1)
		wantProblem(t, c.Do(t, http.MethodPost, "/v1/games", other, key), http.StatusUnprocessableEntity, "idempotency_key_reused")
	})

	t.Run("one key sent to three servers at once makes one game", func(t *testing.T) {
		for round := range 5 {
			createAtOnce(t, []*server{a.server, b.server, c.server}, body, createKey("00000000020"+strconv.Itoa(round)), games)
		}
	})
}
