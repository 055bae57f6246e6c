package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// genericStep does what the generic screen offers its player, by clicks
// only: a part of the move being chosen until Send is enabled, then Send;
// otherwise one of the listed moves (in turn, so that a game does not
// repeat one choice). It says what it did: "" for nothing, "busy" while
// the page waits for the server, "done" once it shows the final score.
const genericStep = `(() => {
  const q = (s) => document.querySelector(s);
  if (document.body.dataset.busy || document.body.dataset.loading) return 'busy';
  if (q('[data-testid=final]')) return 'done';
  const problem = q('[data-testid=problem]');
  if (problem && problem.innerText && problem.dataset.shown !== window.lastShown) {
    window.lastShown = problem.dataset.shown;
    (window.problems = window.problems || []).push(problem.innerText);
  }
  const send = q('[data-testid=generic-moves] button[data-action=send]');
  if (send) {
    if (!send.disabled) { send.click(); return 'send ' + q('[data-testid=generic-moves] p').innerText; }
    const part = q('[data-testid=generic-moves] button[data-part]');
    if (part) { part.click(); return 'part ' + part.innerText; }
    return '';
  }
  const moves = [...document.querySelectorAll('[data-testid=generic-moves] button[data-move]')];
  if (!moves.length) return '';
  window.turns = (window.turns || 0) + 1;
  const m = moves[window.turns % moves.length];
  m.click();
  return 'move ' + m.innerText;
})()`

// TestWebAppGeneric plays a whole game of Lucky Treasure Hunter (two seats,
// digital, a fixed seed) on the generic screen, the one a game without a
// screen of its own is played with, asked for by ?screen=generic: each
// phone is offered the server's labels as buttons, completes a move made of
// parts by clicking them, and ends on the final score the server gives.
func TestWebAppGeneric(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	r := s.do(t, http.MethodPost, "/v1/games", map[string]any{"ruleset": "lucky-treasure-hunter", "mode": "digital", "seed": "generic-screen",
		"players": []map[string]string{{"name": "Ann"}, {"name": "Bob"}}})
	var created struct {
		Game        struct{ ID string } `json:"game"`
		Credentials struct{ Seats []string }
	}
	if err := json.Unmarshal(r.Body, &created); err != nil || r.Status != http.StatusCreated || len(created.Credentials.Seats) != 2 {
		t.Fatalf("create: %d %v %s", r.Status, err, r.Body)
	}
	b := newBrowser(t, 120*time.Second)
	var pages []*page
	for i, name := range []string{"ann", "bob"} {
		pages = append(pages, b.open(name, s.http.URL+"/?screen=generic#/game/"+created.Game.ID+"/seat/"+created.Credentials.Seats[i]))
	}
	for _, p := range pages {
		b.waitFor(p, `!!document.querySelector('.generic[data-ruleset="lucky-treasure-hunter"] [data-testid=generic-state]')`, 10*time.Second)
		if eval[bool](b, p, `!!document.querySelector('.lth')`) {
			t.Fatalf("%s: the game's own screen is drawn, not the generic one", p.name)
		}
	}
	// The seat on turn is offered the server's labels; the other waits.
	b.waitFor(pages[0], `document.querySelectorAll('button[data-move]').length + document.querySelectorAll('[data-testid=generic-moves] p').length > 0`, 10*time.Second)

	sent := map[string]int{}
	parts := 0
	deadline := time.Now().Add(patient(90 * time.Second))
	idle := time.Now()
	for done := 0; done < len(pages); {
		done = 0
		acted := false
		for _, p := range pages {
			did := eval[string](b, p, genericStep)
			switch {
			case did == "done":
				done++
			case strings.HasPrefix(did, "part "):
				parts++
				acted = true
			case strings.HasPrefix(did, "move ") || strings.HasPrefix(did, "send "):
				acted = true
				sent[p.name]++
			}
			if did != "" {
				idle = time.Now()
			}
		}
		if done == len(pages) {
			break
		}
		if time.Now().After(deadline) || time.Since(idle) > patient(10*time.Second) {
			for _, p := range pages {
				t.Logf("%s shows:\n%s", p.name, b.text(p))
			}
			t.Fatalf("the game did not end on the generic screen (moves sent so far: %v)", sent)
		}
		if !acted {
			time.Sleep(25 * time.Millisecond)
		}
	}
	t.Logf("moves sent by clicks: %v, parts picked: %d", sent, parts)
	if sent["ann"] == 0 || sent["bob"] == 0 {
		t.Errorf("each seat should have moved: %v", sent)
	}
	// What the final score shows is the server's ranking.
	want := scoreFromAPI(t, s, "/#/game/"+created.Game.ID+"/")
	for _, p := range pages {
		b.waitFor(p, `!!document.querySelector('[data-testid=generic-score]') && !document.body.dataset.loading`, 10*time.Second)
		var got []string
		for _, r := range eval[[]struct {
			Rank  int    `json:"rank"`
			Name  string `json:"name"`
			Total int    `json:"total"`
		}](b, p, `JSON.parse([...document.querySelectorAll('[data-testid=generic-score] dt')].find((dt) => dt.innerText === 'ranking').nextElementSibling.innerText)`) {
			got = append(got, fmt.Sprintf("%d. %s, %d", r.Rank, r.Name, r.Total))
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s's final score shows %q, the server's is %q", p.name, got, want)
		}
		if problems := eval[[]string](b, p, `window.problems || []`); len(problems) > 0 {
			t.Errorf("%s was shown %q", p.name, problems)
		}
	}
	b.axe(pages[0])
}
