// Package silvergold_test plays Silver & Gold in the table app (package
// webtest), and every game's paper score sheet.
package silvergold_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api/webtest"

	"github.com/chromedp/chromedp"

	"github.com/treasury-games/treasury/api/apitest"
)

// TestWebAppServed checks the table app's page and files: embedded, gzipped
// for clients that take it, and under a Content-Security-Policy that keeps
// the page to its own origin.

func TestMain(m *testing.M) { webtest.Main(m) }

func TestWebAppServed(t *testing.T) {
	s := apitest.NewServer(t)
	for _, tc := range []struct{ path, ctype string }{
		{"/", "text/html"}, {"/app/app.js", "text/javascript"}, {"/app/app.css", "text/css"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, s.HTTP.URL+tc.path, nil)
			req.Header.Set("Accept-Encoding", "gzip")
			res, err := http.DefaultTransport.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = res.Body.Close()
			if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), tc.ctype) || res.Header.Get("Content-Encoding") != "gzip" {
				t.Fatalf("GET %s: %d %q %q", tc.path, res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Content-Encoding"))
			}
			if tc.path == "/" && !strings.Contains(res.Header.Get("Content-Security-Policy"), "script-src 'self';") {
				t.Errorf("GET /: Content-Security-Policy %q", res.Header.Get("Content-Security-Policy"))
			}
			req.Header.Set("If-None-Match", res.Header.Get("ETag"))
			again, err := http.DefaultTransport.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = again.Body.Close()
			if again.StatusCode != http.StatusNotModified {
				t.Errorf("GET %s with its ETag: %d, want 304", tc.path, again.StatusCode)
			}
		})
	}
	if r := s.Do(t, http.MethodGet, "/app/index.html", nil); r.Status != 404 {
		t.Errorf("GET /app/index.html: %d, want 404", r.Status)
	}
}

// checkDisplayPicker holds the host's display report to what a person sees:
// the card turned up is chosen by tapping its picture among the cards still
// possible, a colour at a time, drawn with their symbols (palm trees as
// palms), with the confirmation in view; no list of ids to choose from.
func checkDisplayPicker(b *webtest.Browser, host *webtest.Page) {
	b.T.Helper()
	t := b.T
	if got := webtest.Eval[string](b, host, `(() => {
		const act = document.querySelector('section.action');
		if (act.querySelector('select')) return 'the card is chosen from a select';
		if (document.body.innerText.includes('♣')) return 'a palm tree is drawn as a club';
		const shown = () => [...document.querySelectorAll('button[data-pick=display]')];
		if (!shown().every((c) => c.classList.contains('colour-grey') && c.querySelector('.grid'))) return 'the first cards offered are not grey pictures';
		if (!document.querySelector('button[data-pick=display] svg.palm-art')) return 'no grey card shows a palm tree drawn';
		if (/grey-\d/.test(act.innerText)) return 'a card shows its id: ' + act.innerText;
		document.querySelector('button[data-colour=purple]').click();
		const purple = shown();
		if (purple.length !== 12 || !purple.every((c) => c.classList.contains('colour-purple'))) return 'the purple filter shows ' + purple.map((c) => c.className).join();
		if (!document.querySelector('button[data-action=display]').disabled) return 'the report can be confirmed before a card is tapped';
		// Scrolled to the cards, as a person does, the confirmation
		// stays in view below them.
		purple[3].scrollIntoView({block: 'start'});
		purple[3].click();
		const go = document.querySelector('button[data-action=display]');
		if (go.disabled || shown()[3].getAttribute('aria-pressed') !== 'true') return 'the tapped card is not chosen';
		const r = go.getBoundingClientRect();
		if (r.bottom > innerHeight || r.top < 0) return 'the confirmation is out of view at ' + r.top + ' of ' + innerHeight;
		return 'ok';
	})()`); got != "ok" {
		t.Errorf("the host's display report: %s", got)
	}
	webtest.DocShot(b, host, "silver-and-gold-host")
}

// TestWebAppPhysicalGame plays a whole 2-player physical game of Silver &
// Gold through the pages: the host's device starts the table and reports
// every expedition and display card, each player keeps, crosses (the red
// cross chain included) on their own device; Ann takes her replacement
// cards herself, the host reports Bob's.
func TestWebAppPhysicalGame(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 150*time.Second)
	host, links := b.StartTable(s.HTTP.URL, "silver-and-gold", "physical", "Ann", "Bob")
	b.Axe(host)
	ann := b.Open("ann", links[0])
	bob := b.Open("bob", links[1])
	// Bob leaves his replacement cards to the host, who reports them.
	webtest.Eval[chromedp.Void](b, bob, `window.noTakes = true`)
	// A shared screen follows the game without a credential.
	table := b.Open("table", webtest.Eval[string](b, host, `document.querySelector('.invites a[href^="#/game/"]').href`))
	axed := false
	// The host's reports wait until the first display report is checked.
	webtest.Eval[chromedp.Void](b, host, `window.holdReports = true`)
	picked := false
	counts := b.PlayOut([]*webtest.Page{host, ann, bob, table}, 100*time.Second, func(p *webtest.Page, did string) {
		if !picked && did == "keep" && b.Seen(host, `!!document.querySelector('button[data-pick=display]')`, 5*time.Second) {
			picked = true
			checkDisplayPicker(b, host)
			webtest.Eval[chromedp.Void](b, host, `window.holdReports = false`)
		}
		if !axed && p == ann && strings.HasPrefix(did, "cross") {
			axed = true
			b.WaitFor(ann, `!document.body.dataset.busy && !document.body.dataset.loading`, 5*time.Second)
			b.Axe(ann)
		}
	})
	t.Logf("moves tried through the pages: %v", counts)
	if !picked {
		t.Errorf("the host was never asked to report a display card")
	}
	// What the server accepted (a page tries a move again when the game
	// moved on while its player chose, or a report was refused).
	stored := webtest.MovesFromAPI(t, s, links[0])
	if stored["reveal"] != 28 || stored["keep"] < 2 || stored["display"] < 4 {
		t.Errorf("moves stored %v: want 28 reveals, the keeps and at least the 4 first display reports", stored)
	}
	b.WantFinalScore(s, links[0], host, ann, bob, table)
	b.Axe(bob)
	b.Axe(table)
}

// TestWebAppDigitalGame plays a whole digital game through the pages, with
// an illegal crossing refused with the server's reason, a reload in the
// middle of a turn that finds the crossing and the stream again, and every
// connection cut once.
func TestWebAppDigitalGame(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 150*time.Second)
	host, links := b.StartTable(s.HTTP.URL, "silver-and-gold", "digital", "Ann", "Bob")
	ann := b.Open("ann", links[0])
	bob := b.Open("bob", links[1])

	// Keep, then try a crossing the rules forbid: a box on each card.
	// Both keep at once; a keep refused because the other's came first
	// (the page then says the game moved on) is made again, as a player
	// would, until the page shows it kept.
	for _, p := range []*webtest.Page{ann, bob} {
		for start := time.Now(); webtest.Eval[string](b, p, webtest.Step) != "keep"; time.Sleep(20 * time.Millisecond) {
			if time.Since(start) > webtest.Patient(10*time.Second) {
				t.Fatalf("%s was never asked to keep:\n%s", p.Name, b.Text(p))
			}
		}
	}
	for _, p := range []*webtest.Page{ann, bob} {
		kept := `(() => { const a = document.querySelector('section.action'); return !document.body.dataset.busy && !!a && a.dataset.state !== 'keep'; })()`
		for start := time.Now(); !webtest.Eval[bool](b, p, kept); time.Sleep(20 * time.Millisecond) {
			if time.Since(start) > webtest.Patient(10*time.Second) {
				t.Fatalf("%s's keep never went through:\n%s", p.Name, b.Text(p))
			}
			webtest.Eval[string](b, p, webtest.Step)
		}
	}
	b.WaitFor(ann, `document.querySelector('section.action')?.dataset.state === 'cross' && !document.body.dataset.loading`, 10*time.Second)
	webtest.Eval[chromedp.Void](b, ann, `(() => {
		const t = () => document.querySelectorAll('.tiles.mine .tile');
		t()[0].querySelector('button[data-box]:not(.sym-x)').click();
		t()[1].querySelector('button[data-box]:not(.sym-x)').click();
		document.querySelector('button[data-action=cross]').click();
	})()`)
	b.WaitFor(ann, `document.querySelector('[data-testid=problem]').innerText.length > 0`, 5*time.Second)
	reason := webtest.Eval[string](b, ann, `document.querySelector('[data-testid=problem]').innerText`)
	if !strings.Contains(reason, "box") {
		t.Errorf("the refused crossing shows %q, not the server's reason", reason)
	}
	webtest.Eval[chromedp.Void](b, ann, `document.querySelector('[data-k=cross-clear]').click()`)

	reloaded, cut := false, false
	counts := b.PlayOut([]*webtest.Page{host, ann, bob}, 100*time.Second, func(p *webtest.Page, did string) {
		if reloaded && !cut && strings.HasPrefix(did, "take") {
			// Every connection drops, event streams included: the pages
			// reconnect (EventSource sends Last-Event-ID) and play on.
			cut = true
			s.HTTP.CloseClientConnections()
			for _, p := range []*webtest.Page{host, ann, bob} {
				b.WaitFor(p, `document.querySelector('.live')?.dataset.state === 'live'`, 10*time.Second)
			}
			return
		}
		if reloaded || p != ann || !strings.HasPrefix(did, "cross") {
			return
		}
		// Ann has crossed, Bob not yet: reload her page mid-turn. Once her
		// page has drawn the answer it shows whether she waits for Bob; if
		// Bob crossed first the turn has moved on, and she is reloaded at a
		// later crossing. (Polling for 'crossed' there waited its whole
		// deadline each time: 30 s a turn under the default patience.) A
		// tap that landed as the page redrew (a push arrived) crossed
		// nothing: the page still asks her to cross, and she taps again at
		// the next step, as a player would.
		webtest.LTHSettled(b, ann)
		if webtest.Eval[string](b, ann, `document.querySelector('section.action')?.dataset.state || ''`) != "crossed" {
			return
		}
		reloaded = true
		b.Run(ann, chromedp.Reload())
		b.WaitFor(ann, `document.querySelector('section.action')?.dataset.state === 'crossed' && document.querySelectorAll('.cell.this-turn').length > 0`, 10*time.Second)
		b.WaitFor(ann, `document.querySelector('.live')?.dataset.state === 'live'`, 10*time.Second)
		b.Axe(ann)
	})
	t.Logf("moves through the pages: %v", counts)
	if !reloaded || !cut {
		t.Errorf("reload mid-turn: %v; connections cut: %v", reloaded, cut)
	}
	if counts["reveal"] != 0 || counts["display"] != 0 {
		t.Errorf("moves %v: a digital game asks for no reports", counts)
	}
	b.WantFinalScore(s, links[0], host, ann, bob)
}

// TestWebAppScoreSheet checks a paper score sheet through its page.
func TestWebAppScoreSheet(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 60*time.Second)
	p := b.Open("sheet", s.HTTP.URL+"/#/sheet")
	b.WaitFor(p, `!!document.querySelector('#p1-name')`, 10*time.Second)
	if n := webtest.Eval[int](b, p, `document.querySelectorAll('select[multiple], option[value^=grey-]').length`); n != 0 {
		t.Errorf("the sheet lists cards by id (%d elements)", n)
	}
	b.Run(p,
		chromedp.SendKeys(chromedp.CSS(`#p0-name`), "Sarah"),
		// The card is tapped as it looks, among the grey ones shown first.
		chromedp.Click(chromedp.CSS(`button[data-sheet-card="p0:grey-01"]`)),
		chromedp.SendKeys(chromedp.CSS(`#p0-coins`), "9"),
		chromedp.SendKeys(chromedp.CSS(`#p0-cups`), "6, 2"),
		chromedp.SendKeys(chromedp.CSS(`#p0-total`), "95"),
		// The second player's part is folded until opened.
		chromedp.Click(chromedp.CSS(`#p1-fold > summary`)),
		chromedp.SendKeys(chromedp.CSS(`#p1-name`), "Tom"),
		chromedp.SendKeys(chromedp.CSS(`#p1-cups`), "6"),
		chromedp.Click(chromedp.CSS(`button[data-action=check]`)),
	)
	b.WaitFor(p, `!!document.querySelector('[data-testid=sheet-result]')`, 10*time.Second)
	text := b.Text(p)
	for _, want := range []string{"mistake", "Sarah wrote 95", "both wrote the cup of 6", "Sarah\t9\t8\t0\t8\t0\t25"} {
		if !strings.Contains(text, want) {
			t.Errorf("the sheet's findings lack %q:\n%s", want, text)
		}
	}
	b.Axe(p)
	home := b.Open("home", s.HTTP.URL+"/")
	b.WaitFor(home, `!!document.querySelector('#name-1')`, 10*time.Second)
	b.Axe(home)
}
