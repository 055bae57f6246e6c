package table_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api/webtest"

	"github.com/chromedp/chromedp"

	"github.com/treasury-games/treasury/api/apitest"
)

// TestWebAppPolish: what a host sees on the start page and the host screen,
// beside the game itself: no frame drawn around the whole page on a laptop,
// the start-player list naming the players typed, the invitations open when
// a digital game starts (every game), and the hint for phones naming the
// port the server really listens on.
func TestWebAppPolish(t *testing.T) {
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 3*time.Minute)

	// No frame around the page on a laptop.
	{
		p := b.Open("laptop", s.HTTP.URL+"/")
		b.Run(p, chromedp.EmulateViewport(1280, 800))
		b.WaitFor(p, `!!document.querySelector('#name-1')`, 10*time.Second)
		if !webtest.Eval[bool](b, p, `document.activeElement === document.getElementById('main')`) {
			t.Fatal("the page does not start with the focus on main, as screen readers need")
		}
		if style := webtest.Eval[string](b, p, `(() => { const s = getComputedStyle(document.getElementById('main')); return s.outlineStyle + ' ' + s.outlineWidth; })()`); !strings.HasPrefix(style, "none") {
			t.Errorf("main, focused when a page opens, is drawn with an outline: %s", style)
		}
		b.Screenshots("laptop-1280")
		// A control reached with the keyboard still shows where the focus is.
		b.Run(p, chromedp.KeyEvent("\t"))
		if style := webtest.Eval[string](b, p, `getComputedStyle(document.activeElement).outlineStyle`); style == "none" {
			t.Errorf("%s reached with Tab shows no focus", webtest.Eval[string](b, p, `document.activeElement.outerHTML.slice(0, 80)`))
		}
	}

	for _, c := range []struct{ ruleset, option string }{
		{"lucky-treasure-hunter", "captain_heart"}, {"colorful-treasure", "start_player"},
	} {
		// The start-player list names the players typed.
		{
			p := b.Open("start-"+c.ruleset, s.HTTP.URL+"/")
			b.WaitFor(p, `!!document.querySelector('#name-1')`, 10*time.Second)
			webtest.Eval[chromedp.Void](b, p, `(() => {
				const s = document.querySelector('#ruleset');
				s.value = '`+c.ruleset+`';
				s.dispatchEvent(new Event('change'));
			})()`)
			b.Run(p, chromedp.SendKeys(chromedp.CSS("#name-0"), "Ann"), chromedp.SendKeys(chromedp.CSS("#name-1"), "Bob"))
			got := webtest.Eval[[]string](b, p, `[...document.querySelectorAll('#opt-`+c.option+` option')].map((o) => o.textContent)`)
			if fmt.Sprint(got) != "[Ann Bob]" {
				t.Errorf("%s: after typing Ann and Bob, the start-player list shows %q", c.ruleset, got)
			}
			// Clearing a name brings its placeholder back.
			webtest.Eval[chromedp.Void](b, p, `(() => {
				const n = document.querySelector('#name-1');
				n.value = '';
				n.dispatchEvent(new Event('input', {bubbles: true}));
			})()`)
			if got := webtest.Eval[[]string](b, p, `[...document.querySelectorAll('#opt-`+c.option+` option')].map((o) => o.textContent)`); fmt.Sprint(got) != "[Ann Player 2]" {
				t.Errorf("%s: after clearing Bob, the start-player list shows %q", c.ruleset, got)
			}
		}
	}

	for _, ruleset := range []string{"silver-and-gold", "lucky-treasure-hunter", "colorful-treasure"} {
		// The invitations are open as a digital game starts; the hint for
		// phones names the server's port.
		{
			host, _ := b.StartTable(s.HTTP.URL, ruleset, "digital", "Ann", "Bob")
			if !webtest.Eval[bool](b, host, `document.querySelector('details.invites').open`) {
				t.Errorf("%s: the host's invitations start collapsed", ruleset)
			}
			u, err := url.Parse(s.HTTP.URL)
			if err != nil {
				t.Fatal(err)
			}
			note := webtest.Eval[string](b, host, `(document.querySelector('.invites .note') || {}).textContent || ''`)
			if !strings.Contains(note, "0.0.0.0:"+u.Port()) || !strings.Contains(note, ":"+u.Port()+"/") || strings.Contains(note, "8080") {
				t.Errorf("%s: the hint for phones does not name port %s: %q", ruleset, u.Port(), note)
			}
		}
	}
}
