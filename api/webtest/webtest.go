// Package webtest drives the table app in a real Chromium against the real
// API (package apitest), for the browser tests in the packages below it: a
// package per game (silvergold, luckytreasurehunter, colorfultreasure: whole
// games in both modes and languages), night (a game night: joining by code,
// a lost phone, play again), takeback, table (retries, groups, routes, the
// installable app) and screens (languages and layouts). Whole games in a
// browser are the slowest tests there are; each package has its own Chromium,
// shared by its tests, and so its own 10 minutes under go test on a busy
// machine. Tests skip, with the reason, where Chromium cannot be found (they
// fail under CI=true).
package webtest

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

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/treasury-games/treasury/api/apitest"
)

// CTStep does one thing a Colorful Treasure page offers its player, in a
// physical game as in a digital one, through the page's own buttons: say
// what a card turned over shows (among the kinds offered; a key or a chest
// now and then, for thefts), report, tap a face-down card, collect, steal,
// use, take or decline an action token. A page with window.idle does
// nothing; one with window.forSeat acts only for that seat (the host).
const CTStep = `(() => {
  const q = (s) => document.querySelector(s);
  if (window.idle) return '';
  if (document.body.dataset.busy || document.body.dataset.loading) return '';
  if (q('[data-testid=final]')) return 'done';
  const problem = q('[data-testid=problem]');
  if (problem && problem.innerText && problem.dataset.shown !== window.lastShown) {
    window.lastShown = problem.dataset.shown;
    (window.problems = window.problems || []).push(problem.innerText);
  }
  if (window.forSeat !== undefined && q('section.action')?.dataset.for !== String(window.forSeat)) return '';
  window.n = (window.n || 0) + 1;
  const n = window.n;
  for (const g of document.querySelectorAll('.ct-shows')) {
    if (g.querySelector('button[aria-pressed=true]')) continue;
    const kinds = [...g.querySelectorAll('button[data-kind]')];
    if (!kinds.length) return 'stuck: nothing to report for ' + g.innerText;
    const lock = kinds.find((b) => b.dataset.kind === 'key' || b.dataset.kind === 'chest');
    const k = lock && n % 3 === 0 ? lock : kinds[(n * 5) % kinds.length];
    k.click();
    return 'kind ' + k.dataset.kind;
  }
  const report = q('button[data-k=report]:not([disabled])');
  if (report) { report.click(); return 'report ' + report.innerText; }
  const cells = [...document.querySelectorAll('button[data-cell]:not([aria-pressed=true])')];
  const opts = [...document.querySelectorAll('button[data-option], button[data-k^=use-]')];
  const peek = q('button[data-k=peek]:not([disabled])');
  if (peek && !cells.length) { peek.click(); return 'peek'; }
  const takes = opts.filter((b) => b.dataset.k.startsWith('collect-') && b.innerText !== 'Take nothing');
  const picking = !!q('.ct-shows');
  if (cells.length && (!opts.length || picking || n % 4 === 0)) {
    const c = cells[(n * 7) % cells.length];
    c.click();
    return 'tap ' + c.dataset.cell;
  }
  const o = opts.find((b) => !b.dataset.k.startsWith('collect-') && b.dataset.k !== 'end') || takes[takes.length - 1] || opts[0];
  if (!o) return '';
  o.click();
  if (o.dataset.k.startsWith('use-') && o.innerText.includes('peek')) (window.peekNotes = window.peekNotes || []).push(q('[data-testid=peek-note]')?.innerText || '');
  return o.dataset.k.split('-')[0] + ' ' + o.innerText;
})()`

// PreferLanguage makes a tab prefer lang as a browser set to it does:
// navigator.languages and the Accept-Language header.
func PreferLanguage(lang string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		ua, err := chromedp.Evaluate[string](`navigator.userAgent`)(ctx, tg)
		if err != nil {
			return err
		}
		_, err = cdp.Call(ctx, tg, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: lang})
		return err
	})
}

// EnglishOn lists the lines of a page (its text, and the names and
// descriptions it gives assistive technology) that read as English: a
// small detector of English function words and game words that German
// never uses. The server writes its words in the page's language too, so
// nothing is left out but words.
func EnglishOn(b *Browser, p *Page, words []string) []string {
	b.T.Helper()
	w, _ := json.Marshal(words)
	return Eval[[]string](b, p, `(() => {
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

// DocShot keeps what a phone shows of p, scrolled to the screen's action
// (or its grid), as $TREASURY_APP_SHOTS/<name>.png: the README's pictures
// of the app (docs/app). Without the variable it does nothing.
func DocShot(b *Browser, p *Page, name string) {
	b.T.Helper()
	dir := os.Getenv("TREASURY_APP_SHOTS")
	if dir == "" {
		return
	}
	Eval[chromedp.Void](b, p, `(() => {
		const at = document.querySelector('[data-shot]') || document.querySelector('section.action') || document.querySelector('.ct-scroll');
		if (at) at.scrollIntoView({block: 'start'}); else scrollTo(0, 0);
	})()`)
	png, err := chromedp.Run(p.Ctx, chromedp.CaptureScreenshot())
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
	}
	if err != nil {
		b.T.Errorf("screenshot %s: %v", name, err)
	}
}

// LTHStep does what a Lucky Treasure Hunter page offers its player, through
// the page's own buttons, and says what it did ("" for nothing, "busy",
// "done" once it shows the final score). A seat places as many cards of one
// treasure as listed (the game ends sooner), steals in turn each listed set,
// re-rolls at its first chances, turns its captain over and then stops. The
// host's device (window.host) reports the middle and the rolls (every third
// roll all pirates, the others with one blank die) and, with window.hostFor
// set, makes Bob's first two places and his decisions after a failed roll
// for him; window.leavePlace and window.leaveDecide leave a seat's places
// and decisions to the host.
const LTHStep = `(() => {
  const q = (s) => document.querySelector(s);
  const all = (s) => [...document.querySelectorAll(s)];
  if (document.body.dataset.busy || document.body.dataset.loading) return 'busy';
  if (q('[data-testid=final]')) return 'done';
  const problem = q('[data-testid=problem]');
  if (problem && problem.innerText && problem.dataset.shown !== window.lastShown) {
    window.lastShown = problem.dataset.shown;
    (window.problems = window.problems || []).push(problem.innerText);
  }
  const act = q('section.action');
  const st = act ? act.dataset.state : '';
  window.n = (window.n || 0) + 1;
  const choose = (attr, prefix) => {
    const opts = all('button[' + attr + ']');
    const of = (t) => opts.filter((b) => b.dataset.type === t);
    const hint = (b) => { const d = document.getElementById(b.getAttribute('aria-describedby')); return d ? d.innerText : ''; };
    let b;
    if (q('button[data-treasure]')) {
      // A physical place: the treasure (in turn), then as many as listed.
      const ts = all('button[data-treasure]');
      ts[window.n % ts.length].click();
      const ns = all('button[data-count]');
      ns[ns.length - 1].click();
      b = q('button[data-type=place][' + attr + ']:not([disabled])');
      b.click();
      return prefix + 'place ' + b.innerText;
    }
    if (of('place').length) {
      const most = Math.max(...of('place').map((b) => Number(b.innerText.match(/\d+/)[0])));
      b = of('place').filter((b) => Number(b.innerText.match(/\d+/)[0]) === most)[0];
      b.click();
      return prefix + 'place ' + b.innerText;
    }
    if (of('steal').length) {
      window.steals = (window.steals || 0) + 1;
      b = of('steal')[window.steals % of('steal').length];
      b.click();
      return prefix + 'steal ' + b.innerText + ' | ' + hint(b);
    }
    window.decisions = (window.decisions || 0) + 1;
    if (of('reroll').length && window.decisions % 2 === 1) b = of('reroll')[0];
    else b = of('captain')[0] || of('stop')[0];
    if (!b) return '';
    b.click();
    return prefix + b.dataset.type + ' ' + b.innerText + ' | ' + hint(b);
  };
  if (window.host) {
    if (st === 'middle') {
      for (const t of ['silver', 'gold', 'gold']) q('[data-k=mid-more-' + t + ']').click();
      q('button[data-action=middle]').click();
      return 'lth_middle';
    }
    if (st === 'roll') {
      window.rolls = (window.rolls || 0) + 1;
      const n = all('button[data-die]').length;
      for (let i = window.rolls % 3 === 0 ? 0 : 1; i < n; i++) q('button[data-die="' + i + '"]').click();
      const faces = all('button[data-die]').map((b) => b.getAttribute('aria-pressed') === 'true' ? 'pirate' : 'blank');
      q('button[data-action=roll]').click();
      return 'roll ' + faces.join(',');
    }
    const forBob = st === 'for-seat' && window.hostFor && act.querySelector('h2').innerText.startsWith('Bob');
    if (forBob && q('button[data-treasure]') && (window.hostPlaced || 0) < 2) {
      window.hostPlaced = (window.hostPlaced || 0) + 1;
      return choose('data-for', 'for-Bob ');
    }
    if (forBob && q('button[data-for][data-type=stop]')) {
      return choose('data-for', 'for-Bob ');
    }
    return '';
  }
  if ((st === 'decide' && window.leaveDecide) || (st === 'place' && window.leavePlace)) return '';
  if (!['place', 'steal', 'decide'].includes(st)) return '';
  return choose('data-option', '');
})()`

// LTHSettled waits until the page has drawn the answer to its last move.
func LTHSettled(b *Browser, p *Page) {
	b.WaitFor(p, `!document.body.dataset.busy && !document.body.dataset.loading`, 10*time.Second)
}

// JSString quotes s for a script.
func JSString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
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

// Browser is one headless Chromium with a browser context (its own
// storage, as a separate device) per page.
type Browser struct {
	T     *testing.T
	ctx   context.Context
	mu    sync.Mutex
	Pages []*Page // every page opened, in order
	errs  []string
	// Lang, when set, is the language every page opened after it prefers
	// (navigator.languages and Accept-Language), as a phone set to it.
	Lang string
}

// Page is one device's tab.
type Page struct {
	Name  string
	Ctx   context.Context
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

// Patient is d scaled by patience.
func Patient(d time.Duration) time.Duration { return time.Duration(float64(d) * patience) }

// NewBrowser gives a test the package's one Chromium (started by the first
// test that asks, see sharedChromium) for a test that should take about
// timeout on a quiet machine; its context ends after patient(timeout), or
// shortly before the test binary's deadline (-timeout), so that a stuck test
// fails with screenshots instead of a panic. Each page the test opens is a
// browser context of its own (own storage, as a separate device), closed when
// the test ends.
func NewBrowser(t *testing.T, timeout time.Duration) *Browser {
	path := chromium(t)
	timeout = Patient(timeout)
	if end, ok := t.Deadline(); ok {
		timeout = min(timeout, time.Until(end)-30*time.Second)
	}
	ctx, cancel := context.WithTimeout(sharedChromium(t, path), timeout)
	b := &Browser{T: t, ctx: ctx}
	t.Cleanup(func() {
		b.screenshotsOnFailure()
		for _, p := range b.Pages {
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
	StopChromium()
	var errs []string
	for deadline := time.Now().Add(Patient(60 * time.Second)); time.Now().Before(deadline); {
		ctx, cancel, dir, err := startChromium(path, Patient(20*time.Second))
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

// Main runs a package's browser tests, then stops the Chromium they shared.
// Call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	StopChromium()
	os.Exit(code)
}

// webDir is the table app's folder, web/ at the module's root (go test runs
// a package's tests in the package's folder).
var webDir = func() string {
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "web")
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "web"
		}
		dir = up
	}
}()

// StopChromium ends the package's Chromium, if any (TestMain calls it once
// the tests are done).
func StopChromium() {
	if c := &chromiumProcess; c.cancel != nil {
		c.cancel()
		c.ctx, c.cancel, c.dir = nil, nil, ""
	}
}

// Open opens url in a new browser context and fails the test on any
// uncaught exception in it; before runs in the new tab first (to set up its
// network, say).
func (b *Browser) Open(name, url string, before ...chromedp.Action[chromedp.Void]) *Page {
	b.T.Helper()
	ctx, closePage := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	p := &Page{Name: name, Ctx: ctx, close: closePage}
	b.mu.Lock()
	b.Pages = append(b.Pages, p)
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
		b.T.Fatalf("open %s: %v", name, err)
	}
	if b.Lang != "" {
		b.Run(p, PreferLanguage(b.Lang))
	}
	b.Run(p, before...)
	b.Run(p, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`main h1`)))
	return p
}

func (b *Browser) Run(p *Page, actions ...chromedp.Action[chromedp.Void]) {
	b.T.Helper()
	if err := chromedp.Do(p.Ctx, actions...); err != nil {
		b.T.Fatalf("%s: %v\n%s", p.Name, err, b.Text(p))
	}
}

// Eval evaluates a script in the page (awaiting a promise) and returns its value.
func Eval[T any](b *Browser, p *Page, js string) T {
	b.T.Helper()
	v, err := chromedp.Run(p.Ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		b.T.Fatalf("%s: %v\n%s", p.Name, err, b.Text(p))
	}
	return v
}

// Text is what the page shows, for failure messages.
func (b *Browser) Text(p *Page) string {
	ctx, cancel := context.WithTimeout(p.Ctx, Patient(2*time.Second))
	defer cancel()
	s, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
	return s
}

// WaitFor polls the page until js is true, for patient(within) at most.
func (b *Browser) WaitFor(p *Page, js string, within time.Duration) {
	b.T.Helper()
	within = Patient(within)
	ctx, cancel := context.WithTimeout(p.Ctx, within)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](js, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(within))); err != nil {
		b.T.Fatalf("%s: waiting for %s: %v\n%s", p.Name, js, err, b.Text(p))
	}
}

// Seen reports whether js, polled, holds on p within the (patient) time;
// false when it does not by then.
func (b *Browser) Seen(p *Page, js string, within time.Duration) bool {
	b.T.Helper()
	within = Patient(within)
	ctx, cancel := context.WithTimeout(p.Ctx, within)
	defer cancel()
	err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](js, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(within)))
	if err != nil && p.Ctx.Err() != nil {
		b.T.Fatalf("%s: the browser ended while waiting for %s: %v", p.Name, js, err)
	}
	return err == nil
}

// screenshotsOnFailure keeps a screenshot of every page of a failed test in
// $TREASURY_ARTIFACTS (or a kept temporary directory).
func (b *Browser) screenshotsOnFailure() {
	b.mu.Lock()
	for _, e := range b.errs {
		b.T.Errorf("uncaught exception in %s", e)
	}
	b.mu.Unlock()
	if !b.T.Failed() || len(b.Pages) == 0 {
		return
	}
	b.Screenshots("failed")
}

// Screenshots keeps a screenshot of every page in $TREASURY_ARTIFACTS (or a
// kept temporary directory).
func (b *Browser) Screenshots(label string) {
	dir := os.Getenv("TREASURY_ARTIFACTS")
	if dir == "" {
		dir, _ = os.MkdirTemp("", "treasury-webapp-")
	}
	_ = os.MkdirAll(dir, 0o755)
	for _, p := range b.Pages {
		ctx, cancel := context.WithTimeout(p.Ctx, 5*time.Second)
		if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
			name := filepath.Join(dir, strings.ReplaceAll(b.T.Name(), "/", "_")+"-"+label+"-"+p.Name+".png")
			if os.WriteFile(name, png, 0o644) == nil {
				b.T.Logf("screenshot of %s: %s", p.Name, name)
			}
		}
		cancel()
	}
}

// Axe runs axe-core in the page and fails on serious or critical
// violations. axe.min.js comes from web/node_modules (scripts/build-web.sh
// installs it, pinned in web/package.json).
func (b *Browser) Axe(p *Page) {
	b.T.Helper()
	src, err := os.ReadFile(filepath.Join(webDir, "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		if os.Getenv("CI") == "true" {
			b.T.Fatalf("axe-core is not installed (run scripts/build-web.sh): %v", err)
		}
		b.T.Logf("accessibility check skipped: axe-core is not installed (run scripts/build-web.sh): %v", err)
		return
	}
	Eval[chromedp.Void](b, p, string(src)+`;0`)
	found := Eval[[]string](b, p, `axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations
		.filter((v) => v.impact === 'serious' || v.impact === 'critical')
		.map((v) => v.impact + ' ' + v.id + ': ' + v.help + ' at ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')))`)
	for _, f := range found {
		b.T.Errorf("%s: accessibility: %s", p.Name, f)
	}
	if os.Getenv("TREASURY_SCREENSHOTS") != "" {
		b.Screenshots(p.Name + "-axe")
	}
}

// Step does what the page asks of its player, through the page's own
// buttons, and says what it did: "" for nothing, "busy" while the page
// waits for the server, "done" once it shows the final score.
const Step = `(() => {
  const q = (s) => document.querySelector(s);
  let fresh = false;
  if (document.body.dataset.busy || document.body.dataset.loading) return 'busy';
  if (q('[data-testid=final]')) return 'done';
  const problem = q('[data-testid=problem]');
  if (problem && problem.innerText && problem.dataset.shown !== window.lastShown) {
    window.lastShown = problem.dataset.shown;
    fresh = true;
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
    // A crossing left unfinished (a chain that cannot be paid as chosen) or
    // refused is cleared and chosen again, with other boxes.
    const clear = q('button[data-k=cross-clear]');
    const go = () => q('button[data-action=cross]');
    if (clear && (fresh || (q('button[data-k=cross-back]') && go().disabled))) { clear.click(); return 'clear'; }
    const free = () => Array.from(document.querySelectorAll('button[data-box][aria-pressed=false]'));
    const any = (xs) => xs[Math.floor(Math.random() * xs.length)];
    if ((el = q('button[data-placement]'))) el.click(); else if ((el = any(free()))) el.click();
    go().click();
    let chain = 0;
    while (q('.chain') && chain < 60) {
      if (!go().disabled) { go().click(); return 'cross with ' + chain + ' extra'; }
      const box = any(free());
      if (!box) break;
      box.click();
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

// PlayOut steps every page until all show the final score; hook runs
// after each step that did something.
func (b *Browser) PlayOut(pages []*Page, within time.Duration, hook func(p *Page, did string)) map[string]int {
	b.T.Helper()
	return b.PlayBy(Step, pages, within, hook)
}

// PlayBy is PlayOut with another step: a script that does one thing on a
// page and says what ("" nothing, "busy", "done" at the final score; what
// it did otherwise, its first word counted).
func (b *Browser) PlayBy(step string, pages []*Page, within time.Duration, hook func(p *Page, did string)) map[string]int {
	b.T.Helper()
	counts := map[string]int{}
	deadline := time.Now().Add(Patient(within))
	idle := time.Now()
	for {
		done, acted := 0, false
		for _, p := range pages {
			did := Eval[string](b, p, step)
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
				if problems := Eval[[]string](b, p, `window.problems || []`); len(problems) > 0 {
					b.T.Logf("%s was shown: %q", p.Name, problems)
				}
			}
			return counts
		}
		if time.Now().After(deadline) || time.Since(idle) > Patient(10*time.Second) {
			for _, p := range pages {
				b.T.Logf("%s shows:\n%s", p.Name, b.Text(p))
			}
			b.T.Fatalf("the game did not end (moves so far: %v)", counts)
		}
		if !acted {
			Idle(b, pages...)
		}
	}
}

// Idle waits until one of pages changes what it shows (its document), or for
// a fifth of a second, whichever comes first: the pause of a loop that
// stepped its pages and found nothing to do. Waiting in the pages costs
// nothing while nothing happens; asking every page again every 25 ms kept a
// core busy per test on a machine that had none to spare.
func Idle(b *Browser, pages ...*Page) {
	const js = `new Promise((done) => {
  const o = new MutationObserver(() => { o.disconnect(); done(true); });
  o.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  setTimeout(() => { o.disconnect(); done(false); }, 200);
})`
	changed := make(chan struct{}, len(pages))
	for _, p := range pages {
		go func() {
			_, _ = chromedp.Run(p.Ctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise))
			changed <- struct{}{}
		}()
	}
	select {
	case <-changed:
	case <-time.After(Patient(time.Second)):
	}
}

// StartTable fills the start page's form on the host's device and returns
// the host's page and the seat links it shows.
func (b *Browser) StartTable(url, ruleset, mode string, names ...string) (*Page, []string) {
	b.T.Helper()
	return b.StartTableWith(url, ruleset, mode, "", names...)
}

// StartTableWith is startTable with a script run on the form once the
// ruleset is chosen (to set its options).
func (b *Browser) StartTableWith(url, ruleset, mode, setup string, names ...string) (*Page, []string) {
	b.T.Helper()
	host := b.Open("host", url+"/")
	b.WaitFor(host, `!!document.querySelector('#name-1')`, 10*time.Second)
	Eval[chromedp.Void](b, host, `(() => {
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
	b.Run(host, actions...)
	b.WaitFor(host, `document.querySelectorAll('a[data-seat-link]').length === `+fmt.Sprint(len(names)), 10*time.Second)
	links := Eval[[]string](b, host, `[...document.querySelectorAll('a[data-seat-link]')].map((a) => a.href)`)
	for _, l := range links {
		if !strings.Contains(l, "/#/game/") || strings.Contains(strings.SplitN(l, "#", 2)[0], "seat") {
			b.T.Fatalf("seat link %s: the credential must be in the fragment only", l)
		}
	}
	qr := Eval[int](b, host, `document.querySelectorAll('.seat-invite img[src^="data:image/gif"]').length`)
	if qr != len(names) {
		b.T.Errorf("the host shows %d QR codes for %d seats", qr, len(names))
	}
	return host, links
}

// FinalScore reads the final ranking as the page shows it.
func (b *Browser) FinalScore(p *Page) string {
	b.T.Helper()
	// The other phone may have seen the end first: wait, as a player would,
	// until this one draws the final score.
	b.WaitFor(p, `(document.querySelector('[data-testid=final]')?.innerText || '').trim() !== '' && !document.body.dataset.loading`, 20*time.Second)
	return Eval[string](b, p, `document.querySelector('[data-testid=final]').innerText`)
}

// ScoreFromAPI is the ranking line the server gives, to compare with the page.
// movesFromAPI counts the moves the server stored in the game of a page's
// link, by type.
func MovesFromAPI(t *testing.T, s *apitest.Server, link string) map[string]int {
	t.Helper()
	id := strings.Split(strings.SplitN(link, "#/game/", 2)[1], "/")[0]
	r := s.Do(t, http.MethodGet, "/v1/games/"+id+"/moves", nil)
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

// WantFinalScore fails the test unless every page shows the final score
// with each line of the ranking the API gives for the game at link
// (ScoreFromAPI).
func (b *Browser) WantFinalScore(s *apitest.Server, link string, pages ...*Page) {
	b.T.Helper()
	want := ScoreFromAPI(b.T, s, link)
	for _, p := range pages {
		got := b.FinalScore(p)
		for _, line := range want {
			if !strings.Contains(got, line) {
				b.T.Errorf("%s's final score lacks %q:\n%s", p.Name, line, got)
			}
		}
	}
}

func ScoreFromAPI(t *testing.T, s *apitest.Server, link string) []string {
	t.Helper()
	id := strings.Split(strings.SplitN(link, "#/game/", 2)[1], "/")[0]
	r := s.Do(t, http.MethodGet, "/v1/games/"+id+"/score", nil)
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

// Settled waits until the pages have drawn the answer to the last move.
func Settled(b *Browser, pages []*Page) {
	b.T.Helper()
	for _, p := range pages {
		LTHSettled(b, p)
	}
}

// GermanOn fails the test for every page that shows English, or that lacks
// one of want.
func GermanOn(b *Browser, pages []*Page, when string, want []string) {
	b.T.Helper()
	for _, p := range pages {
		if found := EnglishOn(b, p, []string{}); len(found) > 0 {
			b.T.Errorf("%s %s shows English: %q", p.Name, when, found)
		}
		text := b.Text(p)
		for _, w := range want {
			if !strings.Contains(text, w) {
				b.T.Errorf("%s %s lacks %q:\n%s", p.Name, when, w, text)
			}
		}
	}
}

// GermanEnd checks the end of a game on German phones: each page shows the
// server's final ranking with what decided each place in German (as the
// server says it to a German phone), the words of the end screen, and no
// English.
func GermanEnd(t *testing.T, b *Browser, s *apitest.Server, link string, pages []*Page, words []string) {
	t.Helper()
	want := ScoreFromAPI(t, s, link)
	decided := DecidedInGerman(t, s, link)
	if len(decided) == 0 {
		t.Error("the server says nothing of what decided the places after the first")
	}
	for _, p := range pages {
		b.WaitFor(p, `!!document.querySelector('[data-testid=final]') && !document.body.dataset.loading`, 10*time.Second)
		got := b.FinalScore(p)
		for _, line := range append(want, decided...) {
			if !strings.Contains(got, line) {
				t.Errorf("%s's final ranking lacks %q:\n%s", p.Name, line, got)
			}
		}
		for _, w := range words {
			if !strings.Contains(got, w) {
				t.Errorf("%s's final ranking lacks %q:\n%s", p.Name, w, got)
			}
		}
		text := b.Text(p)
		for _, de := range []string{"Noch ein Spiel?", "Was passiert ist", "Das Spiel ist zu Ende"} {
			if !strings.Contains(text, de) {
				t.Errorf("%s's end screen lacks %q:\n%s", p.Name, de, text)
			}
		}
	}
	GermanOn(b, pages, "at the end", nil)
}

// DecidedInGerman is what decided each place after the first, as the
// server says it to a German phone.
func DecidedInGerman(t *testing.T, s *apitest.Server, link string) []string {
	t.Helper()
	id := strings.Split(strings.SplitN(link, "#/game/", 2)[1], "/")[0]
	r := s.Do(t, http.MethodGet, "/v1/games/"+id+"/score", nil, apitest.Header("Accept-Language", "de"))
	var score struct {
		Ranking []struct {
			DecidedByLabel string `json:"decided_by_label"`
		} `json:"ranking"`
	}
	if err := json.Unmarshal(r.Body, &score); err != nil {
		t.Fatalf("score: %v %s", err, r.Body)
	}
	var out []string
	for _, p := range score.Ranking[1:] {
		out = append(out, p.DecidedByLabel)
	}
	return out
}
