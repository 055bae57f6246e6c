package screens_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api/apitest"
	"github.com/treasury-games/treasury/api/webtest"
)

// genericStep does what the generic screen offers its player, by clicks
// only: a part of the move being chosen until Send is enabled, then Send;
// otherwise one of the listed moves (in turn, so that a game does not
// repeat one choice). It says what it did as webtest.PlayBy counts it.
const genericStep = `(() => {
  const q = (s) => document.querySelector(s);
  if (document.body.dataset.busy || document.body.dataset.loading) return 'busy';
  if (q('[data-testid=final]')) return 'done';
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
// phone is offered the server's labels as buttons, sends its moves by
// clicking them, is never shown a problem, and ends on the final score the
// server gives.
func TestWebAppGeneric(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	r := s.Do(t, http.MethodPost, "/v1/games", map[string]any{"ruleset": "lucky-treasure-hunter", "mode": "digital", "seed": "generic-screen",
		"players": []map[string]string{{"name": "Ann"}, {"name": "Bob"}}})
	apitest.WantStatus(t, r, http.StatusCreated)
	created := apitest.Decode[struct {
		Game        struct{ ID string } `json:"game"`
		Credentials struct{ Seats []string }
	}](t, r.Body)
	b := webtest.NewBrowser(t, 120*time.Second)
	var pages []*webtest.Page
	for i, name := range []string{"ann", "bob"} {
		pages = append(pages, b.Open(name, s.HTTP.URL+"/?screen=generic#/game/"+created.Game.ID+"/seat/"+created.Credentials.Seats[i]))
	}
	for _, p := range pages {
		b.WaitFor(p, `!!document.querySelector('.generic[data-ruleset="lucky-treasure-hunter"] [data-testid=generic-state]')`, 10*time.Second)
		if webtest.Eval[bool](b, p, `!!document.querySelector('.lth')`) {
			t.Fatalf("%s: the game's own screen is drawn, not the generic one", p.Name)
		}
	}

	sent := map[string]int{}
	did := b.PlayBy(genericStep, pages, 90*time.Second, func(p *webtest.Page, did string) {
		if !strings.HasPrefix(did, "part ") {
			sent[p.Name]++
		}
	})
	t.Logf("moves sent by clicks: %v (%v)", sent, did)
	if sent["ann"] == 0 || sent["bob"] == 0 {
		t.Errorf("each seat should have moved: %v", sent)
	}
	// What the final score shows is the server's ranking.
	want := webtest.ScoreFromAPI(t, s, "/#/game/"+created.Game.ID+"/")
	for _, p := range pages {
		b.WaitFor(p, `!!document.querySelector('[data-testid=generic-score]') && !document.body.dataset.loading`, 10*time.Second)
		var got []string
		for _, r := range webtest.Eval[[]struct {
			Rank  int    `json:"rank"`
			Name  string `json:"name"`
			Total int    `json:"total"`
		}](b, p, `JSON.parse([...document.querySelectorAll('[data-testid=generic-score] dt')].find((dt) => dt.innerText === 'ranking').nextElementSibling.innerText)`) {
			got = append(got, fmt.Sprintf("%d. %s, %d", r.Rank, r.Name, r.Total))
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s's final score shows %q, the server's is %q", p.Name, got, want)
		}
		if shown := webtest.Eval[string](b, p, `document.querySelector('[data-testid=problem]').dataset.shown || ''`); shown != "" {
			t.Errorf("%s was shown a problem %s times", p.Name, shown)
		}
	}
	b.Axe(pages[0])
}
