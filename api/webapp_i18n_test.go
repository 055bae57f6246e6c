package api_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// preferLanguage makes a tab prefer lang as a browser set to it does:
// navigator.languages and the Accept-Language header.
func preferLanguage(lang string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		ua, err := chromedp.Evaluate[string](`navigator.userAgent`)(ctx, tg)
		if err != nil {
			return err
		}
		_, err = cdp.Call(ctx, tg, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: lang})
		return err
	})
}

// englishOn lists the lines of a page (its text, and the names and
// descriptions it gives assistive technology) that read as English: a
// small detector of English function words and game words that German
// never uses. The server writes its words in the page's language too, so
// nothing is left out but words.
func englishOn(b *browser, p *page, words []string) []string {
	b.t.Helper()
	w, _ := json.Marshal(words)
	return eval[[]string](b, p, `(() => {
	const root = document.body.cloneNode(true);
	for (const el of root.querySelectorAll('script, style')) el.remove();
	const lines = [document.title];
	const walk = (el) => {
	  for (const a of ['aria-label', 'alt', 'title']) if (el.getAttribute && el.getAttribute(a)) lines.push(el.getAttribute(a));
	  for (const c of el.childNodes) {
	    if (c.nodeType === 3) lines.push(c.textContent);
	    else if (c.nodeType === 1) walk(c);
	  }
	};
	walk(root);
	const server = `+string(w)+`.filter(Boolean).sort((a, b) => b.length - a.length);
	const english = /\b(the|and|you|your|of|to|is|are|with|from|this|that|has|have|card|cards|turn|round|score|player|players|waiting|take|cross|crossed|keep|kept|choose|tap|game|seat|host|play|again|box|boxes|coin|coins|palm|palms|cup|cups|seal|display|what|happened|who|copy|invite|report|nothing|left|total|final|than|fewer|shares|place|points|none|used|more|will|can|may|not|on|off|over|here|there|now|yet|new)\b/i;
	const out = [];
	for (let l of lines) {
	  for (const w of server) l = l.split(w).join('');
	  if (english.test(l)) out.push(l.trim());
	}
	return [...new Set(out)];
	})()`)
}

// TestWebAppGerman plays a whole digital Silver & Gold game on phones set
// to German: the app speaks German from the start page to the final
// ranking, with no English sentence of its own on any screen.
func TestWebAppGerman(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	b := newBrowser(t, 150*time.Second)
	b.lang = "de-DE"
	words := []string{}
	noEnglish := func(p *page, when string) {
		t.Helper()
		if found := englishOn(b, p, words); len(found) > 0 {
			t.Errorf("%s %s shows English: %q", p.name, when, found)
		}
	}

	home := b.open("home", s.http.URL+"/")
	b.waitFor(home, `!!document.querySelector('#name-1')`, 10*time.Second)
	if got := eval[string](b, home, `document.documentElement.lang`); got != "de" {
		t.Errorf("<html lang> is %q on a German phone, want de", got)
	}
	text := b.text(home)
	for _, want := range []string{"Tisch eröffnen", "Wie spielt ihr?", "Name von Spieler 1", "Auf den Handys"} {
		if !strings.Contains(text, want) {
			t.Errorf("the start page lacks %q:\n%s", want, text)
		}
	}
	noEnglish(home, "at the start")

	host, links := b.startTable(s.http.URL, "silver-and-gold", "digital", "Ann", "Bob")
	ann := b.open("ann", links[0])
	bob := b.open("bob", links[1])
	for _, p := range []*page{host, ann, bob} {
		b.waitFor(p, `document.querySelector('.live')?.dataset.state === 'live'`, 10*time.Second)
	}
	b.waitFor(ann, `document.querySelector('section.action')?.dataset.state === 'keep'`, 10*time.Second)
	if text := b.text(ann); !strings.Contains(text, "2 Schatzkarten aussuchen") || !strings.Contains(text, "Wertungskarten") {
		t.Errorf("Ann's screen is not in German:\n%s", text)
	}
	if text := b.text(host); !strings.Contains(text, "Spieler einladen") || !strings.Contains(text, "Gastgeber") {
		t.Errorf("the host's screen is not in German:\n%s", text)
	}
	for _, p := range []*page{host, ann, bob} {
		noEnglish(p, "at the first keep")
	}

	crossSeen := false
	b.playOut([]*page{host, ann, bob}, 100*time.Second, func(p *page, did string) {
		if crossSeen || p != bob || !strings.HasPrefix(did, "keep") {
			return
		}
		// The first crossing, as each seat is asked for it.
		if b.seen(ann, `document.querySelector('section.action')?.dataset.state === 'cross' && !document.body.dataset.loading`, 5*time.Second) {
			crossSeen = true
			if text := b.text(ann); !strings.Contains(text, "Kreuze") || !strings.Contains(text, "Expeditionskarte") {
				t.Errorf("Ann's crossing is not in German:\n%s", text)
			}
			noEnglish(ann, "while crossing")
		}
	})
	if !crossSeen {
		t.Error("Ann was never seen crossing")
	}
	want := scoreFromAPI(t, s, links[0])
	for _, p := range []*page{host, ann, bob} {
		got := b.finalScore(p)
		for _, line := range want {
			if !strings.Contains(got, line) {
				t.Errorf("%s's final ranking lacks %q:\n%s", p.name, line, got)
			}
		}
		if len(want) > 1 && !strings.Contains(got, "(weniger") && !strings.Contains(got, "(teilt sich den Platz mit") {
			t.Errorf("%s's final ranking does not say in German what decided the second place:\n%s", p.name, got)
		}
		for _, de := range []string{"Endwertung", "Spieler", "Münzen", "Pokale", "Palmen", "Summe"} {
			if !strings.Contains(got, de) {
				t.Errorf("%s's final score lacks %q:\n%s", p.name, de, got)
			}
		}
		text := b.text(p)
		for _, de := range []string{"Noch ein Spiel?", "Was passiert ist", "Das Spiel ist zu Ende"} {
			if !strings.Contains(text, de) {
				t.Errorf("%s's end screen lacks %q:\n%s", p.name, de, text)
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
		b.run(ann, chromedp.Click(chromedp.CSS(`header button[data-lang=`+st.lang+`]`)))
		b.waitFor(ann, firstLine+` === '`+st.line+`' && document.documentElement.lang === '`+st.lang+`'`, 10*time.Second)
	}
}

// TestWebAppLanguageSwitch switches a screen DE → EN → DE with the
// switch at its top: the words change each time, <html lang> follows, and
// the choice outlives a reload on the device.
func TestWebAppLanguageSwitch(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	b := newBrowser(t, 40*time.Second)
	p := b.open("home", s.http.URL+"/")
	b.waitFor(p, `!!document.querySelector('#name-1')`, 10*time.Second)
	heading := `document.querySelector('#new-h')?.innerText`
	if got := eval[string](b, p, heading); got != "Start a table" {
		t.Fatalf("an English browser's start page says %q", got)
	}
	steps := []struct{ lang, heading, label string }{
		{"de", "Tisch eröffnen", "Name von Spieler 1"},
		{"en", "Start a table", "Player 1's name"},
		{"de", "Tisch eröffnen", "Name von Spieler 1"},
	}
	for _, st := range steps {
		recordLanguages(b, p)
		b.run(p, chromedp.Click(chromedp.CSS(`header button[data-lang=`+st.lang+`]`)))
		b.waitFor(p, heading+` === '`+st.heading+`' && document.documentElement.lang === '`+st.lang+`'`, 10*time.Second)
		if got := eval[string](b, p, `document.querySelector('label[for=name-0]').innerText`); got != st.label {
			t.Errorf("after switching to %s the first name's label says %q, want %q", st.lang, got, st.label)
		}
		if got := eval[string](b, p, `document.querySelector('header button[aria-pressed=true]').dataset.lang`); got != st.lang {
			t.Errorf("after switching to %s the switch shows %s as chosen", st.lang, got)
		}
		sentIn(b, p, st.lang, "/v1/rulesets")
	}
	b.run(p, chromedp.Reload())
	b.waitFor(p, heading+` === 'Tisch eröffnen'`, 10*time.Second)
	b.axe(p)

	// A game's screen switches too, reading the game again: its heading,
	// its invitations and the live line.
	host, _ := b.startTable(s.http.URL, "silver-and-gold", "digital", "Ann", "Bob")
	b.waitFor(host, `document.querySelector('.live')?.dataset.state === 'live'`, 10*time.Second)
	invites := `document.querySelector('summary[data-k=invites]')?.innerText`
	for _, st := range []struct{ lang, invites, live, h1 string }{
		{"de", "Spieler einladen: ein Link pro Platz", "Live: Züge erscheinen, sobald sie passieren.", "Silver & Gold · Gastgeber"},
		{"en", "Invite the players: one link per seat", "Live: moves appear as they happen.", "Silver & Gold · Host"},
		{"de", "Spieler einladen: ein Link pro Platz", "Live: Züge erscheinen, sobald sie passieren.", "Silver & Gold · Gastgeber"},
	} {
		recordLanguages(b, host)
		b.run(host, chromedp.Click(chromedp.CSS(`header button[data-lang=`+st.lang+`]`)))
		b.waitFor(host, invites+` === '`+st.invites+`' && document.querySelector('main h1')?.innerText === '`+st.h1+`'`, 10*time.Second)
		b.waitFor(host, `document.querySelector('.live')?.innerText === '`+st.live+`'`, 10*time.Second)
		sentIn(b, host, st.lang, "/v1/games/", "/legal-moves", "/events")
	}
}

// recordLanguages records the Accept-Language of every request the page
// sends from now on, with the language the page showed as it sent it
// (window.sent: [url, Accept-Language, <html lang>]).
func recordLanguages(b *browser, p *page) {
	b.t.Helper()
	eval[chromedp.Void](b, p, `(() => {
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
func sentIn(b *browser, p *page, lang string, paths ...string) {
	b.t.Helper()
	after := `window.sent.filter(([u, , shown]) => u.includes('/v1/') && shown === '` + lang + `')`
	for _, path := range paths {
		b.waitFor(p, after+`.some(([u]) => u.includes('`+path+`'))`, 10*time.Second)
	}
	for _, s := range eval[[][]string](b, p, after) {
		if s[1] != lang {
			b.t.Errorf("%s asked %s in %q after switching to %s", p.name, s[0], s[1], lang)
		}
	}
}

// TestWebAppGermanScreens opens every game's screens (the host's and a
// seat's, digital and with real cards) on phones set to German: no English
// sentence of the app's own on any of them.
func TestWebAppGermanScreens(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	b := newBrowser(t, 120*time.Second)
	b.lang = "de-DE"
	words := []string{}
	for _, ruleset := range []string{"silver-and-gold", "lucky-treasure-hunter", "colorful-treasure"} {
		for _, mode := range []string{"digital", "physical"} {
			host, links := b.startTable(s.http.URL, ruleset, mode, "Ann", "Bob")
			ann := b.open("ann", links[0])
			for _, p := range []*page{host, ann} {
				b.waitFor(p, `document.querySelector('.live')?.dataset.state === 'live' && !document.body.dataset.loading`, 10*time.Second)
				if found := englishOn(b, p, words); len(found) > 0 {
					t.Errorf("%s of a %s %s game shows English: %q", p.name, mode, ruleset, found)
				}
			}
		}
	}
	// The other screens: the score-sheet check of each game (advanced
	// Colorful Treasure shows every field), joining, groups.
	other := b.open("other", s.http.URL+"/#/join")
	for _, screen := range []struct{ hash, ready string }{
		{"#/join", `!!document.querySelector('#join-code')`},
		{"#/group", `!!document.querySelector('#group-name')`},
		{"#/sheet/silver-and-gold", `!!document.querySelector('#p0-coins')`},
		{"#/sheet/lucky-treasure-hunter", `!!document.querySelector('#players-at-table')`},
		{"#/sheet/colorful-treasure", `!!document.querySelector('#variant')`},
	} {
		eval[chromedp.Void](b, other, `location.hash = '`+screen.hash+`'`)
		b.waitFor(other, screen.ready, 10*time.Second)
		if screen.hash == "#/sheet/colorful-treasure" {
			eval[chromedp.Void](b, other, `(() => { const v = document.querySelector('#variant'); v.value = 'advanced'; v.dispatchEvent(new Event('change')); })()`)
			b.waitFor(other, `!!document.querySelector('[data-k=p0-action-peek_two]')`, 10*time.Second)
		}
		if found := englishOn(b, other, words); len(found) > 0 {
			t.Errorf("%s shows English: %q", screen.hash, found)
		}
	}
}
