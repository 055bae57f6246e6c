package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/storage/postgres/pgtest"
)

// TestServeTwoOnPostgres runs two treasury serve on one database: a move
// made on the first reaches an event stream on the second within seconds,
// long before the stream's first heartbeat (15 s) would read the log, so
// through the database's notices that serve listens to.
func TestServeTwoOnPostgres(t *testing.T) {
	url := pgtest.Database(t)
	a, stopA := started(t, []string{"serve", "--address", "127.0.0.1:0", "--database", url}, env())
	b, stopB := started(t, []string{"serve", "--address", "127.0.0.1:0", "--database", url}, env())
	defer stopA()
	defer stopB()

	res, err := http.Post(a+"/v1/games", "application/json", strings.NewReader(`{"ruleset":"silver-and-gold","mode":"digital","players":[{"name":"Ann"},{"name":"Ben"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var created struct {
		Game struct {
			ID    string `json:"id"`
			State struct {
				Players []struct {
					Dealt []string `json:"dealt"`
				} `json:"players"`
			} `json:"state"`
		} `json:"game"`
		Credentials struct {
			Seats []string `json:"seats"`
		} `json:"credentials"`
	}
	err = json.NewDecoder(res.Body).Decode(&created)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %v", res.StatusCode, err)
	}
	id := created.Game.ID

	stream, err := http.Get(b + "/v1/games/" + id + "/events")
	if err != nil || stream.StatusCode != http.StatusOK {
		t.Fatalf("stream on B: %v %v", stream, err)
	}
	defer stream.Body.Close()
	ids := make(chan string, 10)
	go func() {
		sc := bufio.NewScanner(stream.Body)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
				ids <- v
			}
		}
		close(ids)
	}()
	if got := <-ids; got != "0" {
		t.Fatalf("the stream starts at version %s", got)
	}

	dealt := created.Game.State.Players[0].Dealt
	req, _ := http.NewRequest(http.MethodPost, a+"/v1/games/"+id+"/moves",
		strings.NewReader(fmt.Sprintf(`{"type":"keep","seat":0,"cards":[%q,%q]}`, dealt[0], dealt[1])))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+created.Credentials.Seats[0])
	res, err = http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("move on A: %v %v", res, err)
	}
	res.Body.Close()
	select {
	case got := <-ids:
		if got != "1" {
			t.Errorf("the stream on B told version %s, want 1", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the stream on B heard nothing of the move on A within 5 s")
	}
}
