package table_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api/webtest"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"

	"github.com/treasury-games/treasury/api/apitest"
)

// TestWebAppSeatLinkWhileStartPageLoads opens a seat's link while the start
// page still waits for the list of games (a slow network): the game screen
// stays when the list arrives, and the start page does not draw itself over
// it (it did: the browser tests found it).
func TestWebAppSeatLinkWhileStartPageLoads(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 90*time.Second)
	r := s.Do(t, http.MethodPost, "/v1/games", map[string]any{"ruleset": "lucky-treasure-hunter", "mode": "digital",
		"players": []map[string]string{{"name": "Ann"}, {"name": "Bob"}}})
	var created struct {
		Game struct {
			ID string `json:"id"`
		} `json:"game"`
		Credentials struct {
			Seats []string `json:"seats"`
		} `json:"credentials"`
	}
	if err := json.Unmarshal(r.Body, &created); err != nil || created.Game.ID == "" {
		t.Fatalf("create: %v %s", err, r.Body)
	}

	// The list of games is held back until released.
	var (
		mu      sync.Mutex
		held    []fetch.RequestID
		release bool
	)
	p := b.Open("ann", s.HTTP.URL+"/", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if err := chromedp.Listen(ctx, func(ev any) {
			e, ok := ev.(*fetch.EventRequestPaused)
			if !ok {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if release {
				go chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: e.RequestID})
				return
			}
			held = append(held, e.RequestID)
		}); err != nil {
			return err
		}
		_, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/v1/rulesets"}}})
		return err
	}))
	b.WaitFor(p, `!!document.querySelector('main p[role=status]')`, 10*time.Second) // "loading"
	link := fmt.Sprintf("#/game/%s/seat/%s", url.PathEscape(created.Game.ID), url.PathEscape(created.Credentials.Seats[0]))
	webtest.Eval[chromedp.Void](b, p, `location.hash = `+fmt.Sprintf("%q", link)+`; 0`)
	game := `document.querySelector('.live')?.dataset.state === 'live' && !document.body.dataset.loading && !!document.querySelector('section.action')`
	b.WaitFor(p, game, 15*time.Second)

	mu.Lock()
	release = true
	ids := held
	mu.Unlock()
	if len(ids) == 0 {
		t.Fatal("the start page's list of games was not held")
	}
	for _, id := range ids {
		if _, err := chromedp.Call(p.Ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id}); err != nil {
			t.Fatal(err)
		}
	}
	// Once the list has arrived and the page has drawn a frame after it,
	// the game is what the player sees.
	b.WaitFor(p, `performance.getEntriesByType('resource').some((e) => e.name.endsWith('/v1/rulesets'))`, 10*time.Second)
	webtest.Eval[chromedp.Void](b, p, `new Promise((r) => requestAnimationFrame(() => setTimeout(() => r(0), 0)))`)
	if home := webtest.Eval[bool](b, p, `!!document.querySelector('#name-1')`); home {
		t.Errorf("the start page drew itself over the game:\n%s", b.Text(p))
	}
	if !webtest.Eval[bool](b, p, `!!document.querySelector('.live') && !!document.querySelector('section.action')`) {
		t.Errorf("the game screen is gone (%s):\n%s", webtest.Eval[string](b, p, `JSON.stringify({live: document.querySelector('.live')?.dataset.state, loading: document.body.dataset.loading, action: !!document.querySelector('section.action'), hash: location.hash})`), b.Text(p))
	}
}
