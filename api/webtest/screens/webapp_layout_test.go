package screens_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api/webtest"

	"github.com/chromedp/chromedp"

	"github.com/treasury-games/treasury/api/apitest"
)

// layoutWidths are the widths every screen must look finished at: a phone,
// a tablet, a laptop.
var layoutWidths = []int64{360, 768, 1280}

// TestWebAppLayouts loads every screen of the app (the start page, the
// score sheet of each game, and each game's host, seat and table screens in
// both modes) at a phone's, a tablet's and a laptop's width: nothing
// scrolls sideways, and axe finds no serious or critical violation. Where a
// player chooses among many cards (keeping 2 in Silver & Gold), the
// confirmation is in view once a card is tapped. A screen that fails is
// kept as screenshots in $TREASURY_ARTIFACTS (or a kept temporary
// directory).
func TestWebAppLayouts(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 150*time.Second)
	type screen struct{ name, hash, ready string }
	screens := []screen{
		{"home", "#/", `!!document.querySelector('#name-1')`},
		{"sheet-silver-and-gold", "#/sheet/silver-and-gold", `!!document.querySelector('button[data-sheet-card]')`},
		{"sheet-lucky-treasure-hunter", "#/sheet/lucky-treasure-hunter", `!!document.querySelector('#p0-ruby')`},
		{"sheet-colorful-treasure", "#/sheet/colorful-treasure", `!!document.querySelector('#p0-petra-red')`},
	}
	live := `document.querySelector('.live')?.dataset.state === 'live' && !document.body.dataset.loading && !!document.querySelector('main h1')`
	for _, rs := range []string{"silver-and-gold", "lucky-treasure-hunter", "colorful-treasure"} {
		for _, mode := range []string{"digital", "physical"} {
			r := s.Do(t, http.MethodPost, "/v1/games", map[string]any{"ruleset": rs, "mode": mode, "players": []map[string]string{{"name": "Ann"}, {"name": "Bob"}}})
			var created struct {
				Game struct {
					ID string `json:"id"`
				} `json:"game"`
				Credentials struct {
					Host  string   `json:"host"`
					Seats []string `json:"seats"`
				} `json:"credentials"`
			}
			if err := json.Unmarshal(r.Body, &created); err != nil || created.Game.ID == "" {
				t.Fatalf("create %s %s: %v %s", rs, mode, err, r.Body)
			}
			id := url.PathEscape(created.Game.ID)
			name := rs + "-" + mode
			screens = append(screens,
				screen{name + "-host", "#/game/" + id + "/host/" + url.PathEscape(created.Credentials.Host), live},
				screen{name + "-seat", "#/game/" + id + "/seat/" + url.PathEscape(created.Credentials.Seats[0]), live},
				screen{name + "-table", "#/game/" + id, live},
				screen{name + "-tv", "#/game/" + id + "/tv", live})
		}
	}
	p := b.Open("layout", s.HTTP.URL+"/")
	for _, sc := range screens {
		b.Run(p, chromedp.EmulateViewport(layoutWidths[0], 800))
		webtest.Eval[chromedp.Void](b, p, `location.hash = `+fmt.Sprintf("%q", sc.hash)+`; 0`)
		b.WaitFor(p, sc.ready, 15*time.Second)
		if strings.HasSuffix(sc.name, "-seat") {
			// Every game tells how a turn goes, in a few steps.
			if n := webtest.Eval[int](b, p, `document.querySelectorAll('details.howto li').length`); n < 3 {
				t.Errorf("%s: How a turn goes has %d steps", sc.name, n)
			}
		}
		if strings.HasSuffix(sc.name, "-tv") {
			// The table's big screen: the public view, large, without the
			// log and the links around it.
			if got := webtest.Eval[string](b, p, `[document.body.classList.contains('tv'), !!document.querySelector('.log, .crumbs')?.checkVisibility(), parseFloat(getComputedStyle(document.querySelector('main h1')).fontSize) >= 32].join()`); got != "true,false,true" {
				t.Errorf("%s: (tv, log or links shown, large heading) = %s", sc.name, got)
			}
		}
		for _, w := range layoutWidths {
			b.Run(p, chromedp.EmulateViewport(w, 800))
			b.WaitFor(p, fmt.Sprintf(`innerWidth === %d && !document.body.dataset.loading`, w), 5*time.Second)
			failed := b.T.Failed()
			if got := webtest.Eval[[]int](b, p, `[document.documentElement.scrollWidth, innerWidth]`); got[0] > got[1] {
				wide := webtest.Eval[[]string](b, p, `[...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > innerWidth + 1).slice(0, 5).map((e) => e.tagName + '.' + e.className)`)
				t.Errorf("%s at %d px: the page is %d px wide (%v)", sc.name, w, got[0], wide)
			}
			if w != 768 {
				b.Axe(p)
			}
			if sc.name == "silver-and-gold-digital-seat" && w == 360 {
				keepInView(b, p)
			}
			if w == 360 {
				webtest.DocShot(b, p, sc.name)
			}
			if !failed && b.T.Failed() {
				b.Screenshots(fmt.Sprintf("%s-%d", sc.name, w))
			}
		}
	}
}

// keepInView taps a card to keep, scrolled to as a person would, and checks
// that the confirmation is then in view without scrolling to the page's foot.
func keepInView(b *webtest.Browser, p *webtest.Page) {
	b.T.Helper()
	if got := webtest.Eval[string](b, p, `(() => {
		const cards = [...document.querySelectorAll('button[data-keep]')];
		if (cards.length < 3) return 'no cards to keep: ' + document.body.innerText.slice(0, 300);
		const page = document.documentElement.scrollHeight;
		cards[2].scrollIntoView({block: 'start'});
		cards[2].click();
		const go = document.querySelector('button[data-action=keep]');
		const r = go.getBoundingClientRect();
		if (r.top < 0 || r.bottom > innerHeight) return 'the page is ' + page + ' px tall and Keep is at ' + Math.round(r.top) + ' px in a ' + innerHeight + ' px screen';
		return 'ok';
	})()`); got != "ok" {
		b.T.Errorf("keeping cards at 360 px: %s", got)
	}
}

// TestWebAppOptionLabels: the start page names a game's options in players'
// words, not the API's descriptions, and shows an option only where it
// applies (Colorful Treasure's action tokens in the advanced variant).
func TestWebAppOptionLabels(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 30*time.Second)
	p := b.Open("home", s.HTTP.URL+"/")
	b.WaitFor(p, `!!document.querySelector('#ruleset')`, 10*time.Second)
	shown := func() string {
		return webtest.Eval[string](b, p, `[...document.querySelectorAll('form .field')].filter((f) => f.checkVisibility() && f.querySelector('[name^=opt-]')).map((f) => f.querySelector('label').innerText).join(' | ')`)
	}
	webtest.Eval[chromedp.Void](b, p, `(() => { const s = document.querySelector('#ruleset'); s.value = 'colorful-treasure'; s.dispatchEvent(new Event('change')); })()`)
	b.WaitFor(p, `!!document.querySelector('#opt-variant')`, 5*time.Second)
	if got := shown(); got != "Variant | Who plays first" {
		t.Errorf("a standard game's options: %q", got)
	}
	webtest.Eval[chromedp.Void](b, p, `(() => { const s = document.querySelector('#opt-variant'); s.value = 'advanced'; s.dispatchEvent(new Event('change', {bubbles: true})); })()`)
	got := shown()
	if !strings.Contains(got, "Action token 1: the side set out") || strings.Contains(got, "ignored in other variants") || strings.Count(got, "Action token") != 5 {
		t.Errorf("an advanced game's options: %q", got)
	}
	if c := webtest.Eval[string](b, p, `document.querySelector('#opt-token_1 option[value=b]').innerText`); c != "B: peek at up to 3 cards of one wonder, once" {
		t.Errorf("token 1's side b reads %q", c)
	}
	b.Axe(p)
}

// TestWebAppOneDeviceManyCredentials: a device that opens a seat's screen
// and then the host's (the table's shared device, say) shows each what its
// own credential may see: the host no hand, the seat its own. The server
// names a game's versions alike for every viewer (ETag "0"), so a browser
// that kept one viewer's answer could take it for another's (If-None-Match,
// 304) unless the app's reads bypass the browser's cache.
func TestWebAppOneDeviceManyCredentials(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 30*time.Second)
	r := s.Do(t, http.MethodPost, "/v1/games", map[string]any{"ruleset": "lucky-treasure-hunter", "mode": "digital", "players": []map[string]string{{"name": "Ann"}, {"name": "Bob"}}})
	var created struct {
		Game struct {
			ID string `json:"id"`
		} `json:"game"`
		Credentials struct {
			Host  string   `json:"host"`
			Seats []string `json:"seats"`
		} `json:"credentials"`
	}
	if err := json.Unmarshal(r.Body, &created); err != nil {
		t.Fatal(err)
	}
	p := b.Open("device", s.HTTP.URL+"/")
	show := func(role, cred string) int {
		webtest.Eval[chromedp.Void](b, p, `location.hash = '#/game/`+created.Game.ID+`/`+role+`/`+cred+`'; 0`)
		b.WaitFor(p, `document.querySelector('.live')?.dataset.state === 'live' && !document.body.dataset.loading && !!document.querySelector('.boards')`, 10*time.Second)
		return webtest.Eval[int](b, p, `document.querySelectorAll('[data-testid=hand]').length`)
	}
	if n := show("seat", created.Credentials.Seats[0]); n != 1 {
		t.Errorf("Ann's screen shows %d hands, want her own", n)
	}
	if n := show("host", created.Credentials.Host); n != 0 {
		t.Errorf("the host's screen, opened after Ann's on the same device, shows %d hands", n)
	}
	if n := show("seat", created.Credentials.Seats[1]); n != 1 {
		t.Errorf("Bob's screen, opened after the host's on the same device, shows %d hands, want his own", n)
	}
}
