package table_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api/webtest"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/treasury-games/treasury/api/apitest"
)

// lossyMoves stands between a page and the server for the moves it posts:
// the request reaches the server, which applies the move, and then the
// answer is lost on its way back while lose says so.
type lossyMoves struct {
	mu       sync.Mutex
	lose     int      // answers still to lose
	keys     []string // the Idempotency-Key of every move posted
	replayed []string // the Idempotency-Replayed of every answer let through
}

func (l *lossyMoves) attach(b *webtest.Browser, p *webtest.Page) {
	b.T.Helper()
	err := chromedp.Listen(p.Ctx, func(ev any) {
		e, ok := ev.(*fetch.EventRequestPaused)
		if !ok {
			return
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		if e.Request.Method != "POST" {
			go chromedp.Call(p.Ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: e.RequestID})
			return
		}
		key, _ := e.Request.Headers["Idempotency-Key"].(string)
		l.keys = append(l.keys, key)
		if l.lose > 0 {
			l.lose--
			go chromedp.Call(p.Ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: e.RequestID, ErrorReason: network.ErrorReasonConnectionReset})
			return
		}
		replayed := ""
		for _, h := range e.ResponseHeaders {
			if strings.EqualFold(h.Name, "Idempotency-Replayed") {
				replayed = h.Value
			}
		}
		l.replayed = append(l.replayed, replayed)
		go chromedp.Call(p.Ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: e.RequestID})
	})
	if err != nil {
		b.T.Fatal(err)
	}
	// The page's moves go straight to the network, never through the app's
	// service worker: Chromium does not pause for the page a request that a
	// service worker has seen, so whether the worker had claimed the page yet
	// (it does so a moment after the first load, later on a busy machine)
	// would decide whether the test sees the moves at all.
	if _, err := chromedp.Call(p.Ctx, network.Enable, network.EnableParams{}); err != nil {
		b.T.Fatal(err)
	}
	if _, err := chromedp.Call(p.Ctx, network.SetBypassServiceWorker, network.SetBypassServiceWorkerParams{Bypass: true}); err != nil {
		b.T.Fatal(err)
	}
	if _, err := chromedp.Call(p.Ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{
		{URLPattern: "*/moves", RequestStage: fetch.RequestStageResponse},
	}}); err != nil {
		b.T.Fatal(err)
	}
}

func (l *lossyMoves) set(lose int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lose, l.keys, l.replayed = lose, nil, nil
}

func (l *lossyMoves) Seen() (keys, replayed []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.keys...), append([]string(nil), l.replayed...)
}

// TestWebAppMoveAnswerLost loses the answers to a player's moves on their
// way back to the phone, after the server applied them: the page sends the
// move again with the same Idempotency-Key and shows the game as the move
// left it, and when the connection stays down it offers "Try again", which
// sends the same key once more. The server's log holds each move once.
func TestWebAppMoveAnswerLost(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 90*time.Second)
	_, links := b.StartTable(s.HTTP.URL, "silver-and-gold", "digital", "Ann", "Bob")
	ann := b.Open("ann", links[0])
	bob := b.Open("bob", links[1])
	lossy := &lossyMoves{}
	lossy.attach(b, ann)

	// One answer lost: the page's own retry finds the move applied.
	lossy.set(1)
	stepUntil(b, ann, "keep")
	b.WaitFor(ann, `!document.body.dataset.busy && document.querySelector('section.action').dataset.state !== 'keep'`, 15*time.Second)
	keys, replayed := lossy.Seen()
	if len(keys) != 2 || keys[0] == "" || keys[0] != keys[1] || len(replayed) != 1 || replayed[0] != "true" {
		t.Errorf("Ann's keep after a lost answer: keys %q, answers replayed %q; want the same key twice and the second answer a replay", keys, replayed)
	}
	if problem := webtest.Eval[string](b, ann, `document.querySelector('[data-testid=problem]').innerText`); problem != "" {
		t.Errorf("Ann was shown %q after a lost answer her page recovered from", problem)
	}
	if got := webtest.MovesFromAPI(t, s, links[0])["keep"]; got != 1 {
		t.Errorf("%d keeps stored after Ann's one keep, want 1", got)
	}

	// Bob keeps; Ann's next move loses every answer (the first try and the
	// page's 3 retries): she is offered "Try again".
	stepUntil(b, bob, "keep")
	b.WaitFor(ann, `document.querySelector('section.action') && document.querySelector('section.action').dataset.state === 'cross'`, 15*time.Second)
	lossy.set(4)
	stepUntil(b, ann, "cross")
	b.WaitFor(ann, `!!document.querySelector('button[data-action=try-again]')`, 20*time.Second)
	problem := webtest.Eval[string](b, ann, `document.querySelector('[data-testid=problem]').innerText`)
	if !strings.Contains(problem, "cannot be reached") {
		t.Errorf("Ann's page says %q when the server cannot be reached", problem)
	}
	b.Run(ann, chromedp.Click(chromedp.CSS(`button[data-action=try-again]`)))
	b.WaitFor(ann, `!document.body.dataset.busy && !document.querySelector('button[data-action=try-again]') && document.querySelector('section.action').dataset.state !== 'cross'`, 15*time.Second)
	keys, replayed = lossy.Seen()
	if len(keys) != 5 || len(replayed) != 1 || replayed[0] != "true" {
		t.Errorf("Ann's cross: %d posts, answers replayed %q; want 4 lost and the 5th (Try again) a replay", len(keys), replayed)
	}
	for _, k := range keys {
		if k != keys[0] {
			t.Errorf("Ann's cross was sent with keys %q: every try must carry the first one", keys)
			break
		}
	}
	if got := webtest.MovesFromAPI(t, s, links[0])["cross"]; got != 1 {
		t.Errorf("%d crosses stored after Ann's one cross, want 1", got)
	}
	if problem := webtest.Eval[string](b, ann, `document.querySelector('[data-testid=problem]').innerText`); problem != "" {
		t.Errorf("Ann is still shown %q after Try again went through", problem)
	}
}

// stepUntil runs the pages' step script until it does what (a keep, a
// cross), and fails the test if it does something else first.
func stepUntil(b *webtest.Browser, p *webtest.Page, what string) {
	b.T.Helper()
	deadline := time.Now().Add(webtest.Patient(15 * time.Second))
	for time.Now().Before(deadline) {
		did := webtest.Eval[string](b, p, webtest.Step)
		switch {
		case strings.HasPrefix(did, what):
			return
		case did != "" && did != "busy":
			b.T.Fatalf("%s did %q while waiting to %s", p.Name, did, what)
		}
		webtest.Idle(b, p)
	}
	b.T.Fatalf("%s never offered to %s:\n%s", p.Name, what, b.Text(p))
}

// TestWebAppFourKeepAtOnce: four players keep their cards at the same
// moment. Each keep but the first is sent on a version another keep has
// just passed (412); the page sends it again on the new version, since
// what it was chosen in stands, and nobody is told the game moved on.
func TestWebAppFourKeepAtOnce(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 90*time.Second)
	_, links := b.StartTableWith(s.HTTP.URL, "silver-and-gold", "digital",
		`const c = document.querySelector('#count'); c.value = '4'; c.dispatchEvent(new Event('change'));`, "Ann", "Bob", "Cid", "Dee")
	var pages []*webtest.Page
	for i, l := range links {
		p := b.Open([]string{"ann", "bob", "cid", "dee"}[i], l)
		b.WaitFor(p, `document.querySelector('section.action')?.dataset.state === 'keep' && !document.body.dataset.loading`, 15*time.Second)
		// Two cards chosen, the Keep button not yet pressed.
		webtest.Eval[chromedp.Void](b, p, `[...document.querySelectorAll('button[data-keep]')].slice(0, 2).forEach((b) => b.click())`)
		pages = append(pages, p)
	}
	var wg sync.WaitGroup
	for _, p := range pages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = chromedp.Run(p.Ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector('button[data-action=keep]').click()`))
		}()
	}
	wg.Wait()
	for _, p := range pages {
		b.WaitFor(p, `!document.body.dataset.busy && document.querySelector('section.action')?.dataset.state !== 'keep'`, 20*time.Second)
		if problem := webtest.Eval[string](b, p, `document.querySelector('[data-testid=problem]').innerText`); problem != "" {
			t.Errorf("%s was shown %q after keeping with the others", p.Name, problem)
		}
	}
	if got := webtest.MovesFromAPI(t, s, links[0])["keep"]; got != 4 {
		t.Errorf("%d keeps stored for 4 players keeping once each", got)
	}
}
