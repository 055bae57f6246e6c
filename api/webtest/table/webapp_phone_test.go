package table_test

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api/webtest"

	"github.com/chromedp/chromedp"

	"github.com/treasury-games/treasury/api/apitest"
)

// TestWebAppInstallable: the app can be installed on a phone's home screen
// (a manifest with a name, start page and icon, linked from the page and
// allowed by its policy), and its service worker keeps the app's own files
// (never an API answer), so that the app opens when the server cannot be
// reached.
func TestWebAppInstallable(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	get := func(path string) apitest.Resp {
		res, err := http.Get(s.HTTP.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return apitest.Resp{Status: res.StatusCode, Header: res.Header, Body: body}
	}
	page := get("/")
	if !strings.Contains(string(page.Body), `<link rel="manifest" href="/app/manifest.webmanifest">`) {
		t.Errorf("the page links no manifest:\n%s", page.Body)
	}
	if csp := page.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "manifest-src 'self'") || !strings.Contains(csp, "worker-src 'self'") {
		t.Errorf("the page's policy allows no manifest or worker: %s", csp)
	}
	m := get("/app/manifest.webmanifest")
	var manifest struct {
		Name, ShortName, StartURL, Display string
		Icons                              []struct{ Src, Type string }
	}
	raw := strings.NewReplacer(`"short_name"`, `"ShortName"`, `"start_url"`, `"StartURL"`).Replace(string(m.Body))
	if err := json.Unmarshal([]byte(raw), &manifest); err != nil || m.Header.Get("Content-Type") != "application/manifest+json" {
		t.Fatalf("manifest (%s): %v %s", m.Header.Get("Content-Type"), err, m.Body)
	}
	if manifest.ShortName != "Treasury" || manifest.StartURL != "/" || manifest.Display != "standalone" || len(manifest.Icons) == 0 {
		t.Errorf("manifest: %+v", manifest)
	}
	for _, ic := range manifest.Icons {
		if r := get(ic.Src); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "<svg") {
			t.Errorf("icon %s: %d", ic.Src, r.Status)
		}
	}
	if r := get("/app/sw.js"); r.Status != http.StatusOK || r.Header.Get("Service-Worker-Allowed") != "/" {
		t.Errorf("the service worker: %d, Service-Worker-Allowed %q", r.Status, r.Header.Get("Service-Worker-Allowed"))
	}

	b := webtest.NewBrowser(t, 60*time.Second)
	p := b.Open("phone", s.HTTP.URL+"/")
	if scope := webtest.Eval[string](b, p, `navigator.serviceWorker.ready.then((r) => r.scope)`); scope != s.HTTP.URL+"/" {
		t.Fatalf("the service worker covers %q", scope)
	}
	// A game played with the worker in charge: its API answers are not kept.
	r := s.Do(t, http.MethodPost, "/v1/games", map[string]any{"ruleset": "silver-and-gold", "mode": "digital", "players": []map[string]string{{"name": "Ann"}}})
	var created struct {
		Game struct {
			ID string `json:"id"`
		} `json:"game"`
		Credentials struct {
			Seats []string `json:"seats"`
		} `json:"credentials"`
	}
	if err := json.Unmarshal(r.Body, &created); err != nil {
		t.Fatal(err)
	}
	b.Run(p, chromedp.Reload())
	b.WaitFor(p, `!!navigator.serviceWorker.controller && !!document.querySelector('#name-1')`, 10*time.Second)
	webtest.Eval[chromedp.Void](b, p, `location.hash = '#/game/`+created.Game.ID+`/seat/`+created.Credentials.Seats[0]+`'; 0`)
	b.WaitFor(p, `document.querySelector('.live')?.dataset.state === 'live' && !!document.querySelector('button[data-keep]')`, 10*time.Second)
	kept := webtest.Eval[[]string](b, p, `caches.open('treasury-shell-v1').then((c) => c.keys()).then((ks) => ks.map((k) => new URL(k.url).pathname))`)
	slices.Sort(kept)
	if want := []string{"/", "/app/app.css", "/app/app.js", "/app/icon.svg", "/app/manifest.webmanifest"}; !slices.Equal(kept, want) {
		t.Errorf("the worker keeps %v, want the app's own files %v", kept, want)
	}
	// The server goes away: the app still opens, and says what is wrong.
	webtest.Eval[chromedp.Void](b, p, `location.hash = '#/'; 0`)
	s.HTTP.CloseClientConnections()
	s.Stop()
	b.Run(p, chromedp.Navigate(s.HTTP.URL+"/"))
	b.WaitFor(p, `document.querySelector('main h1')?.innerText === 'Treasury' && /cannot be reached/.test(document.body.innerText)`, 10*time.Second)
}

// TestWebAppTurnCue: a phone keeps its screen on during a game and gives
// a cue (vibration) when it becomes its seat's turn, not when the page
// opens on it; a player who switches the cue off gets none, and the
// switch is remembered on the device. The browser's vibration and wake
// lock are replaced by recorders (a headless browser has neither).
func TestWebAppTurnCue(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 90*time.Second)
	_, links := b.StartTable(s.HTTP.URL, "lucky-treasure-hunter", "digital", "Ann", "Bob")
	hash := func(l string) string { return l[strings.Index(l, "#"):] }
	const recorders = `(() => {
		window.vibrations = [];
		window.locks = [];
		navigator.vibrate = (p) => { window.vibrations.push(p); return true; };
		Object.defineProperty(navigator, 'wakeLock', {configurable: true, value: {request: async (type) => {
			window.locks.push(type);
			const l = new EventTarget();
			l.release = async () => { window.locks.push('released'); l.dispatchEvent(new Event('release')); };
			return l;
		}}});
	})()`
	open := func(name, link string) *webtest.Page {
		p := b.Open(name, s.HTTP.URL+"/")
		webtest.Eval[chromedp.Void](b, p, recorders)
		webtest.Eval[chromedp.Void](b, p, `location.hash = '`+hash(link)+`'; 0`)
		b.WaitFor(p, `document.querySelector('.live')?.dataset.state === 'live' && !!document.querySelector('section.action')`, 10*time.Second)
		return p
	}
	ann := open("ann", links[0])
	bob := open("bob", links[1])
	for _, p := range []*webtest.Page{ann, bob} {
		if locks := webtest.Eval[[]string](b, p, `window.locks`); !slices.Equal(locks, []string{"screen"}) {
			t.Errorf("%s's screen: wake locks %v, want the screen kept on", p.Name, locks)
		}
	}
	if n := webtest.Eval[int](b, ann, `window.vibrations.length`); n != 0 {
		t.Errorf("Ann's phone vibrated %d times on opening on her own turn", n)
	}
	// playTurn plays p's moves (the first listed each time) until the other
	// page shows its seat on turn.
	playTurn := func(p, other *webtest.Page) {
		deadline := time.Now().Add(webtest.Patient(30 * time.Second))
		for !b.Seen(other, `document.querySelector('section.action')?.dataset.state === 'place' && !document.body.dataset.loading`, 200*time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s's turn did not come:\n%s", other.Name, b.Text(other))
			}
			webtest.Eval[chromedp.Void](b, p, `(() => {
				if (document.body.dataset.busy || document.body.dataset.loading) return;
				const el = document.querySelector('section.action button[data-option]:not([disabled])');
				if (el) el.click();
			})()`)
		}
	}
	playTurn(ann, bob)
	b.WaitFor(bob, `window.vibrations.length === 1`, 5*time.Second)
	if got := webtest.Eval[string](b, bob, `document.querySelector('button[data-turn-cue]').innerText`); got != "Turn alert: on" {
		t.Errorf("Bob's switch says %q", got)
	}
	// Bob switches the cue off; a reload keeps it off.
	b.Run(bob, chromedp.Click(chromedp.CSS(`button[data-turn-cue]`)))
	b.Run(bob, chromedp.Reload())
	webtest.Eval[chromedp.Void](b, bob, recorders)
	b.WaitFor(bob, `document.querySelector('button[data-turn-cue]')?.dataset.turnCue === 'off'`, 10*time.Second)
	playTurn(bob, ann)
	b.WaitFor(ann, `window.vibrations.length === 1`, 5*time.Second)
	playTurn(ann, bob)
	if n := webtest.Eval[int](b, bob, `window.vibrations.length`); n != 0 {
		t.Errorf("Bob's phone vibrated %d times with the alert switched off", n)
	}
}

// TestWebAppFast holds the whole app (page, script, styles, manifest, icon,
// service worker) under 100 KB gzipped, as a phone downloads it, and logs
// what loading the start page and a game's screen transfers and how long
// they take to become usable (measured, not asserted: a loaded machine is
// slow, and speed targets belong to measurements, not tests).
func TestWebAppFast(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	total := 0
	for _, name := range []string{"/", "/app/app.js", "/app/app.css", "/app/manifest.webmanifest", "/app/icon.svg", "/app/sw.js"} {
		req, _ := http.NewRequest(http.MethodGet, s.HTTP.URL+name, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		if res.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("%s is sent as %q, not gzipped", name, res.Header.Get("Content-Encoding"))
		}
		t.Logf("%-28s %6d bytes gzipped", name, len(body))
		total += len(body)
	}
	t.Logf("the whole app: %d bytes gzipped", total)
	if total > 100*1024 {
		t.Errorf("the app is %d bytes gzipped, over 100 KB", total)
	}
	b := webtest.NewBrowser(t, 60*time.Second)
	p := b.Open("first", s.HTTP.URL+"/")
	b.WaitFor(p, `performance.getEntriesByName('treasury-interactive').length > 0`, 10*time.Second)
	t.Logf("start page: %s", webtest.Eval[string](b, p, `(() => {
		const n = performance.getEntriesByType('navigation')[0];
		const res = performance.getEntriesByType('resource');
		const bytes = n.transferSize + res.reduce((a, r) => a + r.transferSize, 0);
		return 'usable after ' + Math.round(performance.getEntriesByName('treasury-interactive')[0].startTime) + ' ms, ' + bytes + ' bytes transferred in ' + (res.length + 1) + ' requests';
	})()`))
}
