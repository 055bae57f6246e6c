package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/treasury-games/treasury/api"
	ct "github.com/treasury-games/treasury/domain/colorfultreasure"
	"github.com/treasury-games/treasury/domain/i18n"
	"github.com/treasury-games/treasury/domain/silvergold"
)

// germanProblem is a problem as a German client reads it.
type germanProblem struct {
	Code          string       `json:"code"`
	Title         string       `json:"title"`
	Detail        string       `json:"detail"`
	DetailMessage i18n.Message `json:"detail_message"`
}

// englishWords are words that make a sentence English; germanWords mark
// one as German. A detail with two of the first and none of the second is
// English.
var (
	englishWords = strings.Fields(`the is are must not has have this that a an of to with for no only can cannot
		already game move seat card request body there such path does do be was were its it one any
		more than which into from your you too many`)
	germanWords = strings.Fields(`der die das ist sind muss nicht kein keine keinen hat haben dieser diese dieses
		ein eine einen du dein deine und mit für nur schon spiel zug platz karte anfrage inhalt gibt es zu
		zum zur von bei sein wert feld versuch wieder`)
	wordRE = regexp.MustCompile(`[\p{L}]+`)
)

// soundsEnglish reports whether s reads as English: two or more English
// words and no German one (nor an umlaut or ß).
func soundsEnglish(s string) bool {
	if strings.ContainsAny(s, "äöüÄÖÜß") {
		return false
	}
	en, de := map[string]bool{}, map[string]bool{}
	for _, w := range englishWords {
		en[w] = true
	}
	for _, w := range germanWords {
		de[w] = true
	}
	n := 0
	for _, w := range wordRE.FindAllString(strings.ToLower(s), -1) {
		if de[w] {
			return false
		}
		if en[w] {
			n++
		}
	}
	return n >= 2
}

func TestSoundsEnglish(t *testing.T) {
	for s, want := range map[string]bool{
		"there is no such path; see /openapi.yaml":            true,
		"the request body is larger than 65536 bytes":         true,
		"Diesen Pfad gibt es nicht; siehe /openapi.yaml":      false,
		"Der Inhalt der Anfrage ist größer als 65536 Bytes":   false,
		"Parameter limit (query): Die Zahl muss mindestens 1": false,
		"grey-08": false,
	} {
		if got := soundsEnglish(s); got != want {
			t.Errorf("soundsEnglish(%q) = %v", s, got)
		}
	}
}

// render returns the message <name>_message of the JSON object doc in lang,
// as a client that renders messages itself would.
func render(lang i18n.Lang, doc []byte, name string) string {
	var v struct {
		M json.RawMessage `json:"m"`
	}
	var o map[string]json.RawMessage
	_ = json.Unmarshal(doc, &o)
	b, _ := json.Marshal(map[string]json.RawMessage{"m_message": o[name+"_message"]})
	_ = json.Unmarshal(i18n.Localize(lang, b), &v)
	var s string
	_ = json.Unmarshal(v.M, &s)
	return s
}

// TestProblemsInGerman provokes every kind of problem with
// Accept-Language: de and checks that each says what went wrong in German,
// with its message beside it.
func TestProblemsInGerman(t *testing.T) {
	s := newServer(t)
	tb := newTable(t, s, "digital", 2, "german-seed")
	lth := newLTH(t, s, "physical", 2, "", `{}`)
	ctt := newCTTable(t, s, "digital", 2, "german-ct", nil)
	de := header("Accept-Language", "de-DE,de;q=0.9,en;q=0.5")
	keep := tb.legal(t, 0).Keep
	wantStatus(t, s.Do(t, http.MethodPost, tb.path("/moves"), silvergold.Move{Type: "keep", Seat: silvergold.SeatPtr(0), Cards: keep[:2]},
		cred(tb.seats[0]), header("Idempotency-Key", "german-key-1")), http.StatusOK)
	gameKey := header("Idempotency-Key", "german-game-key-0123456789")
	wantStatus(t, s.Do(t, http.MethodPost, "/v1/games", map[string]any{"ruleset": "silver-and-gold", "mode": "physical", "players": players(2)}, gameKey), http.StatusCreated)
	big := `{"ruleset":"silver-and-gold","mode":"digital","players":[{"name":"` + strings.Repeat("x", 70<<10) + `"}]}`
	type row struct {
		name         string
		method, path string
		body         any
		opts         []opt
		status       int
		code         string
		key          string // the message key; "" for messages of the games and the domain
	}
	rows := []row{
		{"body not JSON", "POST", "/v1/games", `{"ruleset":`, nil, 400, "malformed_json", "api.body.not-one-value"},
		{"duplicate member", "POST", "/v1/games", `{"ruleset":"a","ruleset":"b"}`, nil, 400, "malformed_json", "api.body.duplicate-member"},
		{"body too deep", "POST", "/v1/games", strings.Repeat("[", 70) + strings.Repeat("]", 70), nil, 400, "body_too_complex", "api.body.too-deep"},
		{"body too large", "POST", "/v1/games", big, nil, 413, "payload_too_large", "api.body-too-large"},
		{"not JSON at all", "POST", "/v1/games", `x`, []opt{header("Content-Type", "text/plain")}, 415, "unsupported_media_type", "api.body.not-json-type"},
		{"body against the schema", "POST", "/v1/games", map[string]any{"ruleset": "silver-and-gold", "mode": "paper", "players": players(2)}, nil, 400, "validation_failed", "api.invalid.body"},
		{"unknown member", "POST", "/v1/games", map[string]any{"ruleset": "silver-and-gold", "mode": "digital", "players": players(2), "bots": 2}, nil, 400, "validation_failed", "api.invalid.body"},
		{"query parameter", "GET", tb.path("/moves?limit=0"), nil, nil, 400, "validation_failed", "api.invalid.param"},
		{"query escape", "GET", tb.path("/moves?after=%zz"), nil, nil, 400, "validation_failed", "api.query.bad-escape"},
		{"unknown route", "GET", "/v1/nothing-here", nil, nil, 404, "route_not_found", "api.route-not-found"},
		{"method not allowed", "DELETE", "/v1/games", nil, nil, 405, "method_not_allowed", "api.method-not-allowed"},
		{"no credential", "GET", tb.path("/legal-moves"), nil, nil, 401, "unauthorized", "api.auth.needed"},
		{"bearer written wrong", "GET", tb.path("/legal-moves"), nil, []opt{header("Authorization", "Bearer  "+tb.seats[0])}, 400, "invalid", "api.auth.malformed"},
		{"not bearer", "GET", tb.path("/legal-moves"), nil, []opt{header("Authorization", "Basic abc")}, 401, "unauthorized", "api.auth.not-bearer"},
		{"another seat's moves", "GET", tb.path("/legal-moves?seat=1"), nil, []opt{cred(tb.seats[0])}, 403, "forbidden", "api.legal-moves.own-seat"},
		{"weak If-Match", "POST", tb.path("/moves"), silvergold.Move{Type: "keep", Seat: silvergold.SeatPtr(0), Cards: []string{"x", "y"}},
			[]opt{cred(tb.seats[0]), header("If-Match", `W/"1"`)}, 412, "precondition_failed", "api.if-match.weak"},
		{"If-Match not a tag list", "POST", tb.path("/moves"), silvergold.Move{Type: "keep", Seat: silvergold.SeatPtr(0), Cards: []string{"x", "y"}},
			[]opt{cred(tb.seats[0]), header("If-Match", `"0" "1"`)}, 400, "validation_failed", "api.invalid.param"},
		{"stream legal moves without credential", "GET", tb.path("/events?legal_moves=true"), nil, nil, 400, "invalid", "api.stream.legal-moves-need-credential"},
		{"unknown catalog", "GET", "/v1/catalogs/deluxe", nil, nil, 404, "not_found", "api.catalog.unknown"},
		{"catalog of another hash", "GET", "/v1/catalogs/standard?ruleset=silver-and-gold&hash=" + strings.Repeat("0", 64), nil, nil, 404, "not_found", "api.catalog.hash"},
		{"unknown language", "GET", "/v1/languages/fr", nil, nil, 404, "not_found", "api.language.unknown"},
		{"not a record", "POST", "/v1/records/verify", `{"format":""}`, nil, 400, "validation_failed", "api.invalid.body"},

		// The messages of the games and of the domain (their own parts of
		// the catalogs): English until they are merged.
		{"no such game", "GET", "/v1/games/nosuchgame00", nil, nil, 404, "not_found", ""},
		{"stale If-Match", "POST", tb.path("/moves"), silvergold.Move{Type: "take", Seat: silvergold.SeatPtr(0), From: "deck"},
			[]opt{cred(tb.seats[0]), header("If-Match", `"7"`)}, 412, "precondition_failed", ""},
		{"Silver & Gold illegal move", "POST", tb.path("/moves"), silvergold.Move{Type: "take", Seat: silvergold.SeatPtr(0), From: "deck"},
			[]opt{cred(tb.seats[0])}, 422, "illegal_move", ""},
		{"Lucky Treasure Hunter illegal move", "POST", lth.path("/moves"), `{"type":"roll","faces":["pirate"]}`,
			[]opt{cred(lth.host)}, 422, "illegal_move", ""},
		{"Colorful Treasure illegal move", "POST", ctt.path("/moves"),
			ct.Move{Type: ct.MoveFlip, Seat: ct.SeatPtr(1), Cards: []ct.Pos{{Column: 0, Row: 0}, {Column: 1, Row: 0}}},
			[]opt{cred(ctt.seats[1])}, 0, "", ""},
		{"Idempotency-Key used for another move", "POST", tb.path("/moves"), silvergold.Move{Type: "keep", Seat: silvergold.SeatPtr(0), Cards: keep[2:4]},
			[]opt{cred(tb.seats[0]), header("Idempotency-Key", "german-key-1")}, 422, "idempotency_key_reused", ""},
		{"Idempotency-Key used to create another game", "POST", "/v1/games", map[string]any{"ruleset": "silver-and-gold", "mode": "physical", "players": players(3)},
			[]opt{gameKey}, 422, "idempotency_key_reused", ""},
		{"wrong join code", "POST", "/v1/join", map[string]any{"code": "ZZZZZZ"}, nil, 404, "not_found", ""},
		{"score sheet refused", "POST", "/v1/score-sheets/verify", `{"ruleset":"silver-and-gold","players":[{"name":"Tom","cards":[{}]}]}`, nil, 400, "invalid", ""},
	}
	for _, c := range rows {
		t.Run(c.name, func(t *testing.T) {
			r := s.Do(t, c.method, c.path, c.body, append([]opt{de}, c.opts...)...)
			if c.status != 0 && r.Status != c.status {
				t.Fatalf("status %d, want %d: %s", r.Status, c.status, r.Body)
			}
			if r.Status < 400 {
				t.Fatalf("status %d: no problem to check: %s", r.Status, r.Body)
			}
			p := decode[germanProblem](t, r.Body)
			if c.code != "" && p.Code != c.code {
				t.Errorf("code %s, want %s", p.Code, c.code)
			}
			if got := r.Header.Get("Content-Language"); got != "de" {
				t.Errorf("Content-Language %q, want de", got)
			}
			if want := render("de", r.Body, "title"); p.Title != want || want == "" || soundsEnglish(p.Title) {
				t.Errorf("title %q, its message in German %q", p.Title, want)
			}
			if p.Detail == "" || p.DetailMessage.Key == "" {
				t.Fatalf("detail %q, detail_message %+v", p.Detail, p.DetailMessage)
			}
			if c.key != "" && p.DetailMessage.Key != c.key {
				t.Errorf("detail_message.key %s, want %s", p.DetailMessage.Key, c.key)
			}
			if p.DetailMessage.Key == "api.text" {
				t.Errorf("detail has no message of its own (api.text): %q", p.Detail)
			}
			if !i18n.Has("de", p.DetailMessage.Key) || !i18n.Has(i18n.English, p.DetailMessage.Key) {
				t.Errorf("key %s is not in the catalogs", p.DetailMessage.Key)
			}
			if soundsEnglish(p.Detail) {
				t.Errorf("detail is English: %q", p.Detail)
			}
			if want := render("de", r.Body, "detail"); p.Detail != want {
				t.Errorf("detail %q is not its message in German, %q", p.Detail, want)
			}
		})
	}

	t.Run("rate limit", func(t *testing.T) {
		s := newServer(t)
		var r resp
		for _, code := range []string{"AAAAAA", "BBBBBB", "CCCCCC", "DDDDDD", "EEEEEE", "FFFFFF", "GGGGGG", "HHHHHH", "JJJJJJ", "KKKKKK", "MMMMMM", "NNNNNN"} {
			if r = s.Do(t, http.MethodPost, "/v1/join", map[string]any{"code": code}, de); r.Status == http.StatusTooManyRequests {
				break
			}
		}
		p := decode[germanProblem](t, r.Body)
		if r.Status != http.StatusTooManyRequests || p.DetailMessage.Key != "api.rate.join-codes" || soundsEnglish(p.Detail) {
			t.Errorf("%d %+v", r.Status, p)
		}
	})

	t.Run("English stays as it was", func(t *testing.T) {
		r := s.Do(t, http.MethodGet, "/v1/nothing-here", nil)
		p := decode[germanProblem](t, r.Body)
		if p.Detail != "there is no such path; see /openapi.yaml" || p.DetailMessage.Key != "api.route-not-found" || r.Header.Get("Content-Language") != "en" {
			t.Errorf("%v %+v", r.Header, p)
		}
	})
}

func TestAcceptLanguageNegotiation(t *testing.T) {
	s := newServer(t)
	for _, c := range []struct{ accept, want string }{
		{"", "en"},
		{"de-DE,de;q=0.9", "de"},
		{"de-AT", "de"},
		{"fr", "en"},
		{"fr-CH, fr;q=0.9, de;q=0.8, *;q=0.5", "de"},
		{"en-GB,de;q=0.5", "en"},
		{"not a language header;;;", "en"},
	} {
		t.Run(c.accept, func(t *testing.T) {
			var opts []opt
			if c.accept != "" {
				opts = append(opts, header("Accept-Language", c.accept))
			}
			for _, path := range []string{"/v1/rulesets", "/v1/nothing-here"} {
				r := s.Do(t, http.MethodGet, path, nil, opts...)
				if got := r.Header.Get("Content-Language"); got != c.want {
					t.Errorf("%s: Content-Language %q, want %q", path, got, c.want)
				}
				if !strings.Contains(strings.Join(r.Header.Values("Vary"), ","), "Accept-Language") {
					t.Errorf("%s: Vary %q", path, r.Header.Values("Vary"))
				}
				if path == "/v1/nothing-here" {
					p := decode[germanProblem](t, r.Body)
					if want := i18n.Render(i18n.Lang(c.want), i18n.M("api.route-not-found")); p.Detail != want {
						t.Errorf("detail %q, want %q", p.Detail, want)
					}
				}
			}
		})
	}

	t.Run("a game's ETag names its language", func(t *testing.T) {
		tb := newTable(t, s, "digital", 2, "etag-seed")
		en := s.Do(t, http.MethodGet, tb.path(""), nil)
		de := s.Do(t, http.MethodGet, tb.path(""), nil, header("Accept-Language", "de"))
		if en.Header.Get("ETag") != `"0"` || de.Header.Get("ETag") != `"0-de"` {
			t.Fatalf("ETags %q and %q", en.Header.Get("ETag"), de.Header.Get("ETag"))
		}
		// The German copy revalidates in German, never as the English one.
		wantStatus(t, s.Do(t, http.MethodGet, tb.path(""), nil, header("Accept-Language", "de"), header("If-None-Match", `"0-de"`)), http.StatusNotModified)
		wantStatus(t, s.Do(t, http.MethodGet, tb.path(""), nil, header("Accept-Language", "de"), header("If-None-Match", `"0"`)), http.StatusOK)
		wantStatus(t, s.Do(t, http.MethodGet, tb.path(""), nil, header("If-None-Match", `"0-de"`)), http.StatusOK)
		// If-Match names the version whichever language it was read in.
		l := tb.legal(t, 0)
		keep := silvergold.Move{Type: "keep", Seat: silvergold.SeatPtr(0), Cards: l.Keep[:2]}
		r := s.Do(t, http.MethodPost, tb.path("/moves"), keep, cred(tb.seats[0]), header("Accept-Language", "de"), header("If-Match", `"0-de"`))
		wantStatus(t, r, http.StatusOK)
		if r.Header.Get("ETag") != `"1-de"` {
			t.Errorf("ETag of the move's answer %q", r.Header.Get("ETag"))
		}
	})

	t.Run("the event stream takes ?lang=", func(t *testing.T) {
		tb := newTable(t, s, "digital", 2, "stream-lang")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.HTTP.URL+tb.path("/events?lang=de"), nil)
		res, err := s.HTTP.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Language") != "de" {
			t.Errorf("%d, Content-Language %q", res.StatusCode, res.Header.Get("Content-Language"))
		}
		line, _ := bufio.NewReader(res.Body).ReadString('\n')
		if !strings.HasPrefix(line, "retry:") {
			t.Errorf("first line %q", line)
		}
	})

	t.Run("a server waiting for its database", func(t *testing.T) {
		h := api.Waiting(nil, i18n.M("api.waiting-for-database"))
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/v1/rulesets", nil)
		req.Header.Set("Accept-Language", "de")
		h.ServeHTTP(rec, req)
		p := decode[germanProblem](t, rec.Body.Bytes())
		if rec.Code != http.StatusServiceUnavailable || p.DetailMessage.Key != "api.waiting-for-database" || soundsEnglish(p.Detail) ||
			rec.Header().Get("Content-Language") != "de" {
			t.Errorf("%d %v %+v", rec.Code, rec.Header(), p)
		}
	})
}

func TestLanguagesEndpoint(t *testing.T) {
	s := newServer(t)
	r := s.Do(t, http.MethodGet, "/v1/languages", nil)
	wantStatus(t, r, http.StatusOK)
	list := decode[struct {
		Languages []struct{ Tag, Name string } `json:"languages"`
	}](t, r.Body)
	if len(list.Languages) < 2 || list.Languages[0].Tag != "en" || list.Languages[0].Name != "English" {
		t.Fatalf("languages %+v", list.Languages)
	}
	found := false
	for _, l := range list.Languages {
		found = found || (l.Tag == "de" && l.Name == "Deutsch")
	}
	if !found {
		t.Errorf("no Deutsch among %+v", list.Languages)
	}

	r = s.Do(t, http.MethodGet, "/v1/languages/de", nil)
	wantStatus(t, r, http.StatusOK)
	var cat map[string]json.RawMessage
	if err := json.Unmarshal(r.Body, &cat); err != nil {
		t.Fatal(err)
	}
	var name, detail string
	_ = json.Unmarshal(cat["language.name"], &name)
	_ = json.Unmarshal(cat["api.route-not-found"], &detail)
	if name != "Deutsch" || soundsEnglish(detail) || len(cat) != len(i18n.Keys("de")) {
		t.Errorf("catalog: language.name %q, api.route-not-found %q, %d keys of %d", name, detail, len(cat), len(i18n.Keys("de")))
	}
	if r.Header.Get("Content-Language") != "de" || r.Header.Get("Cache-Control") == "" {
		t.Errorf("headers %v", r.Header)
	}
	tag := r.Header.Get("ETag")
	wantStatus(t, s.Do(t, http.MethodGet, "/v1/languages/de", nil, header("If-None-Match", tag)), http.StatusNotModified)
	if en := s.Do(t, http.MethodGet, "/v1/languages/en", nil); en.Header.Get("ETag") == tag {
		t.Errorf("en and de share the ETag %s", tag)
	}
	wantProblem(t, s.Do(t, http.MethodGet, "/v1/languages/xx", nil), http.StatusNotFound, "not_found")
}

// TestGermanListing reads a legal-move listing in German: every label with a
// message is that message in German.
func TestGermanListing(t *testing.T) {
	s := newServer(t)
	tb := newTable(t, s, "digital", 2, "listing-seed")
	r := s.Do(t, http.MethodGet, tb.path("/legal-moves"), nil, cred(tb.seats[0]), header("Accept-Language", "de"))
	wantStatus(t, r, http.StatusOK)
	if r.Header.Get("Content-Language") != "de" {
		t.Errorf("Content-Language %q", r.Header.Get("Content-Language"))
	}
	var l struct {
		Moves []struct {
			Label        string        `json:"label"`
			LabelMessage *i18n.Message `json:"label_message"`
		} `json:"moves"`
	}
	if err := json.Unmarshal(r.Body, &l); err != nil {
		t.Fatal(err)
	}
	if len(l.Moves) == 0 {
		t.Fatalf("no moves: %s", r.Body)
	}
	n := 0
	for _, m := range l.Moves {
		if m.LabelMessage == nil {
			continue
		}
		n++
		b, _ := json.Marshal(map[string]any{"label_message": m.LabelMessage})
		if want := render("de", b, "label"); m.Label != want || soundsEnglish(m.Label) {
			t.Errorf("label %q, want %q (%+v)", m.Label, want, m.LabelMessage)
		}
	}
	if n == 0 {
		t.Errorf("no label has a label_message: %s", r.Body)
	}
}

// TestGermanEventStream reads a stream in German: its events' texts are
// rendered in the language the stream was opened with.
func TestGermanEventStream(t *testing.T) {
	s := newServer(t)
	for _, c := range []struct {
		name    string
		query   string
		headers []string
	}{
		{"Accept-Language", "", []string{"Accept-Language", "de"}},
		{"?lang=", "?lang=de", []string{"Accept-Language", "en"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTable(t, s, "digital", 2, "german-stream")
			st := openStream(t, s, tb.path("/events"+c.query), append([]string{"Authorization", "Bearer " + tb.seats[0]}, c.headers...)...)
			if got := st.resp.Header.Get("Content-Language"); got != "de" {
				t.Errorf("Content-Language %q", got)
			}
			if ev, _ := st.next(t); ev.Type != "snapshot" {
				t.Fatalf("first event %s", ev.Type)
			}
			wantStatus(t, s.Do(t, http.MethodPost, tb.path("/seats/0/credential"), nil, cred(tb.host)), http.StatusOK)
			for {
				ev, ok := st.next(t)
				if !ok {
					t.Fatal("the stream ended without credential_revoked")
				}
				if ev.Type != "credential_revoked" {
					continue
				}
				var d struct {
					Reason        string       `json:"reason"`
					ReasonMessage i18n.Message `json:"reason_message"`
				}
				if err := json.Unmarshal([]byte(ev.Data), &d); err != nil {
					t.Fatal(err)
				}
				if d.ReasonMessage.Key != "api.stream.credential-revoked" || d.Reason != i18n.Render("de", d.ReasonMessage) || soundsEnglish(d.Reason) {
					t.Errorf("credential_revoked %s", ev.Data)
				}
				return
			}
		})
	}
}

// TestRulesetsInGerman: what a client shows to choose a game (each
// ruleset's summary and its options' descriptions) comes in German.
func TestRulesetsInGerman(t *testing.T) {
	s := newServer(t)
	r := s.Do(t, http.MethodGet, "/v1/rulesets", nil, header("Accept-Language", "de"))
	wantStatus(t, r, http.StatusOK)
	var got struct {
		Rulesets []struct {
			Name    string `json:"name"`
			Summary string `json:"summary"`
			Options []struct {
				Name        string `json:"name"`
				Description string `json:"description"`
			} `json:"options"`
		} `json:"rulesets"`
	}
	if err := json.Unmarshal(r.Body, &got); err != nil || len(got.Rulesets) < 3 {
		t.Fatalf("rulesets: %v %s", err, r.Body)
	}
	for _, rs := range got.Rulesets {
		if rs.Summary == "" || soundsEnglish(rs.Summary) {
			t.Errorf("%s: summary %q is not German", rs.Name, rs.Summary)
		}
		for _, o := range rs.Options {
			if o.Description == "" || soundsEnglish(o.Description) {
				t.Errorf("%s: option %s: description %q is not German", rs.Name, o.Name, o.Description)
			}
		}
	}
}
