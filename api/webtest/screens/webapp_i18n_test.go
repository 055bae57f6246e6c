package screens_test

import (
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api/webtest"

	"github.com/chromedp/chromedp"

	"github.com/treasury-games/treasury/api/apitest"
)

func TestMain(m *testing.M) { webtest.Main(m) }

// TestWebAppGerman plays a whole digital Silver & Gold game on phones set
// to German: the app speaks German from the start page to the final
// ranking, with no English sentence of its own on any screen.
func TestWebAppGerman(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 150*time.Second)
	b.Lang = "de-DE"
	words := []string{}
	noEnglish := func(p *webtest.Page, when string) {
		t.Helper()
		if found := webtest.EnglishOn(b, p, words); len(found) > 0 {
			t.Errorf("%s %s shows English: %q", p.Name, when, found)
		}
	}

	home := b.Open("home", s.HTTP.URL+"/")
	b.WaitFor(home, `!!document.querySelector('#name-1')`, 10*time.Second)
	if got := webtest.Eval[string](b, home, `document.documentElement.lang`); got != "de" {
		t.Errorf("<html lang> is %q on a German phone, want de", got)
	}
	text := b.Text(home)
	for _, want := range []string{"Tisch eröffnen", "Wie spielt ihr?", "Name von Spieler 1", "Auf den Handys"} {
		if !strings.Contains(text, want) {
			t.Errorf("the start page lacks %q:\n%s", want, text)
		}
	}
	noEnglish(home, "at the start")

	host, links := b.StartTable(s.HTTP.URL, "silver-and-gold", "digital", "Ann", "Bob")
	ann := b.Open("ann", links[0])
	bob := b.Open("bob", links[1])
	for _, p := range []*webtest.Page{host, ann, bob} {
		b.WaitFor(p, `document.querySelector('.live')?.dataset.state === 'live'`, 10*time.Second)
	}
	b.WaitFor(ann, `document.querySelector('section.action')?.dataset.state === 'keep'`, 10*time.Second)
	if text := b.Text(ann); !strings.Contains(text, "2 Schatzkarten aussuchen") || !strings.Contains(text, "Wertungskarten") {
		t.Errorf("Ann's screen is not in German:\n%s", text)
	}
	if text := b.Text(host); !strings.Contains(text, "Spieler einladen") || !strings.Contains(text, "Gastgeber") {
		t.Errorf("the host's screen is not in German:\n%s", text)
	}
	for _, p := range []*webtest.Page{host, ann, bob} {
		noEnglish(p, "at the first keep")
	}

	crossSeen := false
	b.PlayOut([]*webtest.Page{host, ann, bob}, 100*time.Second, func(p *webtest.Page, did string) {
		if crossSeen || p != bob || !strings.HasPrefix(did, "keep") {
			return
		}
		// The first crossing, as each seat is asked for it.
		if b.Seen(ann, `document.querySelector('section.action')?.dataset.state === 'cross' && !document.body.dataset.loading`, 5*time.Second) {
			crossSeen = true
			if text := b.Text(ann); !strings.Contains(text, "Kreuze") || !strings.Contains(text, "Expeditionskarte") {
				t.Errorf("Ann's crossing is not in German:\n%s", text)
			}
			noEnglish(ann, "while crossing")
		}
	})
	if !crossSeen {
		t.Error("Ann was never seen crossing")
	}
	want := webtest.ScoreFromAPI(t, s, links[0])
	for _, p := range []*webtest.Page{host, ann, bob} {
		got := b.FinalScore(p)
		for _, line := range want {
			if !strings.Contains(got, line) {
				t.Errorf("%s's final ranking lacks %q:\n%s", p.Name, line, got)
			}
		}
		if len(want) > 1 && !strings.Contains(got, "(weniger") && !strings.Contains(got, "(teilt sich den Platz mit") {
			t.Errorf("%s's final ranking does not say in German what decided the second place:\n%s", p.Name, got)
		}
		for _, de := range []string{"Endwertung", "Spieler", "Münzen", "Pokale", "Palmen", "Summe"} {
			if !strings.Contains(got, de) {
				t.Errorf("%s's final score lacks %q:\n%s", p.Name, de, got)
			}
		}
		text := b.Text(p)
		for _, de := range []string{"Noch ein Spiel?", "Was passiert ist", "Das Spiel ist zu Ende"} {
			if !strings.Contains(text, de) {
				t.Errorf("%s's end screen lacks %q:\n%s", p.Name, de, text)
			}
		}
		noEnglish(p, "at the end")
	}

	// The log is said again in the language switched to, and back.
	firstLine := `document.querySelector('section.log li')?.innerText`
	for _, st := range []struct{ lang, line string }{
		{"en", "The game has ended: see the final score."},
		{"de", "Das Spiel ist zu Ende: Sieh dir die Endwertung an."},
	} {
		b.Run(ann, chromedp.Click(chromedp.CSS(`header button[data-lang=`+st.lang+`]`)))
		b.WaitFor(ann, firstLine+` === '`+st.line+`' && document.documentElement.lang === '`+st.lang+`'`, 10*time.Second)
	}
}

// TestWebAppLanguageSwitch switches a screen DE → EN → DE with the
// switch at its top: the words change each time, <html lang> follows, and
// the choice outlives a reload on the device.
func TestWebAppLanguageSwitch(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 40*time.Second)
	p := b.Open("home", s.HTTP.URL+"/")
	b.WaitFor(p, `!!document.querySelector('#name-1')`, 10*time.Second)
	heading := `document.querySelector('#new-h')?.innerText`
	if got := webtest.Eval[string](b, p, heading); got != "Start a table" {
		t.Fatalf("an English browser's start page says %q", got)
	}
	steps := []struct{ lang, heading, label string }{
		{"de", "Tisch eröffnen", "Name von Spieler 1"},
		{"en", "Start a table", "Player 1's name"},
		{"de", "Tisch eröffnen", "Name von Spieler 1"},
	}
	for _, st := range steps {
		recordLanguages(b, p)
		b.Run(p, chromedp.Click(chromedp.CSS(`header button[data-lang=`+st.lang+`]`)))
		b.WaitFor(p, heading+` === '`+st.heading+`' && document.documentElement.lang === '`+st.lang+`'`, 10*time.Second)
		if got := webtest.Eval[string](b, p, `document.querySelector('label[for=name-0]').innerText`); got != st.label {
			t.Errorf("after switching to %s the first name's label says %q, want %q", st.lang, got, st.label)
		}
		if got := webtest.Eval[string](b, p, `document.querySelector('header button[aria-pressed=true]').dataset.lang`); got != st.lang {
			t.Errorf("after switching to %s the switch shows %s as chosen", st.lang, got)
		}
		sentIn(b, p, st.lang, "/v1/rulesets")
	}
	b.Run(p, chromedp.Reload())
	b.WaitFor(p, heading+` === 'Tisch eröffnen'`, 10*time.Second)
	b.Axe(p)

	// A game's screen switches too, reading the game again: its heading,
	// its invitations and the live line.
	host, _ := b.StartTable(s.HTTP.URL, "silver-and-gold", "digital", "Ann", "Bob")
	b.WaitFor(host, `document.querySelector('.live')?.dataset.state === 'live'`, 10*time.Second)
	invites := `document.querySelector('summary[data-k=invites]')?.innerText`
	for _, st := range []struct{ lang, invites, live, h1 string }{
		{"de", "Spieler einladen: ein Link pro Platz", "Live: Züge erscheinen, sobald sie passieren.", "Silver & Gold · Gastgeber"},
		{"en", "Invite the players: one link per seat", "Live: moves appear as they happen.", "Silver & Gold · Host"},
		{"de", "Spieler einladen: ein Link pro Platz", "Live: Züge erscheinen, sobald sie passieren.", "Silver & Gold · Gastgeber"},
	} {
		recordLanguages(b, host)
		b.Run(host, chromedp.Click(chromedp.CSS(`header button[data-lang=`+st.lang+`]`)))
		b.WaitFor(host, invites+` === '`+st.invites+`' && document.querySelector('main h1')?.innerText === '`+st.h1+`'`, 10*time.Second)
		b.WaitFor(host, `document.querySelector('.live')?.innerText === '`+st.live+`'`, 10*time.Second)
		sentIn(b, host, st.lang, "/v1/games/", "/legal-moves", "/events")
	}
}

// recordLanguages records the Accept-Language of every request the page
// sends from now on, with the language the page showed as it sent it
// (window.sent: [url, Accept-Language, <html lang>]).
func recordLanguages(b *webtest.Browser, p *webtest.Page) {
	b.T.Helper()
	webtest.Eval[chromedp.Void](b, p, `(() => {
		window.sent = [];
		if (window.fetchBefore) return;
		window.fetchBefore = window.fetch;
		window.fetch = (u, o) => {
			const hs = (o && o.headers) || {};
			window.sent.push([String(u), hs['Accept-Language'] || '', document.documentElement.lang]);
			return window.fetchBefore(u, o);
		};
	})()`)
}

// sentIn checks that the page, once it shows lang, asks the API in lang:
// requests to each of paths (waiting for them: a screen reads again when
// its language changes) and every other. (A request sent just before the
// switch, as a live event came, is in the language shown then.)
func sentIn(b *webtest.Browser, p *webtest.Page, lang string, paths ...string) {
	b.T.Helper()
	after := `window.sent.filter(([u, , shown]) => u.includes('/v1/') && shown === '` + lang + `')`
	for _, path := range paths {
		b.WaitFor(p, after+`.some(([u]) => u.includes('`+path+`'))`, 10*time.Second)
	}
	for _, s := range webtest.Eval[[][]string](b, p, after) {
		if s[1] != lang {
			b.T.Errorf("%s asked %s in %q after switching to %s", p.Name, s[0], s[1], lang)
		}
	}
}

// TestWebAppGermanScreens opens every game's screens (the host's and a
// seat's, digital and with real cards) on phones set to German: no English
// sentence of the app's own on any of them.
func TestWebAppGermanScreens(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 120*time.Second)
	b.Lang = "de-DE"
	words := []string{}
	for _, ruleset := range []string{"silver-and-gold", "lucky-treasure-hunter", "colorful-treasure"} {
		for _, mode := range []string{"digital", "physical"} {
			host, links := b.StartTable(s.HTTP.URL, ruleset, mode, "Ann", "Bob")
			ann := b.Open("ann", links[0])
			for _, p := range []*webtest.Page{host, ann} {
				b.WaitFor(p, `document.querySelector('.live')?.dataset.state === 'live' && !document.body.dataset.loading`, 10*time.Second)
				if found := webtest.EnglishOn(b, p, words); len(found) > 0 {
					t.Errorf("%s of a %s %s game shows English: %q", p.Name, mode, ruleset, found)
				}
			}
		}
	}
	// The other screens: the score-sheet check of each game (advanced
	// Colorful Treasure shows every field), joining, groups.
	other := b.Open("other", s.HTTP.URL+"/#/join")
	for _, screen := range []struct{ hash, ready string }{
		{"#/join", `!!document.querySelector('#join-code')`},
		{"#/group", `!!document.querySelector('#group-name')`},
		{"#/sheet/silver-and-gold", `!!document.querySelector('#p0-coins')`},
		{"#/sheet/lucky-treasure-hunter", `!!document.querySelector('#players-at-table')`},
		{"#/sheet/colorful-treasure", `!!document.querySelector('#variant')`},
	} {
		webtest.Eval[chromedp.Void](b, other, `location.hash = '`+screen.hash+`'`)
		b.WaitFor(other, screen.ready, 10*time.Second)
		if screen.hash == "#/sheet/colorful-treasure" {
			webtest.Eval[chromedp.Void](b, other, `(() => { const v = document.querySelector('#variant'); v.value = 'advanced'; v.dispatchEvent(new Event('change')); })()`)
			b.WaitFor(other, `!!document.querySelector('[data-k=p0-action-peek_two]')`, 10*time.Second)
		}
		if found := webtest.EnglishOn(b, other, words); len(found) > 0 {
			t.Errorf("%s shows English: %q", screen.hash, found)
		}
	}
}
