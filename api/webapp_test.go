package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// TestWebAppServed checks the table app's page and files: embedded, gzipped
// for clients that take it, and under a Content-Security-Policy that keeps
// the page to its own origin.
func TestWebAppServed(t *testing.T) {
	s := newServer(t)
	for _, tc := range []struct{ path, ctype string }{
		{"/", "text/html"}, {"/app/app.js", "text/javascript"}, {"/app/app.css", "text/css"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, s.http.URL+tc.path, nil)
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
	if r := s.do(t, http.MethodGet, "/app/index.html", nil); r.Status != 404 {
		t.Errorf("GET /app/index.html: %d, want 404", r.Status)
	}
}

// chromium finds Debian's Chromium; without it the browser tests are
// skipped, except in CI, which must run them.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no Chromium on PATH: CI must run the browser tests (.ci/run installs it with apt-get install chromium)")
	}
	t.Skip("no Chromium on PATH: the browser tests of the table app are skipped (apt-get install chromium to run them)")
	return ""
}

// browser is one headless Chromium with a browser context (its own
// storage, as a separate device) per page.
type browser struct {
	t     *testing.T
	ctx   context.Context
	mu    sync.Mutex
	pages []*page
	errs  []string
	// lang, when set, is the language every page opened after it prefers
	// (navigator.languages and Accept-Language), as a phone set to it.
	lang string
}

// page is one device's tab.
type page struct {
	name  string
	ctx   context.Context
	close context.CancelFunc // closes the tab and its browser context
}

// patience scales every deadline of the browser tests. A deadline ends a
// test whose page never gets there; it does not time the page, and a page
// that answers in a second on a quiet machine may take twenty when two cores
// also build and test something else. TREASURY_TEST_PATIENCE sets the factor
// (default 6: a wait written as 10 s may take a minute).
var patience = func() float64 {
	if f, err := strconv.ParseFloat(os.Getenv("TREASURY_TEST_PATIENCE"), 64); err == nil && f > 0 {
		return f
	}
	return 6
}()

// patient is d scaled by patience.
func patient(d time.Duration) time.Duration { return time.Duration(float64(d) * patience) }

// newBrowser gives a test the package's one Chromium (started by the first
// test that asks, see sharedChromium) for a test that should take about
// timeout on a quiet machine; its context ends after patient(timeout), or
// shortly before the test binary's deadline (-timeout), so that a stuck test
// fails with screenshots instead of a panic. Each page the test opens is a
// browser context of its own (own storage, as a separate device), closed when
// the test ends.
func newBrowser(t *testing.T, timeout time.Duration) *browser {
	path := chromium(t)
	timeout = patient(timeout)
	if end, ok := t.Deadline(); ok {
		timeout = min(timeout, time.Until(end)-30*time.Second)
	}
	ctx, cancel := context.WithTimeout(sharedChromium(t, path), timeout)
	b := &browser{t: t, ctx: ctx}
	t.Cleanup(func() {
		b.screenshotsOnFailure()
		for _, p := range b.pages {
			p.close()
		}
		cancel()
	})
	return b
}

// chromiumProcess is the package's one Chromium. Starting it costs seconds
// on a loaded machine (and has run past a minute), so the browser tests
// share it, each with its own browser contexts; a Chromium that died is
// started again by the next test.
var chromiumProcess struct {
	mu     sync.Mutex
	ctx    context.Context // its first tab; done once Chromium is gone
	cancel func()
	dir    string
}

// sharedChromium returns the context of the package's Chromium, starting it
// if needed. A start that does not answer within patient(20 s) is ended and
// tried again, for patient(60 s) in all.
func sharedChromium(t *testing.T, path string) context.Context {
	t.Helper()
	c := &chromiumProcess
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ctx != nil && c.ctx.Err() == nil {
		return c.ctx
	}
	stopChromium()
	var errs []string
	for deadline := time.Now().Add(patient(60 * time.Second)); time.Now().Before(deadline); {
		ctx, cancel, dir, err := startChromium(path, patient(20*time.Second))
		if err == nil {
			c.ctx, c.cancel, c.dir = ctx, cancel, dir
			return ctx
		}
		errs = append(errs, err.Error())
		t.Logf("start %s: %v (trying again)", path, err)
	}
	t.Fatalf("start %s: %s", path, strings.Join(errs, "; "))
	return nil
}

// startChromium starts one headless Chromium and waits up to within for its
// first tab.
func startChromium(path string, within time.Duration) (context.Context, func(), string, error) {
	dir, err := os.MkdirTemp("", "treasury-chromium-")
	if err != nil {
		return nil, nil, "", err
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(412, 915), // a phone
		// English unless a test asks for another language (browser.lang),
		// whatever the machine's locale.
		chromedp.Flag("lang", "en-US"),
		chromedp.Flag("accept-lang", "en-US"),
		chromedp.UserDataDir(dir),
	)
	ctx, cancelBrowser := chromedp.NewContext(alloc)
	stop := func() {
		cancelBrowser()
		cancelAlloc()
		_ = os.RemoveAll(dir)
	}
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(ctx) }()
	select {
	case err = <-started:
	case <-time.After(within):
		err = fmt.Errorf("no answer within %v", within)
	}
	if err != nil {
		stop()
		return nil, nil, "", err
	}
	return ctx, stop, dir, nil
}

// stopChromium ends the package's Chromium, if any (TestMain calls it once
// the tests are done).
func stopChromium() {
	if c := &chromiumProcess; c.cancel != nil {
		c.cancel()
		c.ctx, c.cancel, c.dir = nil, nil, ""
	}
}

// open opens url in a new browser context and fails the test on any
// uncaught exception in it; before runs in the new tab first (to set up its
// network, say).
func (b *browser) open(name, url string, before ...chromedp.Action[chromedp.Void]) *page {
	b.t.Helper()
	ctx, closePage := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	p := &page{name: name, ctx: ctx, close: closePage}
	b.mu.Lock()
	b.pages = append(b.pages, p)
	b.mu.Unlock()
	err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok {
			b.mu.Lock()
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			b.errs = append(b.errs, fmt.Sprintf("%s: %s (%s:%d)", name, msg, d.URL, d.LineNumber+1))
			b.mu.Unlock()
		}
	})
	if err != nil {
		b.t.Fatalf("open %s: %v", name, err)
	}
	if b.lang != "" {
		b.run(p, preferLanguage(b.lang))
	}
	b.run(p, before...)
	b.run(p, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`main h1`)))
	return p
}

func (b *browser) run(p *page, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v\n%s", p.name, err, b.text(p))
	}
}

// eval evaluates a script in the page (awaiting a promise) and returns its value.
func eval[T any](b *browser, p *page, js string) T {
	b.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("%s: %v\n%s", p.name, err, b.text(p))
	}
	return v
}

// text is what the page shows, for failure messages.
func (b *browser) text(p *page) string {
	ctx, cancel := context.WithTimeout(p.ctx, patient(2*time.Second))
	defer cancel()
	s, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
	return s
}

// waitFor polls the page until js is true, for patient(within) at most.
func (b *browser) waitFor(p *page, js string, within time.Duration) {
	b.t.Helper()
	within = patient(within)
	ctx, cancel := context.WithTimeout(p.ctx, within)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](js, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(within))); err != nil {
		b.t.Fatalf("%s: waiting for %s: %v\n%s", p.name, js, err, b.text(p))
	}
}

// seen reports whether js, polled, holds on p within the (patient) time;
// false when it does not by then.
func (b *browser) seen(p *page, js string, within time.Duration) bool {
	b.t.Helper()
	within = patient(within)
	ctx, cancel := context.WithTimeout(p.ctx, within)
	defer cancel()
	err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](js, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(within)))
	if err != nil && p.ctx.Err() != nil {
		b.t.Fatalf("%s: the browser ended while waiting for %s: %v", p.name, js, err)
	}
	return err == nil
}

// screenshotsOnFailure keeps a screenshot of every page of a failed test in
// $TREASURY_ARTIFACTS (or a kept temporary directory).
func (b *browser) screenshotsOnFailure() {
	b.mu.Lock()
	for _, e := range b.errs {
		b.t.Errorf("uncaught exception in %s", e)
	}
	b.mu.Unlock()
	if !b.t.Failed() || len(b.pages) == 0 {
		return
	}
	b.screenshots("failed")
}

// screenshots keeps a screenshot of every page in $TREASURY_ARTIFACTS (or a
// kept temporary directory).
func (b *browser) screenshots(label string) {
	dir := os.Getenv("TREASURY_ARTIFACTS")
	if dir == "" {
		dir, _ = os.MkdirTemp("", "treasury-webapp-")
	}
	_ = os.MkdirAll(dir, 0o755)
	for _, p := range b.pages {
		ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
		if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
			name := filepath.Join(dir, strings.ReplaceAll(b.t.Name(), "/", "_")+"-"+label+"-"+p.name+".png")
			if os.WriteFile(name, png, 0o644) == nil {
				b.t.Logf("screenshot of %s: %s", p.name, name)
			}
		}
		cancel()
	}
}

// axe runs axe-core in the page and fails on serious or critical
// violations. axe.min.js comes from web/node_modules (scripts/build-web.sh
// installs it, pinned in web/package.json).
func (b *browser) axe(p *page) {
	b.t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "web", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		if os.Getenv("CI") == "true" {
			b.t.Fatalf("axe-core is not installed (run scripts/build-web.sh): %v", err)
		}
		b.t.Logf("accessibility check skipped: axe-core is not installed (run scripts/build-web.sh): %v", err)
		return
	}
	eval[chromedp.Void](b, p, string(src)+`;0`)
	found := eval[[]string](b, p, `axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations
		.filter((v) => v.impact === 'serious' || v.impact === 'critical')
		.map((v) => v.impact + ' ' + v.id + ': ' + v.help + ' at ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')))`)
	for _, f := range found {
		b.t.Errorf("%s: accessibility: %s", p.name, f)
	}
	if os.Getenv("TREASURY_SCREENSHOTS") != "" {
		b.screenshots(p.name + "-axe")
	}
}

// step does what the page asks of its player, through the page's own
// buttons, and says what it did: "" for nothing, "busy" while the page
// waits for the server, "done" once it shows the final score.
const step = `(() => {
  const q = (s) => document.querySelector(s);
  if (document.body.dataset.busy || document.body.dataset.loading) return 'busy';
  if (q('[data-testid=final]')) return 'done';
  const problem = q('[data-testid=problem]');
  if (problem && problem.innerText && problem.dataset.shown !== window.lastShown) {
    window.lastShown = problem.dataset.shown;
    (window.problems = window.problems || []).push(problem.innerText);
  }
  let el;
  if ((el = q('button[data-reveal]'))) { el.click(); return 'reveal ' + el.dataset.reveal; }
  // A card turned up is reported by tapping its picture, then confirming.
  if (q('button[data-action=display]') && !window.holdReports) {
    if (q('button[data-action=display]').disabled) q('button[data-pick=display]').click();
    q('button[data-action=display]').click();
    return 'display';
  }
  const act = q('section.action');
  const st = act ? act.dataset.state : '';
  if (st === 'keep') {
    for (let i = 0; i < 2; i++) {
      const b = document.querySelectorAll('button[data-keep]')[i];
      if (b.getAttribute('aria-pressed') !== 'true') b.click();
    }
    q('button[data-action=keep]').click();
    return 'keep';
  }
  if (st === 'cross') {
    if ((el = q('button[data-placement]'))) el.click(); else q('button[data-box]').click();
    q('button[data-action=cross]').click();
    let chain = 0;
    while (q('.chain') && chain < 30) {
      const go = q('button[data-action=cross]');
      if (!go.disabled) { go.click(); return 'cross with ' + chain + ' extra'; }
      const free = q('button[data-box][aria-pressed=false]');
      if (!free) break;
      free.click();
      chain++;
    }
    return 'cross';
  }
  if (st === 'take' && !window.noTakes) {
    // Every other replacement from the deck: the top card (digital), or the
    // card the player names as drawn (physical).
    window.takes = (window.takes || 0) + 1;
    const draw = () => { if (q('button[data-action=draw]').disabled) q('button[data-pick=draw]').click(); q('button[data-action=draw]').click(); };
    const deck = q('button[data-take=deck]') || (q('button[data-action=draw]') && {click: draw});
    if (deck && window.takes % 2 === 0) { deck.click(); return 'take from the deck'; }
    if ((el = q('button[data-take]'))) { el.click(); return 'take ' + el.dataset.take; }
    if (deck) { deck.click(); return 'take from the deck'; }
  }
  return '';
})()`

// playOut steps every page until all show the final score; hook runs
// after each step that did something.
func (b *browser) playOut(pages []*page, within time.Duration, hook func(p *page, did string)) map[string]int {
	b.t.Helper()
	counts := map[string]int{}
	deadline := time.Now().Add(patient(within))
	idle := time.Now()
	for {
		done, acted := 0, false
		for _, p := range pages {
			did := eval[string](b, p, step)
			switch {
			case did == "done":
				done++
			case did != "" && did != "busy":
				acted = true
				counts[strings.Fields(did)[0]]++
				if hook != nil {
					hook(p, did)
				}
			}
			if did != "" {
				idle = time.Now()
			}
		}
		if done == len(pages) {
			for _, p := range pages {
				if problems := eval[[]string](b, p, `window.problems || []`); len(problems) > 0 {
					b.t.Logf("%s was shown: %q", p.name, problems)
				}
			}
			return counts
		}
		if time.Now().After(deadline) || time.Since(idle) > patient(10*time.Second) {
			for _, p := range pages {
				b.t.Logf("%s shows:\n%s", p.name, b.text(p))
			}
			b.t.Fatalf("the game did not end (moves so far: %v)", counts)
		}
		if !acted {
			time.Sleep(25 * time.Millisecond)
		}
	}
}

// startTable fills the start page's form on the host's device and returns
// the host's page and the seat links it shows.
func (b *browser) startTable(url, ruleset, mode string, names ...string) (*page, []string) {
	b.t.Helper()
	return b.startTableWith(url, ruleset, mode, "", names...)
}

// startTableWith is startTable with a script run on the form once the
// ruleset is chosen (to set its options).
func (b *browser) startTableWith(url, ruleset, mode, setup string, names ...string) (*page, []string) {
	b.t.Helper()
	host := b.open("host", url+"/")
	b.waitFor(host, `!!document.querySelector('#name-1')`, 10*time.Second)
	eval[chromedp.Void](b, host, `(() => {
		const s = document.querySelector('#ruleset');
		s.value = '`+ruleset+`';
		s.dispatchEvent(new Event('change'));
		`+setup+`
	})()`)
	actions := []chromedp.Action[chromedp.Void]{chromedp.Click(chromedp.CSS(`input[data-k=mode-` + mode + `]`))}
	for i, n := range names {
		actions = append(actions, chromedp.SendKeys(chromedp.CSS(fmt.Sprintf("#name-%d", i)), n))
	}
	actions = append(actions, chromedp.Click(chromedp.CSS(`button[data-k=create]`)))
	b.run(host, actions...)
	b.waitFor(host, `document.querySelectorAll('a[data-seat-link]').length === `+fmt.Sprint(len(names)), 10*time.Second)
	links := eval[[]string](b, host, `[...document.querySelectorAll('a[data-seat-link]')].map((a) => a.href)`)
	for _, l := range links {
		if !strings.Contains(l, "/#/game/") || strings.Contains(strings.SplitN(l, "#", 2)[0], "seat") {
			b.t.Fatalf("seat link %s: the credential must be in the fragment only", l)
		}
	}
	qr := eval[int](b, host, `document.querySelectorAll('.seat-invite img[src^="data:image/gif"]').length`)
	if qr != len(names) {
		b.t.Errorf("the host shows %d QR codes for %d seats", qr, len(names))
	}
	return host, links
}

// finalScore reads the final ranking as the page shows it.
func (b *browser) finalScore(p *page) string {
	b.t.Helper()
	// The other phone may have seen the end first: wait, as a player would,
	// until this one draws the final score.
	b.waitFor(p, `(document.querySelector('[data-testid=final]')?.innerText || '').trim() !== '' && !document.body.dataset.loading`, 20*time.Second)
	return eval[string](b, p, `document.querySelector('[data-testid=final]').innerText`)
}

// scoreFromAPI is the ranking line the server gives, to compare with the page.
// movesFromAPI counts the moves the server stored in the game of a page's
// link, by type.
func movesFromAPI(t *testing.T, s *server, link string) map[string]int {
	t.Helper()
	id := strings.Split(strings.SplitN(link, "#/game/", 2)[1], "/")[0]
	r := s.do(t, http.MethodGet, "/v1/games/"+id+"/moves", nil)
	var log struct {
		Moves []struct {
			Move struct {
				Type string `json:"type"`
			} `json:"move"`
		} `json:"moves"`
	}
	if err := json.Unmarshal(r.Body, &log); err != nil {
		t.Fatalf("moves: %v %s", err, r.Body)
	}
	out := map[string]int{}
	for _, m := range log.Moves {
		out[m.Move.Type]++
	}
	return out
}

func scoreFromAPI(t *testing.T, s *server, link string) []string {
	t.Helper()
	id := strings.Split(strings.SplitN(link, "#/game/", 2)[1], "/")[0]
	r := s.do(t, http.MethodGet, "/v1/games/"+id+"/score", nil)
	var score struct {
		Final   bool `json:"final"`
		Ranking []struct {
			Rank  int    `json:"rank"`
			Name  string `json:"name"`
			Total int    `json:"total"`
		} `json:"ranking"`
	}
	if err := json.Unmarshal(r.Body, &score); err != nil || !score.Final {
		t.Fatalf("score: %v %s", err, r.Body)
	}
	var lines []string
	for _, p := range score.Ranking {
		lines = append(lines, fmt.Sprintf("%d. %s, %d", p.Rank, p.Name, p.Total))
	}
	return lines
}

// checkDisplayPicker holds the host's display report to what a person sees:
// the card turned up is chosen by tapping its picture among the cards still
// possible, a colour at a time, drawn with their symbols (palm trees as
// palms), with the confirmation in view; no list of ids to choose from.
func checkDisplayPicker(b *browser, host *page) {
	b.t.Helper()
	t := b.t
	if got := eval[string](b, host, `(() => {
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
	docShot(b, host, "silver-and-gold-host")
}

// TestWebAppPhysicalGame plays a whole 2-player physical game of Silver &
// Gold through the pages: the host's device starts the table and reports
// every expedition and display card, each player keeps, crosses (the red
// cross chain included) on their own device; Ann takes her replacement
// cards herself, the host reports Bob's.
func TestWebAppPhysicalGame(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	b := newBrowser(t, 150*time.Second)
	host, links := b.startTable(s.http.URL, "silver-and-gold", "physical", "Ann", "Bob")
	b.axe(host)
	ann := b.open("ann", links[0])
	bob := b.open("bob", links[1])
	// Bob leaves his replacement cards to the host, who reports them.
	eval[chromedp.Void](b, bob, `window.noTakes = true`)
	// A shared screen follows the game without a credential.
	table := b.open("table", eval[string](b, host, `document.querySelector('.invites a[href^="#/game/"]').href`))
	axed := false
	// The host's reports wait until the first display report is checked.
	eval[chromedp.Void](b, host, `window.holdReports = true`)
	picked := false
	counts := b.playOut([]*page{host, ann, bob, table}, 100*time.Second, func(p *page, did string) {
		if !picked && did == "keep" && b.seen(host, `!!document.querySelector('button[data-pick=display]')`, 5*time.Second) {
			picked = true
			checkDisplayPicker(b, host)
			eval[chromedp.Void](b, host, `window.holdReports = false`)
		}
		if !axed && p == ann && strings.HasPrefix(did, "cross") {
			axed = true
			b.waitFor(ann, `!document.body.dataset.busy && !document.body.dataset.loading`, 5*time.Second)
			b.axe(ann)
		}
	})
	t.Logf("moves tried through the pages: %v", counts)
	if !picked {
		t.Errorf("the host was never asked to report a display card")
	}
	// What the server accepted (a page tries a move again when the game
	// moved on while its player chose, or a report was refused).
	stored := movesFromAPI(t, s, links[0])
	if stored["reveal"] != 28 || stored["keep"] < 2 || stored["display"] < 4 {
		t.Errorf("moves stored %v: want 28 reveals, the keeps and at least the 4 first display reports", stored)
	}
	want := scoreFromAPI(t, s, links[0])
	for _, p := range []*page{host, ann, bob, table} {
		got := b.finalScore(p)
		for _, line := range want {
			if !strings.Contains(got, line) {
				t.Errorf("%s's final score lacks %q:\n%s", p.name, line, got)
			}
		}
	}
	b.axe(bob)
	b.axe(table)
}

// TestWebAppDigitalGame plays a whole digital game through the pages, with
// an illegal crossing refused with the server's reason, a reload in the
// middle of a turn that finds the crossing and the stream again, and every
// connection cut once.
func TestWebAppDigitalGame(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	b := newBrowser(t, 150*time.Second)
	host, links := b.startTable(s.http.URL, "silver-and-gold", "digital", "Ann", "Bob")
	ann := b.open("ann", links[0])
	bob := b.open("bob", links[1])

	// Keep, then try a crossing the rules forbid: a box on each card.
	// Both keep at once; a keep refused because the other's came first
	// (the page then says the game moved on) is made again, as a player
	// would, until the page shows it kept.
	for _, p := range []*page{ann, bob} {
		for start := time.Now(); eval[string](b, p, step) != "keep"; time.Sleep(20 * time.Millisecond) {
			if time.Since(start) > patient(10*time.Second) {
				t.Fatalf("%s was never asked to keep:\n%s", p.name, b.text(p))
			}
		}
	}
	for _, p := range []*page{ann, bob} {
		kept := `(() => { const a = document.querySelector('section.action'); return !document.body.dataset.busy && !!a && a.dataset.state !== 'keep'; })()`
		for start := time.Now(); !eval[bool](b, p, kept); time.Sleep(20 * time.Millisecond) {
			if time.Since(start) > patient(10*time.Second) {
				t.Fatalf("%s's keep never went through:\n%s", p.name, b.text(p))
			}
			eval[string](b, p, step)
		}
	}
	b.waitFor(ann, `document.querySelector('section.action')?.dataset.state === 'cross' && !document.body.dataset.loading`, 10*time.Second)
	eval[chromedp.Void](b, ann, `(() => {
		const t = () => document.querySelectorAll('.tiles.mine .tile');
		t()[0].querySelector('button[data-box]:not(.sym-x)').click();
		t()[1].querySelector('button[data-box]:not(.sym-x)').click();
		document.querySelector('button[data-action=cross]').click();
	})()`)
	b.waitFor(ann, `document.querySelector('[data-testid=problem]').innerText.length > 0`, 5*time.Second)
	reason := eval[string](b, ann, `document.querySelector('[data-testid=problem]').innerText`)
	if !strings.Contains(reason, "box") {
		t.Errorf("the refused crossing shows %q, not the server's reason", reason)
	}
	eval[chromedp.Void](b, ann, `document.querySelector('[data-k=cross-clear]').click()`)

	reloaded, cut := false, false
	counts := b.playOut([]*page{host, ann, bob}, 100*time.Second, func(p *page, did string) {
		if reloaded && !cut && strings.HasPrefix(did, "take") {
			// Every connection drops, event streams included: the pages
			// reconnect (EventSource sends Last-Event-ID) and play on.
			cut = true
			s.http.CloseClientConnections()
			for _, p := range []*page{host, ann, bob} {
				b.waitFor(p, `document.querySelector('.live')?.dataset.state === 'live'`, 10*time.Second)
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
		lthSettled(b, ann)
		if eval[string](b, ann, `document.querySelector('section.action')?.dataset.state || ''`) != "crossed" {
			return
		}
		reloaded = true
		b.run(ann, chromedp.Reload())
		b.waitFor(ann, `document.querySelector('section.action')?.dataset.state === 'crossed' && document.querySelectorAll('.cell.this-turn').length > 0`, 10*time.Second)
		b.waitFor(ann, `document.querySelector('.live')?.dataset.state === 'live'`, 10*time.Second)
		b.axe(ann)
	})
	t.Logf("moves through the pages: %v", counts)
	if !reloaded || !cut {
		t.Errorf("reload mid-turn: %v; connections cut: %v", reloaded, cut)
	}
	if counts["reveal"] != 0 || counts["display"] != 0 {
		t.Errorf("moves %v: a digital game asks for no reports", counts)
	}
	want := scoreFromAPI(t, s, links[0])
	for _, p := range []*page{host, ann, bob} {
		got := b.finalScore(p)
		for _, line := range want {
			if !strings.Contains(got, line) {
				t.Errorf("%s's final score lacks %q:\n%s", p.name, line, got)
			}
		}
	}
}

// TestWebAppScoreSheet checks a paper score sheet through its page.
func TestWebAppScoreSheet(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	b := newBrowser(t, 60*time.Second)
	p := b.open("sheet", s.http.URL+"/#/sheet")
	b.waitFor(p, `!!document.querySelector('#p1-name')`, 10*time.Second)
	if n := eval[int](b, p, `document.querySelectorAll('select[multiple], option[value^=grey-]').length`); n != 0 {
		t.Errorf("the sheet lists cards by id (%d elements)", n)
	}
	b.run(p,
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
	b.waitFor(p, `!!document.querySelector('[data-testid=sheet-result]')`, 10*time.Second)
	text := b.text(p)
	for _, want := range []string{"mistake", "Sarah wrote 95", "both wrote the cup of 6", "Sarah\t9\t8\t0\t8\t0\t25"} {
		if !strings.Contains(text, want) {
			t.Errorf("the sheet's findings lack %q:\n%s", want, text)
		}
	}
	b.axe(p)
	home := b.open("home", s.http.URL+"/")
	b.waitFor(home, `!!document.querySelector('#name-1')`, 10*time.Second)
	b.axe(home)
}
