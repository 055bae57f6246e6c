package luckytreasurehunter_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api/webtest"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/treasury-games/treasury/api/apitest"
)

// lthPlay steps every page until all show the final score; hook runs after
// each step that did something. It returns what each page did.
func lthPlay(b *webtest.Browser, pages []*webtest.Page, within time.Duration, hook func(p *webtest.Page, did string)) []string {
	b.T.Helper()
	var did []string
	b.PlayBy(webtest.LTHStep, pages, within, func(p *webtest.Page, d string) {
		did = append(did, p.Name+": "+d)
		if hook != nil {
			hook(p, d)
		}
	})
	return did
}

// lthLog is the page's "What happened" list.
func lthLog(b *webtest.Browser, p *webtest.Page) []string {
	return webtest.Eval[[]string](b, p, `[...document.querySelectorAll('.log li')].map((li) => li.innerText)`)
}

func moveType(did string) string {
	f := strings.Fields(did)
	if f[0] == "for-Bob" {
		return f[1]
	}
	return f[0]
}

func noSideways(b *webtest.Browser, p *webtest.Page, when string) {
	b.T.Helper()
	if w := webtest.Eval[[]int](b, p, `[document.documentElement.scrollWidth, innerWidth]`); w[0] > w[1] {
		b.T.Errorf("%s at %s: the page is %d px wide in a %d px viewport", p.Name, when, w[0], w[1])
	}
}

// TestWebAppLuckyTreasureHunter plays a whole 2-player digital game of Lucky
// Treasure Hunter through the seats' pages, the host's device and a
// spectator watching: places, steals with their odds, re-rolls, the
// captain, stops; the log tells every move, a seat's drawn cards reach only
// that seat, and the final ranking and the moves agree with the API.
func TestWebAppLuckyTreasureHunter(t *testing.T) {
	t.Parallel()
	start := time.Now()
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 120*time.Second)
	host, links := b.StartTable(s.HTTP.URL, "lucky-treasure-hunter", "digital", "Ann", "Bob")
	ann := b.Open("ann", links[0])
	bob := b.Open("bob", links[1])
	b.Run(bob, chromedp.EmulateViewport(360, 740, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
	spectator := b.Open("spectator", webtest.Eval[string](b, host, `document.querySelector('.invites a[href^="#/game/"]').href`))
	b.WaitFor(ann, `document.querySelector('section.action')?.dataset.state === 'place'`, 10*time.Second)
	if webtest.Eval[int](b, ann, `document.querySelectorAll('button[data-option][data-type=place]').length`) == 0 || !strings.Contains(b.Text(ann), "Hand:") {
		t.Fatalf("Ann is not offered her places from her hand:\n%s", b.Text(ann))
	}

	tried := map[string]int{}
	odds, axedDecide, checkedLogs := 0, false, false
	did := lthPlay(b, []*webtest.Page{ann, bob, host, spectator}, 75*time.Second, func(p *webtest.Page, did string) {
		if p == host || p == spectator {
			t.Errorf("%s acted in a digital game: %s", p.Name, did)
		}
		tried[moveType(did)]++
		if p == bob {
			webtest.LTHSettled(b, bob)
			noSideways(b, bob, did)
		}
		if strings.HasPrefix(did, "steal ") {
			if !regexp.MustCompile(`\d+% to take the set`).MatchString(did) {
				t.Errorf("a steal without its odds: %s", did)
			} else {
				odds++
			}
		}
		if (strings.HasPrefix(did, "reroll") || strings.HasPrefix(did, "captain")) && !strings.Contains(did, "% to take the set") {
			t.Errorf("%s: no odds", did)
		}
		if strings.HasPrefix(did, "steal") && !axedDecide {
			// The steal is told on every screen: the set, the dice.
			webtest.LTHSettled(b, p)
			if webtest.Eval[bool](b, p, `document.querySelector('section.action')?.dataset.state === 'decide'`) {
				axedDecide = true
				for _, q := range []*webtest.Page{host, spectator} {
					b.WaitFor(q, `document.querySelectorAll('[data-testid=steal] .dice li').length > 0`, 5*time.Second)
				}
				if txt := webtest.Eval[string](b, host, `document.querySelector('[data-testid=steal]').innerText`); !strings.Contains(txt, "steals") || !strings.Contains(txt, "blank") {
					t.Errorf("the host's steal panel says %q", txt)
				}
				b.Axe(p)
				b.Axe(host)
			}
		}
		if !checkedLogs && tried["place"] >= 6 {
			checkedLogs = true
			checkDrawnPrivate(t, b, ann, bob, host, spectator)
		}
	})
	elapsed := time.Since(start)
	stored := webtest.MovesFromAPI(t, s, links[0])
	t.Logf("%d moves through the pages in %v (from the start of the test): %v; the server stored %v", len(did), elapsed.Round(time.Millisecond), tried, stored)
	for _, typ := range []string{"place", "steal", "reroll", "captain", "stop"} {
		if tried[typ] != stored[typ] {
			t.Errorf("%s: %d through the pages, %d stored", typ, tried[typ], stored[typ])
		}
	}
	sameMoves(t, lthPageLog(did), lthMoveLog(t, s, links[0]))
	if odds == 0 || tried["reroll"]+tried["captain"] == 0 || stored["place"] < 5 {
		t.Errorf("the pages' moves %v: want steals with odds (%d), a re-roll or the captain", tried, odds)
	}
	b.WantFinalScore(s, links[0], ann, bob, host, spectator)
	for _, p := range []*webtest.Page{ann, bob, host, spectator} {
		if problems := webtest.Eval[[]string](b, p, `window.problems || []`); len(problems) > 0 {
			t.Errorf("%s was shown %q", p.Name, problems)
		}
	}
	if !checkedLogs || !axedDecide {
		t.Errorf("logs checked: %v; a failed roll checked with axe: %v", checkedLogs, axedDecide)
	}
	log := strings.Join(lthLog(b, host), "\n")
	for _, want := range []string{"The game has ended", "The pile is empty: last round", "’s turn (turn "} {
		if !strings.Contains(log, want) {
			t.Errorf("the host's log lacks %q:\n%s", want, log)
		}
	}
	b.Axe(ann)
}

// checkDrawnPrivate checks that each seat's log names the cards it drew and
// nobody else's log does: the host and the spectator read only how many.
func checkDrawnPrivate(t *testing.T, b *webtest.Browser, ann, bob, host, spectator *webtest.Page) {
	t.Helper()
	for _, p := range []*webtest.Page{ann, bob, host, spectator} {
		webtest.LTHSettled(b, p)
	}
	all := map[string]string{}
	for _, p := range []*webtest.Page{ann, bob, host, spectator} {
		all[p.Name] = strings.Join(lthLog(b, p), "\n")
	}
	for name, log := range all {
		own := map[string]bool{"ann": true, "bob": true}[name]
		if own && !strings.Contains(log, "You drew: ") {
			t.Errorf("%s's log does not name the cards drawn:\n%s", name, log)
		}
		if strings.Contains(log, "Ann drew: ") || strings.Contains(log, "Bob drew: ") || (!own && strings.Contains(log, "You drew")) {
			t.Errorf("%s's log names another seat's cards:\n%s", name, log)
		}
		for _, want := range []string{"placed", "tries to steal", "rolled"} {
			if !strings.Contains(log, want) {
				t.Errorf("%s's log lacks %q:\n%s", name, want, log)
			}
		}
		if !own && !regexp.MustCompile(`Ann drew \d cards?`).MatchString(log) {
			t.Errorf("%s's log does not count Ann's draws:\n%s", name, log)
		}
	}
}

// TestWebAppLuckyTreasureHunterPhysical plays a whole 2-player physical game
// of Lucky Treasure Hunter: the host's device reports the middle (its
// Report button waits for 3 cards) and every roll, some steals succeeding
// and some failing; Ann plays from a phone-sized screen that never scrolls
// sideways, Bob from his phone, and the host makes Bob's decisions after a
// failed roll for him (and his first two places). The seats see hand sizes,
// not hands, and wait for the host's report of each roll.
//
// The page offers no report or move the server would refuse: the listings
// bound places and re-rolls by the unseen cards and the hand's size, the
// Report button waits for 3 middle cards, the roll has one die per die
// rolled. What a player can still run into is a move from a device that
// missed the last move (Ann's tablet, off the network): the server refuses
// it (If-Match) and the page says so and shows the game as it stands.
func TestWebAppLuckyTreasureHunterPhysical(t *testing.T) {
	t.Parallel()
	start := time.Now()
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 120*time.Second)
	host, links := b.StartTable(s.HTTP.URL, "lucky-treasure-hunter", "physical", "Ann", "Bob")
	ann := b.Open("ann", links[0])
	b.Run(ann, chromedp.EmulateViewport(360, 740, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
	bob := b.Open("bob", links[1])
	webtest.Eval[chromedp.Void](b, host, `window.host = true; window.hostFor = true`)
	webtest.Eval[chromedp.Void](b, bob, `window.leaveDecide = true; window.leavePlace = true`)

	// The middle: nothing to report until 3 cards are chosen, and no fourth.
	b.WaitFor(host, `document.querySelector('section.action')?.dataset.state === 'middle'`, 10*time.Second)
	b.WaitFor(ann, `document.querySelector('section.action')?.dataset.state === 'wait-middle'`, 10*time.Second)
	noSideways(b, ann, "setup")
	b.Axe(host)
	disabled := func() bool {
		return webtest.Eval[bool](b, host, `document.querySelector('button[data-action=middle]').disabled`)
	}
	if !disabled() {
		t.Error("Report the middle is enabled with no card chosen")
	}
	webtest.Eval[chromedp.Void](b, host, `document.querySelector('[data-k=mid-more-ruby]').click(); document.querySelector('[data-k=mid-more-ruby]').click()`)
	if !disabled() {
		t.Error("Report the middle is enabled with 2 cards chosen")
	}
	webtest.Eval[chromedp.Void](b, host, `document.querySelector('[data-k=mid-more-jade]').click()`)
	if disabled() || !webtest.Eval[bool](b, host, `document.querySelector('[data-k=mid-more-silver]').disabled`) {
		t.Errorf("with 3 cards chosen, Report the middle is disabled (%v) or a fourth can be added:\n%s", disabled(), b.Text(host))
	}
	// Take them back: the loop chooses its own (1 silver, 2 gold).
	webtest.Eval[chromedp.Void](b, host, `for (const t of ['ruby', 'ruby', 'jade']) document.querySelector('[data-k=mid-less-' + t + ']').click()`)
	if !disabled() {
		t.Error("Report the middle is enabled after the cards were taken back")
	}

	tried := map[string]int{}
	rolls := map[string]int{}
	waited, stolen, failed := 0, 0, 0
	var stale *webtest.Page
	did := lthPlay(b, []*webtest.Page{host, ann, bob}, 75*time.Second, func(p *webtest.Page, did string) {
		typ := moveType(did)
		tried[typ]++
		if strings.HasPrefix(did, "for-Bob place") && webtest.Eval[int](b, host, `window.hostPlaced`) == 2 {
			// Bob places again once his phone has the host's place.
			b.WaitFor(bob, `document.querySelector('section.action')?.dataset.state !== 'place' && !document.body.dataset.loading`, 10*time.Second)
			webtest.Eval[chromedp.Void](b, bob, `window.leavePlace = false`)
		}
		if p == ann && typ == "place" && stale != nil {
			// Ann's tablet, whose live connection dropped, still offers
			// her the place she has just made on her phone: the server
			// refuses the move made on an old version, and the tablet
			// says so and shows the game as it stands.
			webtest.LTHSettled(b, ann)
			webtest.Eval[chromedp.Void](b, stale, `(() => {
				const q = (s) => document.querySelector(s);
				q('button[data-treasure]').click();
				q('button[data-count]').click();
				q('button[data-type=place][data-option]').click();
			})()`)
			b.WaitFor(stale, `document.querySelector('[data-testid=problem]').innerText.length > 0 && !document.body.dataset.busy`, 10*time.Second)
			if msg := webtest.Eval[string](b, stale, `document.querySelector('[data-testid=problem]').innerText`); !strings.Contains(msg, "moved on") {
				t.Errorf("the stale tablet's move was answered with %q", msg)
			}
			if st := webtest.Eval[string](b, stale, `document.querySelector('section.action')?.dataset.state`); st != "steal" {
				t.Errorf("after the refusal the tablet shows %q, not Ann's steal:\n%s\n%s", st, b.Text(stale),
					webtest.Eval[string](b, stale, `JSON.stringify(performance.getEntriesByType('resource').map((e) => [e.name.slice(-60), e.responseStatus, Math.round(e.startTime), Math.round(e.responseEnd)]))`))
			}
			stale = nil
		}
		switch {
		case typ == "lth_middle":
			b.WaitFor(ann, `document.querySelector('section.action')?.dataset.state === 'place'`, 10*time.Second)
			// The middle is drawn as the cards lie: a picture per treasure
			// with the set's size, no words to read.
			if got := webtest.Eval[string](b, ann, `[...document.querySelectorAll('.middle .tcard')].map((c) => c.getAttribute('aria-label') + (c.querySelector('svg.t-' + c.getAttribute('aria-label').split(' ').pop()) ? '' : ' undrawn')).join(', ')`); got != "a set of 1 silver, a set of 2 gold" {
				t.Errorf("Ann's screen shows the middle reported as %q:\n%s", got, b.Text(ann))
			}
			if n := webtest.Eval[int](b, ann, `document.querySelectorAll('[data-testid=hand-size]').length`); n != 2 || strings.Contains(b.Text(ann), "Hand:") {
				t.Errorf("Ann's screen shows %d hand sizes, or a hand:\n%s", n, b.Text(ann))
			}
			noSideways(b, ann, "place")
			b.Axe(ann)
			stale = openWithoutStream(b, "ann-tablet", links[0])
			b.WaitFor(stale, `document.querySelector('section.action')?.dataset.state === 'place'`, 10*time.Second)
		case typ == "steal" && p != host:
			if !regexp.MustCompile(`\d+% to take the set without discarding cards`).MatchString(did) {
				t.Errorf("a steal without its odds: %s", did)
			}
			// The roll is the table's: the seats wait for the host's report.
			for _, q := range []*webtest.Page{ann, bob} {
				b.WaitFor(q, `document.querySelector('section.action')?.dataset.state === 'wait-roll'`, 10*time.Second)
			}
			if waited++; waited == 1 {
				if txt := b.Text(p); !strings.Contains(txt, "Waiting for the host to report the roll") {
					t.Errorf("%s does not say it waits for the roll:\n%s", p.Name, txt)
				}
				b.WaitFor(host, `document.querySelector('section.action')?.dataset.state === 'roll'`, 10*time.Second)
				// The host reports one die per card of the set, no more.
				size := regexp.MustCompile(`(\d) [a-z]+ \| Roll`).FindStringSubmatch(did)
				if n := webtest.Eval[int](b, host, `document.querySelectorAll('button[data-die]').length`); size == nil || fmt.Sprint(n) != size[1] {
					t.Errorf("the host is asked for %d dice after %q", n, did)
				}
				b.Axe(host)
				noSideways(b, ann, "waiting for the roll")
			}
		case typ == "roll":
			rolls[did]++
			if strings.Contains(did, "blank") {
				failed++
			} else {
				stolen++
			}
		}
		if p == ann && failed > 0 && tried["reroll"]+tried["captain"] > 0 {
			webtest.LTHSettled(b, ann)
			noSideways(b, ann, did)
		}
	})
	elapsed := time.Since(start)
	stored := webtest.MovesFromAPI(t, s, links[0])
	t.Logf("%d steps through the pages in %v (from the start of the test): %v; rolls reported: %d taken, %d failed; the server stored %v",
		len(did), elapsed.Round(time.Millisecond), tried, stolen, failed, stored)
	for _, typ := range []string{"lth_middle", "roll", "place", "steal", "reroll", "captain", "stop"} {
		if tried[typ] != stored[typ] {
			t.Errorf("%s: %d through the pages, %d stored", typ, tried[typ], stored[typ])
		}
	}
	sameMoves(t, lthPageLog(did), lthMoveLog(t, s, links[0]))
	forBob := 0
	for _, d := range did {
		if strings.HasPrefix(d, "host: for-Bob ") {
			forBob++
		}
	}
	if stale != nil {
		t.Error("the stale tablet was never tried")
	}
	if stolen == 0 || failed == 0 || forBob < 3 || stored["reroll"]+stored["captain"] == 0 {
		t.Errorf("want steals taken (%d) and failed (%d), moves the host made for Bob (%d), a re-roll or the captain: %v", stolen, failed, forBob, stored)
	}
	b.WantFinalScore(s, links[0], host, ann, bob)
	for _, p := range []*webtest.Page{host, ann, bob} {
		if problems := webtest.Eval[[]string](b, p, `window.problems || []`); len(problems) > 0 {
			t.Errorf("%s was shown %q", p.Name, problems)
		}
	}
	noSideways(b, ann, "the end")
	b.Axe(bob)
}

// openWithoutStream opens a seat's link on a device whose event stream
// never connects (as on a phone that dropped off the network): the page
// shows the game as read when it opened.
func openWithoutStream(b *webtest.Browser, name, link string) *webtest.Page {
	b.T.Helper()
	// The events are blocked before the link is opened, as a person opens
	// it. (Opening the start page first and then changing the fragment
	// raced the start page: homePage draws the table form when
	// /v1/rulesets answers, over the game screen opened meanwhile.)
	p := b.Open(name, link, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, network.SetBlockedURLs, network.SetBlockedURLsParams{
			URLPatterns: []*network.BlockPattern{{URLPattern: "*://*:*/v1/games/*/events*", Block: true}}})
		return err
	}))
	b.WaitFor(p, `document.querySelector('.live')?.dataset.state !== undefined && document.querySelector('.live').dataset.state !== 'live' && !!document.querySelector('section.action')`, 10*time.Second)
	return p
}

// lthMoveLog is the game's move log as the API gives it (all of it, once
// the game has ended), one line per move: "place 5 silver", "roll
// pirate,blank", "lth_middle silver,gold,gold", or the move's type.
func lthMoveLog(t *testing.T, s *apitest.Server, link string) []string {
	t.Helper()
	id := strings.Split(strings.SplitN(link, "#/game/", 2)[1], "/")[0]
	r := s.Do(t, http.MethodGet, "/v1/games/"+id+"/moves", nil)
	var log struct {
		Moves []struct {
			Move struct {
				Type     string   `json:"type"`
				Treasure string   `json:"treasure"`
				Count    int      `json:"count"`
				Faces    []string `json:"faces"`
				Cards    []string `json:"cards"`
			} `json:"move"`
		} `json:"moves"`
	}
	if err := json.Unmarshal(r.Body, &log); err != nil {
		t.Fatalf("moves: %v %s", err, r.Body)
	}
	var out []string
	for _, m := range log.Moves {
		switch mv := m.Move; mv.Type {
		case "place":
			out = append(out, fmt.Sprintf("place %d %s", mv.Count, mv.Treasure))
		case "roll":
			out = append(out, "roll "+strings.Join(mv.Faces, ","))
		case "lth_middle":
			out = append(out, "lth_middle "+strings.Join(mv.Cards, ","))
		default:
			out = append(out, mv.Type)
		}
	}
	return out
}

// lthPageLog is what the pages did (lthPlay's lines), in the same form.
func lthPageLog(did []string) []string {
	place := regexp.MustCompile(`place Place (\d) ([a-z]+)`)
	var out []string
	for _, d := range did {
		d = d[strings.Index(d, ": ")+2:]
		typ := moveType(d)
		switch {
		case typ == "place":
			m := place.FindStringSubmatch(d)
			if m == nil {
				out = append(out, d)
				continue
			}
			out = append(out, "place "+m[1]+" "+m[2])
		case typ == "roll":
			out = append(out, d)
		case typ == "lth_middle":
			out = append(out, "lth_middle silver,gold,gold")
		default:
			out = append(out, typ)
		}
	}
	return out
}

// sameMoves compares the pages' moves with the API's log, in order.
func sameMoves(t *testing.T, pages, api []string) {
	t.Helper()
	if strings.Join(pages, "\n") != strings.Join(api, "\n") {
		t.Errorf("the pages made %d moves, the API's log has %d, or they differ:\npages: %q\napi:   %q", len(pages), len(api), pages, api)
	}
}
