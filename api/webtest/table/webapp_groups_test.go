package table_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api/webtest"

	"github.com/chromedp/chromedp"

	"github.com/treasury-games/treasury/api/apitest"
)

// TestWebAppGroup: a group is created in the app, its members added; a game
// started from the group's screen is played to its end (its moves through
// the API, as the phones would send them) and its final screen says where
// the result went; a second game of the group is played; a paper sheet is
// checked and saved to the group; and the group's screen shows the
// statistics the API computes from the three plays, with a chart.
func TestWebAppGroup(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 90*time.Second)
	p := b.Open("group", s.HTTP.URL+"/#/group")
	b.Run(p,
		chromedp.SendKeys(chromedp.CSS(`#group-name`), "Friday"),
		chromedp.Click(chromedp.CSS(`[data-k=create-group]`)),
	)
	b.WaitFor(p, `location.hash.split('/').length === 4 && document.querySelector('h1').innerText === 'Friday'`, 10*time.Second)
	for _, n := range []string{"Ann", "Ben"} {
		b.Run(p,
			chromedp.SendKeys(chromedp.CSS(`#member-name`), n),
			chromedp.Click(chromedp.CSS(`[data-k=add-member]`)),
		)
		b.WaitFor(p, `(document.querySelector('[data-testid=members]')?.innerText || '').includes('`+n+`')`, 10*time.Second)
	}
	parts := strings.Split(webtest.Eval[string](b, p, `location.hash`), "/")
	id, _ := url.PathUnescape(parts[2])
	secret, _ := url.PathUnescape(parts[3])
	members := apitest.Decode[struct {
		Members []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"members"`
	}](t, s.Do(t, http.MethodGet, "/v1/groups/"+id, nil, apitest.Cred(secret)).Body).Members
	member := map[string]string{} // name -> id
	for _, m := range members {
		member[m.Name] = m.ID
	}

	// The first game, started on the group's screen: Ben sits first.
	b.Run(p,
		chromedp.Evaluate[chromedp.Void](`(() => { const s = document.querySelector('#group-ruleset'); s.value = 'lucky-treasure-hunter'; s.dispatchEvent(new Event('change')); })()`),
		chromedp.Click(chromedp.CSS(`input[name=group-mode][value=digital]`)),
		chromedp.Click(chromedp.CSS(`[data-k="seat-`+member["Ben"]+`"]`)),
		chromedp.Click(chromedp.CSS(`[data-k="seat-`+member["Ann"]+`"]`)),
		chromedp.Click(chromedp.CSS(`[data-k=start-group-game]`)),
	)
	b.WaitFor(p, `location.hash.startsWith('#/game/')`, 10*time.Second)
	var entry struct {
		ID    string   `json:"id"`
		Cred  string   `json:"cred"`
		Seats []string `json:"seats"`
	}
	if err := json.Unmarshal([]byte(webtest.Eval[string](b, p, `JSON.stringify(JSON.parse(localStorage.getItem('treasury.tables'))[0])`)), &entry); err != nil {
		t.Fatal(err)
	}
	s.PlayOut(t, entry.ID, append([]string{entry.Cred}, entry.Seats...), rand.New(rand.NewPCG(2, 26)), 2000)
	b.WaitFor(p, `(document.querySelector('[data-testid=kept]')?.innerText || '').includes('saved to Friday')`, 20*time.Second)

	// The second game, through the API.
	r := s.Do(t, http.MethodPost, "/v1/games", map[string]any{"ruleset": "lucky-treasure-hunter", "mode": "digital",
		"players": []map[string]string{{"name": "Ann"}, {"name": "Ben"}}, "seed": "webapp-groups",
		"group": map[string]any{"id": id, "members": []string{member["Ann"], member["Ben"]}}}, apitest.Cred(secret))
	apitest.WantStatus(t, r, http.StatusCreated)
	second := apitest.Decode[struct {
		Game struct {
			ID string `json:"id"`
		} `json:"game"`
		Credentials struct {
			Host  string   `json:"host"`
			Seats []string `json:"seats"`
		} `json:"credentials"`
	}](t, r.Body)
	s.PlayOut(t, second.Game.ID, append([]string{second.Credentials.Host}, second.Credentials.Seats...), rand.New(rand.NewPCG(2, 25)), 2000)

	// A paper sheet, checked and saved to the group.
	b.Run(p, chromedp.Evaluate[chromedp.Void](`location.hash = '#/sheet/lucky-treasure-hunter'`))
	b.WaitFor(p, `!!document.querySelector('#p0-ruby')`, 10*time.Second)
	b.Run(p,
		chromedp.SendKeys(chromedp.CSS(`#p0-name`), "Ann"),
		chromedp.SendKeys(chromedp.CSS(`#p0-ruby`), "5"),
		chromedp.SendKeys(chromedp.CSS(`#p0-gold`), "5"),
		chromedp.SendKeys(chromedp.CSS(`#p0-jade`), "1"),
		chromedp.SendKeys(chromedp.CSS(`#p0-pearl`), "1"),
		chromedp.SendKeys(chromedp.CSS(`#p1-name`), "Ben"),
		chromedp.SendKeys(chromedp.CSS(`#p1-silver`), "5"),
		chromedp.SendKeys(chromedp.CSS(`#p1-pearl`), "4"),
		chromedp.SendKeys(chromedp.CSS(`#p1-ruby`), "1"),
		chromedp.SendKeys(chromedp.CSS(`#p1-jade`), "1"),
		chromedp.Click(chromedp.CSS(`#p1-captain`)),
		chromedp.Click(chromedp.CSS(`button[data-action=check]`)),
	)
	b.WaitFor(p, `!!document.querySelector('[data-action=keep-sheet]')`, 10*time.Second)
	b.Run(p, chromedp.Click(chromedp.CSS(`[data-action=keep-sheet]`)))
	b.WaitFor(p, `(document.querySelector('[data-testid=keep-sheet]')?.innerText || '').includes('Saved as a play of Friday')`, 10*time.Second)

	// The group's screen shows the API's statistics of the three plays.
	r = s.Do(t, http.MethodGet, "/v1/groups/"+id+"/stats", nil, apitest.Cred(secret))
	apitest.WantStatus(t, r, http.StatusOK)
	st := apitest.Decode[struct {
		Plays   int `json:"plays"`
		Members []struct {
			Member  string  `json:"member"`
			Plays   int     `json:"plays"`
			Wins    int     `json:"wins"`
			WinRate float64 `json:"win_rate"`
		} `json:"members"`
	}](t, r.Body)
	if st.Plays != 3 {
		t.Fatalf("the API counts %d plays, not the two games and the sheet", st.Plays)
	}
	b.Run(p, chromedp.Evaluate[chromedp.Void](`location.hash = '`+groupLinkJS(id, secret)+`'`))
	b.WaitFor(p, `(document.querySelector('[data-testid=stats]')?.innerText || '').includes('3 plays')`, 10*time.Second)
	for _, m := range st.Members {
		if m.Plays != 3 {
			t.Errorf("member %s: %d plays, not 3", m.Member, m.Plays)
		}
		row := webtest.Eval[string](b, p, `document.querySelector('[data-testid=member-stats] tr[data-member="`+m.Member+`"]').innerText`)
		want := fmt.Sprintf("\t3\t%d\t%d%%\t", m.Wins, int(m.WinRate*100+0.5))
		if !strings.Contains(row, want) {
			t.Errorf("member %s's row reads %q, want %q in it", m.Member, row, want)
		}
	}
	if !webtest.Eval[bool](b, p, `!!document.querySelector('svg.chart[aria-label^="Wins per member"]') && document.querySelectorAll('svg.spark polyline').length === 2`) {
		t.Errorf("the group's screen lacks its charts")
	}
	if n := webtest.Eval[int](b, p, `document.querySelectorAll('[data-testid=plays] li').length`); n != 3 {
		t.Errorf("the latest plays list %d plays, not 3", n)
	}
	b.Axe(p)
}

// groupLinkJS is the fragment of a group's screen, as group.js writes it.
func groupLinkJS(id, secret string) string {
	return "#/group/" + url.PathEscape(id) + "/" + url.PathEscape(secret)
}
