package api_test

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestDocsPage opens /docs in a real headless Chromium and waits for Redoc to
// render the operations of openapi.yaml from the server's own assets, with
// no request leaving for another host (the page's Content-Security-Policy
// blocks the one Redoc tries, a logo on a CDN).
func TestDocsPage(t *testing.T) {
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		t.Skip("no Chromium on PATH: the headless-browser check of /docs is skipped (apt-get install chromium to run it; .ci/run installs it)")
	}
	s := startOps(t, nil)

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(browser),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	ctx, cancelBrowser := chromedp.NewContext(ctx, chromedp.WithErrorf(t.Logf))
	defer cancelBrowser()

	var mu sync.Mutex
	var requests []string
	urls := map[network.RequestID]string{}
	blocked := map[string]bool{} // by the page's Content-Security-Policy: never sent
	err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			requests = append(requests, e.Request.URL)
			urls[e.RequestID] = e.Request.URL
		case *network.EventLoadingFailed:
			if e.BlockedReason == network.BlockedReasonCsp {
				blocked[urls[e.RequestID]] = true
			}
		}
	})
	if err != nil {
		t.Fatalf("start %s: %v", browser, err)
	}

	titles := []string{"Create a game", "Play a move", "Follow a game live", "Readiness check", "Prometheus metrics"}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("watch the network: %v", err)
	}
	err = chromedp.Do(ctx,
		chromedp.Navigate(s.HTTP.URL+"/docs"),
		// Redoc renders the document into the empty <redoc> element.
		chromedp.WaitVisible(chromedp.CSS(`redoc h1`)),
		chromedp.Poll[chromedp.Void](`document.body.innerText.includes("Follow a game live")`, chromedp.WithPollingTimeout(30*time.Second)),
	)
	if err != nil {
		t.Fatalf("render /docs: %v", err)
	}
	text, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`body`)))
	if err != nil {
		t.Fatalf("read /docs: %v", err)
	}
	// An ETag example reads as the header does, "12", not as a JSON
	// string holding quotes ("\"12\"").
	if strings.Contains(text, `\"`) {
		i := strings.Index(text, `\"`)
		t.Errorf("the rendered page shows escaped quotes: …%s…", text[max(i-60, 0):min(i+60, len(text))])
	}
	if !strings.Contains(text, `Example: "12"`) {
		t.Error(`the rendered page shows no ETag example "12"`)
	}
	for _, want := range append(titles, "Treasury", "rate_limited", "Last-Event-ID") {
		if !strings.Contains(text, want) {
			t.Errorf("the rendered page lacks %q", want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, u := range requests {
		if !strings.HasPrefix(u, s.HTTP.URL+"/") && !strings.HasPrefix(u, "data:") && !strings.HasPrefix(u, "blob:") && !blocked[u] {
			t.Errorf("the page fetched %s: it must work offline and tell no third party", u)
		}
	}
	for _, want := range []string{"/docs", "/docs/redoc.standalone.js", "/openapi.yaml"} {
		if !slices.Contains(requests, s.HTTP.URL+want) {
			t.Errorf("the page never fetched %s: %v", want, requests)
		}
	}
}
