package night_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api/webtest"

	"github.com/chromedp/chromedp"

	"github.com/treasury-games/treasury/api/apitest"
)

func TestMain(m *testing.M) { webtest.Main(m) }

// nightPlay steps the pages with a ruleset's step script (see step,
// lthStep, ctStep) until every one shows the final score; hook runs after
// each step that did something and may hand back the pages to go on with
// (a phone lost and replaced).
func nightPlay(b *webtest.Browser, pages []*webtest.Page, stepJS string, within time.Duration, hook func(p *webtest.Page, did string) []*webtest.Page) {
	b.T.Helper()
	deadline := time.Now().Add(webtest.Patient(within))
	idle := time.Now()
	steps := 0
	for {
		done, acted := 0, false
		for _, p := range pages {
			did := webtest.Eval[string](b, p, stepJS)
			switch {
			case did == "done":
				done++
			case did != "" && did != "busy":
				acted = true
				steps++
				idle = time.Now()
				if hook != nil {
					if next := hook(p, did); next != nil {
						pages = next
					}
				}
			case did == "busy":
				idle = time.Now()
			}
		}
		if done == len(pages) {
			return
		}
		if time.Now().After(deadline) || time.Since(idle) > webtest.Patient(15*time.Second) {
			for _, p := range pages {
				b.T.Logf("%s shows:\n%s", p.Name, b.Text(p))
			}
			b.T.Fatalf("the game did not end after %d steps", steps)
		}
		if !acted {
			webtest.Idle(b, pages...)
		}
	}
}

// joinByCode is a player's phone opening the join page, typing the code as
// heard (lower case, a space in the middle) and tapping their name.
func joinByCode(b *webtest.Browser, base, name, code string, seat int) *webtest.Page {
	b.T.Helper()
	p := b.Open(name, base+"/#/join")
	typed := strings.ToLower(code[:3] + " " + code[3:])
	b.Run(p, chromedp.SendKeys(chromedp.CSS(`#join-code`), typed), chromedp.Click(chromedp.CSS(`button[data-k=join-find]`)))
	b.WaitFor(p, fmt.Sprintf(`!!document.querySelector('button[data-join-seat="%d"]:not([disabled])')`, seat), 10*time.Second)
	b.Run(p, chromedp.Click(chromedp.CSS(fmt.Sprintf(`button[data-join-seat="%d"]`, seat))))
	b.WaitFor(p, `location.hash.startsWith('#/game/') && location.hash.includes('/seat/') && !!document.querySelector('.live') && document.querySelector('.live').dataset.state === 'live'`, 15*time.Second)
	return p
}

// gameOf is the game id and credential in a page's address.
func gameOf(b *webtest.Browser, p *webtest.Page) (id, role, cred string) {
	parts := strings.Split(strings.TrimPrefix(webtest.Eval[string](b, p, `decodeURIComponent(location.hash)`), "#/game/"), "/")
	for len(parts) < 3 {
		parts = append(parts, "")
	}
	return parts[0], parts[1], parts[2]
}

// TestWebAppGameNight plays an evening at the table in each ruleset: two
// players join by typing the code the host's screen shows, one phone is
// lost mid-game and the host gives its seat a new link (the old phone is
// told and stops; a new one scans the link and plays on), and at the end
// the host's "Play again" moves every phone to the next game, with the same
// players and the next start player.
func TestWebAppGameNight(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	for _, tc := range []struct {
		ruleset, step string
		setup         string
		// seats are Ann's and Ben's seats in the next game; starter is
		// the option naming its start player (the first game's is 0).
		seats   [2]int
		starter string
	}{
		{ruleset: "silver-and-gold", step: webtest.Step, seats: [2]int{1, 0}}, // no start option: everyone one seat on
		{ruleset: "lucky-treasure-hunter", step: webtest.LTHStep, seats: [2]int{0, 1}, starter: "captain_heart"},
		{ruleset: "colorful-treasure", step: webtest.CTStep, setup: `const v = document.querySelector('#opt-variant'); v.value = 'junior';`, seats: [2]int{0, 1}, starter: "start_player"},
	} {
		t.Run(tc.ruleset, func(t *testing.T) {
			b := webtest.NewBrowser(t, 150*time.Second)
			host, links := b.StartTableWith(s.HTTP.URL, tc.ruleset, "digital", tc.setup, "Ann", "Ben")

			// The host shows the join code; the players type it.
			tap(b, host, `button[data-action=show-join-code]`)
			b.WaitFor(host, `!!document.querySelector('[data-testid=join-code]')`, 10*time.Second)
			code := strings.ReplaceAll(webtest.Eval[string](b, host, `document.querySelector('[data-testid=join-code]').innerText`), " ", "")
			if !regexp.MustCompile(`^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$`).MatchString(code) {
				t.Fatalf("the host shows code %q", code)
			}
			if n := webtest.Eval[int](b, host, `document.querySelectorAll('.host-tools img[src^="data:image/gif"]').length`); n != 1 {
				t.Errorf("the host shows %d QR codes of the join page", n)
			}
			ann := joinByCode(b, s.HTTP.URL, "ann", code, 0)
			ben := joinByCode(b, s.HTTP.URL, "ben", code, 1)
			oldID, _, annCred := gameOf(b, ann)
			if strings.Contains(links[0], annCred) {
				t.Fatal("the seat picked by code kept the host's link")
			}
			b.Axe(ann)

			// Ann's phone dies after a few moves; the host gives her seat a
			// new link, which she opens on another phone.
			moves, lost := 0, false
			var ann2 *webtest.Page
			nightPlay(b, []*webtest.Page{ann, ben}, tc.step, 120*time.Second, func(p *webtest.Page, did string) []*webtest.Page {
				moves++
				if lost || moves < 4 {
					return nil
				}
				lost = true
				// Two taps (the host's screen redraws as moves arrive: a tap
				// is a click on the button as it is now).
				tap(b, host, `button[data-reissue="0"]`)
				b.WaitFor(host, `document.querySelector('button[data-reissue="0"]').innerText.startsWith('Yes')`, 5*time.Second)
				tap(b, host, `button[data-reissue="0"]`)
				b.WaitFor(host, `(() => { const a = document.querySelector('a[data-seat-link="0"]'); return !!a && !a.href.includes(`+webtest.JSString(annCred)+`) && a.href !== `+webtest.JSString(links[0])+`; })()`, 10*time.Second)
				link := webtest.Eval[string](b, host, `document.querySelector('a[data-seat-link="0"]').href`)
				b.WaitFor(ann, `document.querySelector('.live').innerText.includes('another device')`, 10*time.Second)
				if r := s.Do(t, http.MethodGet, "/v1/games/"+oldID+"/legal-moves", nil, apitest.Cred(annCred)); r.Status != http.StatusUnauthorized {
					t.Errorf("the lost phone's credential: %d", r.Status)
				}
				ann2 = b.Open("ann2", link)
				b.WaitFor(ann2, `document.querySelector('.live')?.dataset.state === 'live'`, 10*time.Second)
				return []*webtest.Page{ann2, ben}
			})
			if !lost {
				t.Fatal("no phone was lost")
			}
			b.WaitFor(host, `!!document.querySelector('[data-testid=final]')`, 10*time.Second)

			// Play again: one tap on the host's final screen moves every phone.
			b.WaitFor(host, `!!document.querySelector('button[data-action=play-again]')`, 5*time.Second)
			tap(b, host, `button[data-action=play-again]`)
			moved := `location.hash.startsWith('#/game/') && !decodeURIComponent(location.hash).startsWith('#/game/` + oldID + `/') && !!document.querySelector('main h1') && !document.querySelector('[data-testid=final]')`
			for _, p := range []*webtest.Page{host, ann2, ben} {
				b.WaitFor(p, moved, 15*time.Second)
			}
			newID, role, _ := gameOf(b, host)
			if role != "host" || newID == oldID {
				t.Fatalf("the host's page is at %s %s", newID, role)
			}
			for i, p := range []*webtest.Page{ann2, ben} {
				id, role, c := gameOf(b, p)
				if id != newID || role != "seat" {
					t.Fatalf("%s is at game %s as %s, not %s", p.Name, id, role, newID)
				}
				r := s.Do(t, http.MethodGet, "/v1/games/"+newID+"/legal-moves", nil, apitest.Cred(c))
				apitest.WantStatus(t, r, http.StatusOK)
				if got := apitest.Decode[struct {
					Seat int `json:"seat"`
				}](t, r.Body).Seat; got != tc.seats[i] {
					t.Errorf("%s plays seat %d of the next game, want %d", p.Name, got, tc.seats[i])
				}
			}
			old := apitest.Decode[gameOptions](t, s.Do(t, http.MethodGet, "/v1/games/"+oldID, nil).Body)
			next := apitest.Decode[gameOptions](t, s.Do(t, http.MethodGet, "/v1/games/"+newID, nil).Body)
			for k, v := range old.Options {
				if k == tc.starter {
					if next.Options[k] != float64(1) {
						t.Errorf("the next game's %s is %v, want 1 (the seat after 0)", k, next.Options[k])
					}
				} else if next.Options[k] != v {
					t.Errorf("the next game's option %s is %v, not %v", k, next.Options[k], v)
				}
			}
			// The others have moved on: the lost phone, had it still followed
			// the table, would have heard the same event by now.
			if webtest.Eval[bool](b, ann, `location.hash.includes('`+newID+`')`) {
				t.Error("the lost phone followed the table to the next game")
			}

			// Ann's tables: game and player names, and which game ended.
			b.Run(ann2, chromedp.Navigate(s.HTTP.URL+"/#/"))
			b.WaitFor(ann2, `[...document.querySelectorAll('.tables li')].some((li) => li.innerText.includes('playing as Ann') && li.querySelector('[data-table-state=ended]'))`, 10*time.Second)
			b.WaitFor(ann2, `[...document.querySelectorAll('.tables li')].some((li) => li.innerText.includes('playing as Ann') && li.querySelector('[data-table-state=playing]'))`, 10*time.Second)
			if txt := webtest.Eval[string](b, ann2, `document.querySelector('.tables').innerText`); strings.Contains(txt, oldID) || strings.Contains(txt, newID) {
				t.Errorf("the list shows raw ids:\n%s", txt)
			}
		})
	}
}

// tap clicks the element the selector finds now.
func tap(b *webtest.Browser, p *webtest.Page, selector string) {
	b.T.Helper()
	if !webtest.Eval[bool](b, p, `(() => { const el = document.querySelector(`+webtest.JSString(selector)+`); if (el) el.click(); return !!el; })()`) {
		b.T.Fatalf("%s: nothing to tap at %s\n%s", p.Name, selector, b.Text(p))
	}
}

// gameOptions is what a game answer says of the game's options.
type gameOptions struct {
	Options map[string]any `json:"options"`
}
