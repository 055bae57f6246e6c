package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
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
	s := newServer(t)
	b := newBrowser(t, 150*time.Second)
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
			r := s.do(t, http.MethodPost, "/v1/games", map[string]any{"ruleset": rs, "mode": mode, "players": []map[string]string{{"name": "Ann"}, {"name": "Bob"}}})
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
				screen{name + "-table", "#/game/" + id, live})
		}
	}
	p := b.open("layout", s.http.URL+"/")
	for _, sc := range screens {
		b.run(p, chromedp.EmulateViewport(layoutWidths[0], 800))
		eval[chromedp.Void](b, p, `location.hash = `+fmt.Sprintf("%q", sc.hash)+`; 0`)
		b.waitFor(p, sc.ready, 15*time.Second)
		for _, w := range layoutWidths {
			b.run(p, chromedp.EmulateViewport(w, 800))
			b.waitFor(p, fmt.Sprintf(`innerWidth === %d && !document.body.dataset.loading`, w), 5*time.Second)
			failed := b.t.Failed()
			if got := eval[[]int](b, p, `[document.documentElement.scrollWidth, innerWidth]`); got[0] > got[1] {
				wide := eval[[]string](b, p, `[...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > innerWidth + 1).slice(0, 5).map((e) => e.tagName + '.' + e.className)`)
				t.Errorf("%s at %d px: the page is %d px wide (%v)", sc.name, w, got[0], wide)
			}
			if w != 768 {
				b.axe(p)
			}
			if sc.name == "silver-and-gold-digital-seat" && w == 360 {
				keepInView(b, p)
			}
			if w == 360 {
				docShot(b, p, sc.name)
			}
			if !failed && b.t.Failed() {
				b.screenshots(fmt.Sprintf("%s-%d", sc.name, w))
			}
		}
	}
}

// keepInView taps a card to keep, scrolled to as a person would, and checks
// that the confirmation is then in view without scrolling to the page's foot.
func keepInView(b *browser, p *page) {
	b.t.Helper()
	if got := eval[string](b, p, `(() => {
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
		b.t.Errorf("keeping cards at 360 px: %s", got)
	}
}

// docShot keeps what a phone shows of p, scrolled to the screen's action
// (or its grid), as $TREASURY_APP_SHOTS/<name>.png: the README's pictures
// of the app (docs/app). Without the variable it does nothing.
func docShot(b *browser, p *page, name string) {
	b.t.Helper()
	dir := os.Getenv("TREASURY_APP_SHOTS")
	if dir == "" {
		return
	}
	eval[chromedp.Void](b, p, `(() => {
		const at = document.querySelector('[data-shot]') || document.querySelector('section.action') || document.querySelector('.ct-scroll');
		if (at) at.scrollIntoView({block: 'start'}); else scrollTo(0, 0);
	})()`)
	png, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
	}
	if err != nil {
		b.t.Errorf("screenshot %s: %v", name, err)
	}
}
