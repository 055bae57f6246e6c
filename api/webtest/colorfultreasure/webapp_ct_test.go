package colorfultreasure_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api/webtest"

	"github.com/chromedp/chromedp"

	"github.com/treasury-games/treasury/api/apitest"
)

// TestWebAppColorfulTreasure plays digital games of Colorful Treasure
// (standard and advanced) through the seats' pages, choosing only what each
// page offers: face-down cards to flip (now and then a third), what to
// collect, thefts, action tokens to use (a peek's cards) or take, the end of
// a turn; to the end or the cap.
func TestWebAppColorfulTreasure(t *testing.T) {
	t.Parallel()
	for _, variant := range []string{"standard", "advanced"} {
		t.Run(variant, func(t *testing.T) {
			t.Parallel()
			playColorfulTreasure(t, variant, ctTable{})
		})
	}
}

// ctTable is the table playColorfulTreasure plays at: the language its
// devices prefer (the browser's English when empty) and what runs after
// every move a page made (its step, what it did).
type ctTable struct {
	lang string
	hook func(b *webtest.Browser, p *webtest.Page, step int, did string)
}

// ctPlayed is a game playColorfulTreasure played, to check further.
type ctPlayed struct {
	s              *apitest.Server
	b              *webtest.Browser
	links          []string
	host, ann, bob *webtest.Page
	ended          bool
	counts, stored map[string]int
}

func playColorfulTreasure(t *testing.T, variant string, table ctTable) ctPlayed {
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 150*time.Second)
	b.Lang = table.lang
	host, links := b.StartTableWith(s.HTTP.URL, "colorful-treasure", "digital",
		`const v = document.querySelector('#opt-variant'); v.value = '`+variant+`';`, "Ann", "Bob")
	ann := b.Open("ann", links[0])
	bob := b.Open("bob", links[1])
	b.WaitFor(ann, `!!document.querySelector('table.ct-grid')`, 10*time.Second)
	if n := webtest.Eval[int](b, ann, `document.querySelectorAll('table.ct-grid tbody td').length`); n != 50 {
		t.Fatalf("the grid has %d places, not 50:\n%s", n, b.Text(ann))
	}
	// What a peek shows is shown to the peeking seat until the next move:
	// each page notes every time it shows one.
	for _, p := range []*webtest.Page{ann, bob} {
		webtest.Eval[chromedp.Void](b, p, `window.takeNothing = `+webtest.JSString(ctTakeNothing[table.lang])+`; new MutationObserver(() => {
			const s = document.querySelector('[data-testid=peeked]');
			if (s) (window.peeksShown = window.peeksShown || []).includes(s.innerText) || window.peeksShown.push(s.innerText);
		}).observe(document.body, {childList: true, subtree: true})`)
	}
	counts := map[string]int{}
	steps, axed, ended := 0, false, false
	deadline := time.Now().Add(webtest.Patient(100 * time.Second))
	for steps < 600 && !ended && time.Now().Before(deadline) {
		acted := false
		for _, p := range []*webtest.Page{ann, bob} {
			did := webtest.Eval[string](b, p, `(() => {
				const q = (s) => document.querySelector(s);
				if (document.body.dataset.busy || document.body.dataset.loading) return '';
				if (q('[data-testid=final]')) return 'done';
				const cells = [...document.querySelectorAll('button[data-cell]:not([aria-pressed=true])')];
				const opts = [...document.querySelectorAll('button[data-option], button[data-k^=use-]')];
				const peek = q('button[data-k=peek]:not([disabled])');
				if (peek && !cells.length) { peek.click(); return 'peek'; }
				const takes = opts.filter((b) => b.dataset.k.startsWith('collect-') && b.innerText !== window.takeNothing);
				window.n = (window.n || 0) + 1;
				if (cells.length && (!opts.length || window.n % 4 === 0)) {
					const c = cells[(window.n * 7) % cells.length];
					c.click();
					return 'tap ' + c.dataset.cell;
				}
				const o = opts.find((b) => !b.dataset.k.startsWith('collect-') && b.dataset.k !== 'end') || takes[takes.length - 1] || opts[0];
				if (!o) return '';
				o.click();
				return o.dataset.k.split('-')[0] + ' ' + o.innerText;
			})()`)
			switch {
			case did == "done":
				ended = true
			case did != "":
				acted = true
				steps++
				counts[strings.Fields(did)[0]]++
				if table.hook != nil {
					table.hook(b, p, steps, did)
				}
			}
			if !axed && strings.HasPrefix(did, "collect") {
				b.WaitFor(p, `!document.body.dataset.busy && !document.body.dataset.loading`, 10*time.Second)
				b.Axe(p)
				axed = true
			}
		}
		if !acted {
			webtest.Idle(b, ann, bob)
		}
	}
	stored := webtest.MovesFromAPI(t, s, links[0])
	t.Logf("the pages chose %v (ended: %v); the server stored %v", counts, ended, stored)
	if stored["flip"] < 10 || stored["collect"] < 5 || (variant == "advanced" && stored["ct_claim"]+stored["ct_end"] == 0) {
		t.Errorf("too few moves through the pages (%v):\n%s", stored, b.Text(ann))
	}
	for _, p := range []*webtest.Page{ann, bob} {
		if problems := webtest.Eval[[]string](b, p, `window.problems || []`); len(problems) > 0 {
			t.Logf("%s was shown: %q", p.Name, problems)
		}
		if problem := webtest.Eval[string](b, p, `document.querySelector('[data-testid=problem]').innerText`); problem != "" {
			t.Errorf("%s shows %q", p.Name, problem)
		}
	}
	if ended {
		want := webtest.ScoreFromAPI(t, s, links[0])
		if got := b.FinalScore(ann); !strings.Contains(got, want[0]) {
			t.Errorf("ann's final score %q does not show %q", got, want[0])
		}
		// Everything is public at the end: the final grid shows every
		// card left, as the server says it was, and none face down (the
		// host's page is a phone's width: a row per wonder).
		b.WaitFor(host, `!!document.querySelector('[data-testid=final]') && !document.body.dataset.loading`, 10*time.Second)
		shown := webtest.Eval[[]string](b, host, `[...document.querySelectorAll('table.ct-grid tbody td')].filter((td) => !td.classList.contains('gone')).map((td) => {
			const was = td.querySelector('.ct-was');
			return was && was.querySelector('svg.k-' + was.dataset.was) ? was.dataset.was : td.querySelector('.ct-back') ? 'face down' : 'other';
		})`)
		var faces []string
		for _, c := range ctColumns(t, s, links[0]) {
			for _, f := range c.Faces {
				if f != "gone" {
					faces = append(faces, f)
				}
			}
		}
		if len(faces) == 0 || strings.Join(shown, ",") != strings.Join(faces, ",") {
			t.Errorf("the final grid shows %v; the cards left were %v", shown, faces)
		}
		if variant == "standard" {
			webtest.DocShot(b, host, "colorful-treasure-final")
		}
	}
	// The log never says what a card showed; a peek's cards were shown.
	peeks := 0
	for _, p := range []*webtest.Page{ann, bob, host} {
		for _, l := range webtest.Eval[[]string](b, p, `[...document.querySelectorAll('section.log li')].map((l) => l.innerText)`) {
			if strings.Contains(l, " shows ") || strings.Contains(l, "revealed") {
				t.Errorf("%s's log says %q", p.Name, l)
			}
		}
		if p != host {
			peeks += len(webtest.Eval[[]string](b, p, `window.peeksShown || []`))
		}
	}
	if counts["peek"] > 0 && peeks == 0 {
		t.Errorf("the pages peeked %d times and never showed what a peek showed", counts["peek"])
	}
	t.Logf("peeks shown: %d", peeks)
	b.Axe(bob)
	b.Axe(host)
	return ctPlayed{s: s, b: b, links: links, host: host, ann: ann, bob: bob, ended: ended, counts: counts, stored: stored}
}

// ctTakeNothing is the label of the choice to take nothing, by language
// (the browser's English by default).
var ctTakeNothing = map[string]string{"": "Take nothing", "de-DE": "Nichts nehmen"}

// ctRecord keeps every move the page sends, with the server's answer.
const ctRecord = `(() => {
  if (window.sent) return;
  window.sent = [];
  const f = window.fetch.bind(window);
  window.fetch = async (url, o) => {
    const r = await f(url, o);
    if (o && o.method === 'POST' && /\/moves$/.test(String(url))) window.sent.push({status: r.status, move: JSON.parse(o.body)});
    return r;
  };
})()`

// ctPhoneCheck measures a page as a 360x740 phone shows it.
const ctPhoneCheck = `(() => {
  const g = document.querySelector('.ct-scroll');
  const backs = [...document.querySelectorAll('button.ct-back')].map((b) => b.getBoundingClientRect());
  return {
    doc: document.documentElement.scrollWidth, inner: innerWidth, gridScroll: g.scrollWidth, gridClient: g.clientWidth,
    narrow: !!document.querySelector('table.ct-narrow'), buttons: backs.length,
    minW: Math.min(1000, ...backs.map((r) => r.width)), minH: Math.min(1000, ...backs.map((r) => r.height)),
    clipped: [...document.querySelectorAll('.ct-face, .ct-wonder')].filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.innerText),
  };
})()`

type ctPhone struct {
	Doc, Inner, GridScroll, GridClient int
	Narrow                             bool
	Buttons                            int
	MinW, MinH                         float64
	Clipped                            []string
}

// phoneCheck fails unless the page fits a phone's width: no sideways
// scroll, the whole grid in view, face-down buttons of 32 px or more, no
// wonder name or card clipped; it returns how many face-down buttons there
// are and the smallest.
func phoneCheck(b *webtest.Browser, p *webtest.Page, when string) ctPhone {
	b.T.Helper()
	m := webtest.Eval[ctPhone](b, p, ctPhoneCheck)
	if m.Inner != 360 || !m.Narrow {
		b.T.Errorf("%s, %s: viewport %d px wide, grid with a row per wonder: %v", p.Name, when, m.Inner, m.Narrow)
	}
	if m.Doc > m.Inner || m.GridScroll > m.GridClient {
		b.T.Errorf("%s, %s: sideways scroll: the page is %d px wide in %d, the grid %d in %d", p.Name, when, m.Doc, m.Inner, m.GridScroll, m.GridClient)
	}
	if m.Buttons > 0 && (m.MinW < 32 || m.MinH < 32) {
		b.T.Errorf("%s, %s: a face-down button is %.0fx%.0f px, under 32x32", p.Name, when, m.MinW, m.MinH)
	}
	if len(m.Clipped) > 0 {
		b.T.Errorf("%s, %s: clipped: %q", p.Name, when, m.Clipped)
	}
	return m
}

type ctPos struct {
	Column int `json:"column"`
	Row    int `json:"row"`
}

// ctMove is a Colorful Treasure move, as a page sends it and the move log
// keeps it.
type ctMove struct {
	Type   string   `json:"type"`
	Seat   int      `json:"seat"`
	Cards  []ctPos  `json:"cards"`
	Shows  []string `json:"shows"`
	Take   []string `json:"take"`
	Target *int     `json:"target"`
	Card   *struct {
		Wonder string `json:"wonder"`
		Kind   string `json:"kind"`
	} `json:"card"`
	DiamondToken string `json:"diamond_token"`
	Token        int    `json:"token"`
}

// key names a move and who sent it (the host, or the seat itself).
func (m ctMove) key(host bool) string {
	k := fmt.Sprintf("%s seat %d cards %v shows %v take %v token %d", m.Type, m.Seat, m.Cards, m.Shows, m.Take, m.Token)
	if m.Target != nil {
		k += fmt.Sprintf(" from %d", *m.Target)
	}
	if m.Card != nil {
		k += " card " + m.Card.Wonder + "/" + m.Card.Kind
	}
	if m.DiamondToken != "" {
		k += " diamond token " + m.DiamondToken
	}
	if host {
		k += " by the host"
	}
	return k
}

type ctLogged struct {
	Actor struct {
		Host bool `json:"host"`
		Seat *int `json:"seat"`
	} `json:"actor"`
	Move ctMove `json:"move"`
}

// ctGame names the game and the credential of a link.
func ctGame(link string) (id, cred string) {
	parts := strings.Split(strings.SplitN(link, "#/game/", 2)[1], "/")
	return parts[0], parts[len(parts)-1]
}

func ctRead[T any](t *testing.T, s *apitest.Server, path, cred string) T {
	t.Helper()
	var opts []apitest.Opt
	if cred != "" {
		opts = append(opts, apitest.Header("Authorization", "Bearer "+cred))
	}
	r := s.Do(t, http.MethodGet, path, nil, opts...)
	var v T
	if err := json.Unmarshal(r.Body, &v); err != nil || r.Status != 200 {
		t.Fatalf("GET %s: %d %v %s", path, r.Status, err, r.Body)
	}
	return v
}

type ctView struct {
	Ended bool `json:"ended"`
	State struct {
		Turn    int    `json:"turn"`
		Phase   string `json:"phase"`
		Players []struct {
			Turns int `json:"turns"`
		} `json:"players"`
	} `json:"state"`
}

type ctListing struct {
	Flip *struct {
		Count int `json:"count"`
		Cells []struct {
			Column int      `json:"column"`
			Row    int      `json:"row"`
			Shows  []string `json:"shows"`
		} `json:"cells"`
	} `json:"flip"`
}

// shows is what the listing says the card at column, row may show.
func (l ctListing) shows(column, row int) []string {
	if l.Flip != nil {
		for _, c := range l.Flip.Cells {
			if c.Column == column && c.Row == row {
				return c.Shows
			}
		}
	}
	return nil
}

const ctOffered = `Object.fromEntries([...document.querySelectorAll('.ct-shows')].map((g) => [g.querySelector('button[data-kind]').dataset.for, [...g.querySelectorAll('button[data-kind]')].map((b) => b.dataset.kind)]))`

// TestWebAppColorfulTreasurePhysical plays a whole 2-player physical game
// of the advanced variant through the pages: the seats report what the
// cards they turn over show from their phones (Bob's a 360x740 one), the
// host's page plays one of Bob's turns for him, collects, thefts and action
// tokens come as the game brings them, to the final score. Every report
// offers only what the server's listing allows (two cards of one wonder
// never the same kind), so an impossible report cannot be sent from the
// page. The moves the pages sent are the server's log, the host's as the
// host's; the final ranking is the server's.
func TestWebAppColorfulTreasurePhysical(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 150*time.Second)
	host, links := b.StartTableWith(s.HTTP.URL, "colorful-treasure", "physical",
		`document.querySelector('#opt-variant').value = 'advanced';`, "Ann", "Bob")
	id, annCred := ctGame(links[0])
	ann := b.Open("ann", links[0])
	bob := b.Open("bob", links[1])
	b.Run(bob, chromedp.EmulateViewport(360, 740))
	pages := []*webtest.Page{ann, bob, host}
	for _, p := range pages {
		webtest.Eval[chromedp.Void](b, p, ctRecord)
	}
	webtest.Eval[chromedp.Void](b, host, `window.idle = true`)
	b.WaitFor(bob, `!!document.querySelector('table.ct-narrow') && document.querySelector('section.action')?.dataset.state === 'wait'`, 10*time.Second)
	phoneCheck(b, bob, "waiting")

	// Ann's turn begins: the host may play it for her too.
	b.WaitFor(host, `document.querySelector('section.action[data-for="0"] h2')?.innerText === 'Move for Ann' && document.querySelectorAll('button[data-cell]').length === 50`, 10*time.Second)
	b.WaitFor(ann, `document.querySelectorAll('button[data-cell]').length === 50`, 10*time.Second)
	listing := ctRead[ctListing](t, s, "/v1/games/"+id+"/legal-moves", annCred)
	// A card tapped by mistake is cleared.
	webtest.Eval[chromedp.Void](b, ann, `document.querySelector('button[data-cell="3-2"]').click()`)
	if o := webtest.Eval[map[string][]string](b, ann, ctOffered); len(o) != 1 || len(o["3-2"]) != 5 {
		t.Errorf("one card tapped, the page asks %v", o)
	}
	webtest.Eval[chromedp.Void](b, ann, `document.querySelector('button[data-k=report-clear]').click()`)
	if n := webtest.Eval[int](b, ann, `document.querySelectorAll('.ct-shows, button[data-cell][aria-pressed=true]').length`); n != 0 {
		t.Errorf("cleared, the page still shows %d chosen cards", n)
	}
	// Two cards of the Great Wall: each offers what the listing says it may
	// show, less what the other was said to show.
	webtest.Eval[chromedp.Void](b, ann, `document.querySelector('button[data-cell="0-0"]').click(); document.querySelector('button[data-cell="0-1"]').click()`)
	offered := webtest.Eval[map[string][]string](b, ann, ctOffered)
	for _, c := range []string{"0-0", "0-1"} {
		var row int
		fmt.Sscanf(c, "0-%d", &row)
		if want := listing.shows(0, row); len(want) != 5 || !slices.Equal(offered[c], want) {
			t.Errorf("the page offers %v for the card at %s; the listing says %v", offered[c], c, want)
		}
	}
	choose := func(cell, kind string) {
		t.Helper()
		webtest.Eval[chromedp.Void](b, ann, `document.querySelector('button[data-k="kind-`+cell+`-`+kind+`"]').click()`)
	}
	reportable := func() bool {
		return webtest.Eval[bool](b, ann, `!document.querySelector('button[data-k=report]').disabled`)
	}
	choose("0-0", "green")
	if o := webtest.Eval[map[string][]string](b, ann, ctOffered); slices.Contains(o["0-1"], "green") || len(o["0-1"]) != 4 || !slices.Contains(o["0-0"], "green") {
		t.Errorf("with green said for the first card of the Great Wall, the page offers %v", o)
	}
	if reportable() {
		t.Errorf("the report may be sent with one card of two said")
	}
	choose("0-0", "blue")
	if o := webtest.Eval[map[string][]string](b, ann, ctOffered); !slices.Contains(o["0-1"], "green") || slices.Contains(o["0-1"], "blue") {
		t.Errorf("with blue said instead, the page offers %v", o)
	}
	choose("0-1", "key")
	if !reportable() {
		t.Fatalf("both cards said, the report cannot be sent:\n%s", b.Text(ann))
	}
	b.Axe(ann)
	webtest.Eval[chromedp.Void](b, ann, `document.querySelector('button[data-k=report]').click()`)
	// Everyone sees what the cards show; a key is up, so Ann must take it.
	for _, p := range pages {
		b.WaitFor(p, `[...document.querySelectorAll('.ct-face')].map((e) => e.dataset.shows).join() === 'blue,key'`, 10*time.Second)
	}
	b.WaitFor(ann, `[...document.querySelectorAll('button[data-option^=collect-]')].map((b) => b.innerText).join() === 'Take the keys and chests'`, 10*time.Second)
	// Ann takes the key; the blue card goes face down again. On Bob's
	// turn the page offers for it every kind the Great Wall still holds,
	// not only the blue it was reported as: nobody remembers for him.
	webtest.Eval[chromedp.Void](b, ann, `document.querySelector('button[data-option^=collect-]').click()`)
	b.WaitFor(bob, `document.querySelector('section.action')?.dataset.state === 'options' && !!document.querySelector('button[data-cell="0-0"]') && !document.body.dataset.busy && !document.body.dataset.loading`, 10*time.Second)
	webtest.Eval[chromedp.Void](b, bob, `document.querySelector('button[data-cell="0-0"]').click()`)
	if o := webtest.Eval[map[string][]string](b, bob, ctOffered); len(o["0-0"]) != 4 || slices.Contains(o["0-0"], "key") || !slices.Contains(o["0-0"], "blue") {
		t.Errorf("for the card reported blue, face down again, Bob's page offers %v; want the Great Wall's four cards left", o)
	}
	webtest.Eval[chromedp.Void](b, bob, `document.querySelector('button[data-k=report-clear]').click()`)

	counts := map[string]int{}
	steps, ended, phoned, hostAxed := 0, false, false, false
	hostTurn := 0 // 0: not yet, 1: the host plays Bob's second turn, 2: played
	deadline := time.Now().Add(webtest.Patient(100 * time.Second))
	for steps < 1000 && !ended && time.Now().Before(deadline) {
		// The host plays Bob's second turn for him, whole: Bob's page
		// stays idle meanwhile (and has no move of its own in flight).
		if hostTurn < 2 && !webtest.Eval[bool](b, bob, `!!document.body.dataset.busy`) {
			st := ctRead[ctView](t, s, "/v1/games/"+id, "")
			switch {
			case hostTurn == 0 && !st.Ended && st.State.Turn == 1 && st.State.Phase == "reveal" && st.State.Players[1].Turns == 1:
				webtest.Eval[chromedp.Void](b, bob, `window.idle = true`)
				webtest.Eval[chromedp.Void](b, host, `window.idle = false; window.forSeat = 1`)
				b.WaitFor(host, `document.querySelector('section.action[data-for="1"] h2')?.innerText === 'Move for Bob'`, 10*time.Second)
				hostTurn = 1
			case hostTurn == 1 && (st.Ended || st.State.Turn != 1):
				webtest.Eval[chromedp.Void](b, host, `window.idle = true`)
				webtest.Eval[chromedp.Void](b, bob, `window.idle = false`)
				hostTurn = 2
			}
		}
		acted := false
		for _, p := range pages {
			did := webtest.Eval[string](b, p, webtest.CTStep)
			switch {
			case did == "done":
				ended = true
			case strings.HasPrefix(did, "stuck"):
				t.Fatalf("%s: %s\n%s", p.Name, did, b.Text(p))
			case did != "":
				acted = true
				steps++
				counts[p.Name+" "+strings.Fields(did)[0]]++
			}
			if p == host && !hostAxed && strings.HasPrefix(did, "kind") {
				// The host says what Bob's cards show, for him.
				hostAxed = true
				if h := webtest.Eval[string](b, host, `document.querySelector('#report-h').innerText`); !strings.HasSuffix(h, "for Bob") {
					t.Errorf("the host's report is headed %q", h)
				}
				b.Axe(host)
			}
			if p == bob && !phoned && strings.HasPrefix(did, "kind") {
				// Bob says what his cards show on his phone.
				phoned = true
				phoneCheck(b, bob, "reporting")
				if os.Getenv("TREASURY_SCREENSHOTS") != "" {
					b.Screenshots("reporting")
				}
				b.Axe(bob)
			}
		}
		if !acted {
			webtest.Idle(b, pages...)
		}
	}
	t.Logf("the pages did %v in %d steps (ended: %v)", counts, steps, ended)
	if !ended {
		t.Fatalf("the game did not end through the pages:\n%s", b.Text(ann))
	}
	if hostTurn != 2 || !phoned {
		t.Errorf("the host played Bob's turn: %v; Bob reported from his phone: %v", hostTurn == 2, phoned)
	}

	// The moves the pages sent and the server took are its log, in number
	// and content, the host's as the host's.
	logged := ctRead[struct {
		Moves []ctLogged `json:"moves"`
	}](t, s, "/v1/games/"+id+"/moves", "").Moves
	var fromLog, fromPages []string
	stored := map[string]int{}
	for _, m := range logged {
		fromLog = append(fromLog, m.Move.key(m.Actor.Host))
		stored[m.Move.Type]++
	}
	for _, p := range pages {
		for _, m := range webtest.Eval[[]struct {
			Status int    `json:"status"`
			Move   ctMove `json:"move"`
		}](b, p, `window.sent`) {
			if m.Status < 300 {
				fromPages = append(fromPages, m.Move.key(p == host))
			}
		}
	}
	slices.Sort(fromLog)
	slices.Sort(fromPages)
	if !slices.Equal(fromLog, fromPages) {
		t.Errorf("the server's log (%d moves) is not what the pages sent (%d):\nlog:   %q\npages: %q", len(fromLog), len(fromPages), fromLog, fromPages)
	}
	t.Logf("the server stored %v", stored)
	if stored["flip"] < 10 || stored["collect"] < 5 || stored["ct_claim"]+stored["ct_end"] == 0 {
		t.Errorf("too few moves through the pages: %v", stored)
	}
	if logged[0].Move.key(false) != `flip seat 0 cards [{0 0} {0 1}] shows [blue key] take [] token 0` {
		t.Errorf("the first move is %s", logged[0].Move.key(logged[0].Actor.Host))
	}
	// The host's moves are one whole turn of Bob's: from its first flip to
	// the move before Ann's next.
	first, last := -1, -1
	for i, m := range logged {
		if m.Actor.Host {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		t.Fatal("the host's page played no move")
	}
	for i := first; i <= last; i++ {
		if m := logged[i]; !m.Actor.Host || m.Move.Seat != 1 {
			t.Errorf("move %d of the host's turn: %s", i, m.Move.key(m.Actor.Host))
		}
	}
	if m := logged[first].Move; m.Type != "flip" || len(m.Cards) != 2 || len(m.Shows) != 2 || logged[first-1].Move.Seat != 0 {
		t.Errorf("the host's turn for Bob begins with %s, after %s", m.key(true), logged[first-1].Move.key(false))
	}
	if last+1 < len(logged) && logged[last+1].Move.Seat != 0 {
		t.Errorf("the host's turn for Bob is followed by %s", logged[last+1].Move.key(false))
	}

	// A peek is only recorded, and the page said so.
	for _, p := range pages {
		for _, note := range webtest.Eval[[]string](b, p, `window.peekNotes || []`) {
			if !strings.Contains(note, "only records the peek") {
				t.Errorf("%s peeked in a physical game with the note %q", p.Name, note)
			}
		}
		// A page that acted on a game another phone had just moved on is
		// told so and shown the game as it stands (app.game.moved-on): on a
		// busy machine the pages' news can lag a step. Any other problem is
		// a failure.
		for _, problem := range webtest.Eval[[]string](b, p, `window.problems || []`) {
			if !strings.Contains(problem, "moved on while you chose") {
				t.Errorf("%s was shown: %q", p.Name, problem)
			}
		}
	}
	b.WantFinalScore(s, links[0], pages...)
	phoneCheck(b, bob, "at the end")
	b.Axe(bob)
	b.Axe(host)
}

// TestWebAppColorfulTreasurePhone opens a seat's page of an advanced
// digital game on a 360x740 phone: the whole grid is in view without
// sideways scroll (a row per wonder), every face-down card a button of 32
// px or more, before and after a flip; the host's screen only watches.
func TestWebAppColorfulTreasurePhone(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 60*time.Second)
	host, links := b.StartTableWith(s.HTTP.URL, "colorful-treasure", "digital",
		`document.querySelector('#opt-variant').value = 'advanced';`, "Ann", "Bob")
	ann := b.Open("ann", links[0])
	b.Run(ann, chromedp.EmulateViewport(360, 740))
	b.WaitFor(ann, `!!document.querySelector('table.ct-narrow') && document.querySelectorAll('button[data-cell]').length === 50`, 10*time.Second)
	m := phoneCheck(b, ann, "on turn")
	t.Logf("on a 360x740 phone: %+v", m)
	if m.Buttons != 50 {
		t.Errorf("%d face-down buttons, not 50", m.Buttons)
	}
	if n := webtest.Eval[int](b, ann, `document.querySelectorAll('table.ct-grid tbody tr').length`); n != 10 {
		t.Errorf("the phone's grid has %d rows, not one per wonder", n)
	}
	b.Axe(ann)
	webtest.Eval[chromedp.Void](b, ann, `document.querySelector('button[data-cell="9-4"]').click(); document.querySelector('button[data-cell="1-0"]').click()`)
	b.WaitFor(ann, `document.querySelectorAll('.ct-face').length === 2 && !document.body.dataset.busy && !document.body.dataset.loading`, 10*time.Second)
	phoneCheck(b, ann, "two cards up")
	b.Axe(ann)
	// Tablets, and a phone again: the grid follows the width; from 896 px
	// its wonders are columns, as on the table.
	for _, w := range []int64{900, 1024} {
		b.Run(ann, chromedp.EmulateViewport(w, 768))
		b.WaitFor(ann, `!document.querySelector('table.ct-narrow') && document.querySelectorAll('table.ct-grid thead th').length === 11`, 5*time.Second)
		if got := webtest.Eval[[]int](b, ann, `[document.documentElement.scrollWidth, innerWidth, document.querySelector('.ct-scroll').scrollWidth, document.querySelector('.ct-scroll').clientWidth]`); got[0] > got[1] || got[2] > got[3] {
			t.Errorf("on a %d px tablet the page is %d px wide, the grid %d in %d", w, got[0], got[2], got[3])
		}
		if os.Getenv("TREASURY_SCREENSHOTS") != "" {
			b.Screenshots(fmt.Sprint(w))
		}
	}
	b.Run(ann, chromedp.EmulateViewport(360, 740))
	b.WaitFor(ann, `!!document.querySelector('table.ct-narrow')`, 5*time.Second)
	if text := webtest.Eval[string](b, host, `document.querySelector('main').innerText`); !strings.Contains(text, "this screen follows the game") || webtest.Eval[int](b, host, `document.querySelectorAll('button[data-cell], button[data-option]').length`) != 0 {
		t.Errorf("the host of a digital game is offered moves:\n%s", text)
	}
}

// TestWebAppColorfulTreasureLog plays turns of a digital game through the
// seats' pages until cards turned over go face down again, then reads the
// log ("What happened") on both phones, the host's screen and the shared
// table screen: no line says what a card now face down showed. A reload
// keeps the log: it is read again from the game's stream.
func TestWebAppColorfulTreasureLog(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 120*time.Second)
	host, links := b.StartTable(s.HTTP.URL, "colorful-treasure", "digital", "Ann", "Bob")
	id, _ := ctGame(links[0])
	ann := b.Open("ann", links[0])
	bob := b.Open("bob", links[1])
	table := b.Open("table", s.HTTP.URL+"/#/game/"+id)
	title := func(w string) string {
		parts := strings.Split(w, "-")
		for i, p := range parts {
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		}
		return strings.Join(parts, " ")
	}
	type gridView struct {
		State struct {
			Columns []struct {
				Wonder string   `json:"wonder"`
				Cells  []string `json:"cells"`
			} `json:"columns"`
		} `json:"state"`
	}
	down := map[string]string{} // "Petra row 3": what the card there showed, now face down again
	for turn := 0; len(down) == 0; turn++ {
		if turn == 8 {
			t.Fatalf("no card went face down again in %d turns", turn)
		}
		p, name := ann, "Ann"
		if turn%2 == 1 {
			p, name = bob, "Bob"
		}
		b.WaitFor(p, `document.querySelector('section.action')?.dataset.state === 'options' && document.querySelectorAll('button[data-cell]').length > 2 && !document.body.dataset.busy && !document.body.dataset.loading`, 10*time.Second)
		webtest.Eval[chromedp.Void](b, p, `(() => { const c = document.querySelectorAll('button[data-cell]'); c[0].click(); document.querySelectorAll('button[data-cell]')[c.length - 1].click(); })()`)
		b.WaitFor(p, `document.querySelectorAll('.ct-face').length === 2 && !!document.querySelector('button[data-option^=collect-]') && !document.body.dataset.busy && !document.body.dataset.loading`, 10*time.Second)
		up := map[string]string{}
		for _, c := range ctRead[gridView](t, s, "/v1/games/"+id, "").State.Columns {
			for r, k := range c.Cells {
				if k != "down" && k != "gone" {
					up[fmt.Sprintf("%s row %d", title(c.Wonder), r+1)] = k
				}
			}
		}
		webtest.Eval[chromedp.Void](b, p, `(() => {
			const opts = [...document.querySelectorAll('button[data-option^=collect-]')];
			(opts.find((o) => o.innerText === 'Take nothing') || opts.find((o) => o.innerText === 'Take the keys and chests') || opts[0]).click();
		})()`)
		b.WaitFor(p, `document.querySelectorAll('.ct-face').length === 0 && !document.body.dataset.busy && !document.body.dataset.loading`, 10*time.Second)
		for _, c := range ctRead[gridView](t, s, "/v1/games/"+id, "").State.Columns {
			for r, k := range c.Cells {
				at := fmt.Sprintf("%s row %d", title(c.Wonder), r+1)
				if k == "down" && up[at] != "" {
					down[at] = up[at]
				}
			}
		}
		t.Logf("%s turned over %v; face down again: %v", name, up, down)
	}
	// The last collect's line is the newest on every screen.
	logLines := func(p *webtest.Page) []string {
		b.WaitFor(p, `[...document.querySelectorAll('section.log li')].some((l) => / took /.test(l.innerText)) && !document.body.dataset.loading`, 10*time.Second)
		return webtest.Eval[[]string](b, p, `[...document.querySelectorAll('section.log li')].map((l) => l.innerText)`)
	}
	check := func(p *webtest.Page, when string) []string {
		t.Helper()
		lines := logLines(p)
		for at, kind := range down {
			for _, l := range lines {
				if strings.Contains(l, at) && strings.Contains(l, kind) {
					t.Errorf("%s's log%s says %q, and the card at %s is face down", p.Name, when, l, at)
				}
			}
		}
		return lines
	}
	before := map[*webtest.Page][]string{}
	for _, p := range []*webtest.Page{ann, bob, host, table} {
		before[p] = check(p, "")
		if !slices.ContainsFunc(before[p], func(l string) bool { return strings.Contains(l, " turned over ") }) {
			t.Errorf("%s's log does not say which cards were turned over: %q", p.Name, before[p])
		}
	}
	for _, p := range []*webtest.Page{ann, table} {
		b.Run(p, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`main h1`)))
		b.WaitFor(p, fmt.Sprintf(`document.querySelectorAll('section.log li').length >= %d`, len(before[p])), 10*time.Second)
		if after := check(p, " after a reload"); !slices.Equal(after, before[p]) {
			t.Errorf("%s's log after a reload:\n%q\nbefore:\n%q", p.Name, after, before[p])
		}
	}
	b.Axe(table)
}

// ctColumns reads the grid's columns of the game of a link as the API gives
// them, with the faces of every column's places: the order in which a
// phone-wide page's table (a row per wonder) lists its cells.
func ctColumns(t *testing.T, s *apitest.Server, link string) []struct{ Faces []string } {
	t.Helper()
	id := strings.Split(strings.SplitN(link, "#/game/", 2)[1], "/")[0]
	r := s.Do(t, http.MethodGet, "/v1/games/"+id, nil)
	var g struct {
		State struct {
			Columns []struct {
				Faces []string `json:"faces"`
			} `json:"columns"`
		} `json:"state"`
	}
	if err := json.Unmarshal(r.Body, &g); err != nil {
		t.Fatalf("game: %v %s", err, r.Body)
	}
	out := make([]struct{ Faces []string }, len(g.State.Columns))
	for i, c := range g.State.Columns {
		out[i].Faces = c.Faces
	}
	return out
}
