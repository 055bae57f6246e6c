package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// nightPlay steps the pages with a ruleset's step script (see step,
// lthStep, ctStep) until every one shows the final score; hook runs after
// each step that did something and may hand back the pages to go on with
// (a phone lost and replaced).
func nightPlay(b *browser, pages []*page, stepJS string, within time.Duration, hook func(p *page, did string) []*page) {
	b.t.Helper()
	deadline := time.Now().Add(patient(within))
	idle := time.Now()
	steps := 0
	for {
		done, acted := 0, false
		for _, p := range pages {
			did := eval[string](b, p, stepJS)
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
		if time.Now().After(deadline) || time.Since(idle) > patient(15*time.Second) {
			for _, p := range pages {
				b.t.Logf("%s shows:\n%s", p.name, b.text(p))
			}
			b.t.Fatalf("the game did not end after %d steps", steps)
		}
		if !acted {
			time.Sleep(25 * time.Millisecond)
		}
	}
}

// joinByCode is a player's phone opening the join page, typing the code as
// heard (lower case, a space in the middle) and tapping their name.
func joinByCode(b *browser, base, name, code string, seat int) *page {
	b.t.Helper()
	p := b.open(name, base+"/#/join")
	typed := strings.ToLower(code[:3] + " " + code[3:])
	b.run(p, chromedp.SendKeys(chromedp.CSS(`#join-code`), typed), chromedp.Click(chromedp.CSS(`button[data-k=join-find]`)))
	b.waitFor(p, fmt.Sprintf(`!!document.querySelector('button[data-join-seat="%d"]:not([disabled])')`, seat), 10*time.Second)
	b.run(p, chromedp.Click(chromedp.CSS(fmt.Sprintf(`button[data-join-seat="%d"]`, seat))))
	b.waitFor(p, `location.hash.startsWith('#/game/') && location.hash.includes('/seat/') && !!document.querySelector('.live') && document.querySelector('.live').dataset.state === 'live'`, 15*time.Second)
	return p
}

// gameOf is the game id and credential in a page's address.
func gameOf(b *browser, p *page) (id, role, cred string) {
	parts := strings.Split(strings.TrimPrefix(eval[string](b, p, `decodeURIComponent(location.hash)`), "#/game/"), "/")
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
	s := newServer(t)
	for _, tc := range []struct {
		ruleset, step string
		setup         string
		// seats are Ann's and Ben's seats in the next game; starter is
		// the option naming its start player (the first game's is 0).
		seats   [2]int
		starter string
	}{
		{ruleset: "silver-and-gold", step: step, seats: [2]int{1, 0}}, // no start option: everyone one seat on
		{ruleset: "lucky-treasure-hunter", step: lthStep, seats: [2]int{0, 1}, starter: "captain_heart"},
		{ruleset: "colorful-treasure", step: ctStep, setup: `const v = document.querySelector('#opt-variant'); v.value = 'junior';`, seats: [2]int{0, 1}, starter: "start_player"},
	} {
		t.Run(tc.ruleset, func(t *testing.T) {
			b := newBrowser(t, 150*time.Second)
			host, links := b.startTableWith(s.http.URL, tc.ruleset, "digital", tc.setup, "Ann", "Ben")

			// The host shows the join code; the players type it.
			tap(b, host, `button[data-action=show-join-code]`)
			b.waitFor(host, `!!document.querySelector('[data-testid=join-code]')`, 10*time.Second)
			code := strings.ReplaceAll(eval[string](b, host, `document.querySelector('[data-testid=join-code]').innerText`), " ", "")
			if !joinCodeFormat.MatchString(code) {
				t.Fatalf("the host shows code %q", code)
			}
			if n := eval[int](b, host, `document.querySelectorAll('.host-tools img[src^="data:image/gif"]').length`); n != 1 {
				t.Errorf("the host shows %d QR codes of the join page", n)
			}
			ann := joinByCode(b, s.http.URL, "ann", code, 0)
			ben := joinByCode(b, s.http.URL, "ben", code, 1)
			oldID, _, annCred := gameOf(b, ann)
			if strings.Contains(links[0], annCred) {
				t.Fatal("the seat picked by code kept the host's link")
			}
			b.axe(ann)

			// Ann's phone dies after a few moves; the host gives her seat a
			// new link, which she opens on another phone.
			moves, lost := 0, false
			var ann2 *page
			nightPlay(b, []*page{ann, ben}, tc.step, 120*time.Second, func(p *page, did string) []*page {
				moves++
				if lost || moves < 4 {
					return nil
				}
				lost = true
				// Two taps (the host's screen redraws as moves arrive: a tap
				// is a click on the button as it is now).
				tap(b, host, `button[data-reissue="0"]`)
				b.waitFor(host, `document.querySelector('button[data-reissue="0"]').innerText.startsWith('Yes')`, 5*time.Second)
				tap(b, host, `button[data-reissue="0"]`)
				b.waitFor(host, `(() => { const a = document.querySelector('a[data-seat-link="0"]'); return !!a && !a.href.includes(`+jsString(annCred)+`) && a.href !== `+jsString(links[0])+`; })()`, 10*time.Second)
				link := eval[string](b, host, `document.querySelector('a[data-seat-link="0"]').href`)
				b.waitFor(ann, `document.querySelector('.live').innerText.includes('another device')`, 10*time.Second)
				if r := s.do(t, http.MethodGet, "/v1/games/"+oldID+"/legal-moves", nil, cred(annCred)); r.Status != http.StatusUnauthorized {
					t.Errorf("the lost phone's credential: %d", r.Status)
				}
				ann2 = b.open("ann2", link)
				b.waitFor(ann2, `document.querySelector('.live')?.dataset.state === 'live'`, 10*time.Second)
				return []*page{ann2, ben}
			})
			if !lost {
				t.Fatal("no phone was lost")
			}
			b.waitFor(host, `!!document.querySelector('[data-testid=final]')`, 10*time.Second)

			// Play again: one tap on the host's final screen moves every phone.
			b.waitFor(host, `!!document.querySelector('button[data-action=play-again]')`, 5*time.Second)
			tap(b, host, `button[data-action=play-again]`)
			moved := `location.hash.startsWith('#/game/') && !decodeURIComponent(location.hash).startsWith('#/game/` + oldID + `/') && !!document.querySelector('main h1') && !document.querySelector('[data-testid=final]')`
			for _, p := range []*page{host, ann2, ben} {
				b.waitFor(p, moved, 15*time.Second)
			}
			newID, role, _ := gameOf(b, host)
			if role != "host" || newID == oldID {
				t.Fatalf("the host's page is at %s %s", newID, role)
			}
			for i, p := range []*page{ann2, ben} {
				id, role, c := gameOf(b, p)
				if id != newID || role != "seat" {
					t.Fatalf("%s is at game %s as %s, not %s", p.name, id, role, newID)
				}
				r := s.do(t, http.MethodGet, "/v1/games/"+newID+"/legal-moves", nil, cred(c))
				wantStatus(t, r, http.StatusOK)
				if got := decode[struct {
					Seat int `json:"seat"`
				}](t, r.Body).Seat; got != tc.seats[i] {
					t.Errorf("%s plays seat %d of the next game, want %d", p.name, got, tc.seats[i])
				}
			}
			old := decode[nextHeadJSON](t, s.do(t, http.MethodGet, "/v1/games/"+oldID, nil).Body)
			next := decode[nextHeadJSON](t, s.do(t, http.MethodGet, "/v1/games/"+newID, nil).Body)
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
			if eval[bool](b, ann, `location.hash.includes('`+newID+`')`) {
				t.Error("the lost phone followed the table to the next game")
			}

			// Ann's tables: game and player names, and which game ended.
			b.run(ann2, chromedp.Navigate(s.http.URL+"/#/"))
			b.waitFor(ann2, `[...document.querySelectorAll('.tables li')].some((li) => li.innerText.includes('playing as Ann') && li.querySelector('[data-table-state=ended]'))`, 10*time.Second)
			b.waitFor(ann2, `[...document.querySelectorAll('.tables li')].some((li) => li.innerText.includes('playing as Ann') && li.querySelector('[data-table-state=playing]'))`, 10*time.Second)
			if txt := eval[string](b, ann2, `document.querySelector('.tables').innerText`); strings.Contains(txt, oldID) || strings.Contains(txt, newID) {
				t.Errorf("the list shows raw ids:\n%s", txt)
			}
		})
	}
}

// tap clicks the element the selector finds now.
func tap(b *browser, p *page, selector string) {
	b.t.Helper()
	if !eval[bool](b, p, `(() => { const el = document.querySelector(`+jsString(selector)+`); if (el) el.click(); return !!el; })()`) {
		b.t.Fatalf("%s: nothing to tap at %s\n%s", p.name, selector, b.text(p))
	}
}
