package api_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestWebAppPolish: what a host sees on the start page and the host screen,
// beside the game itself: no frame drawn around the whole page on a laptop.
func TestWebAppPolish(t *testing.T) {
	s := newServer(t)
	b := newBrowser(t, 3*time.Minute)

	// No frame around the page on a laptop.
	{
		p := b.open("laptop", s.http.URL+"/")
		b.run(p, chromedp.EmulateViewport(1280, 800))
		b.waitFor(p, `!!document.querySelector('#name-1')`, 10*time.Second)
		if !eval[bool](b, p, `document.activeElement === document.getElementById('main')`) {
			t.Fatal("the page does not start with the focus on main, as screen readers need")
		}
		if style := eval[string](b, p, `(() => { const s = getComputedStyle(document.getElementById('main')); return s.outlineStyle + ' ' + s.outlineWidth; })()`); !strings.HasPrefix(style, "none") {
			t.Errorf("main, focused when a page opens, is drawn with an outline: %s", style)
		}
		b.screenshots("laptop-1280")
		// A control reached with the keyboard still shows where the focus is.
		b.run(p, chromedp.KeyEvent("\t"))
		if style := eval[string](b, p, `getComputedStyle(document.activeElement).outlineStyle`); style == "none" {
			t.Errorf("%s reached with Tab shows no focus", eval[string](b, p, `document.activeElement.outerHTML.slice(0, 80)`))
		}
	}
}
