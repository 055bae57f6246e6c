package api

import (
	"bytes"
	"context"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/treasury-games/treasury/api/locale"
	"github.com/treasury-games/treasury/api/models"
	"github.com/treasury-games/treasury/api/oapi"
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// The language of a request is the best of the server's for its
// Accept-Language header (English when none fits): every answer is in it
// and says so in Content-Language. The handlers and the games write English
// texts with a message beside each (<name>_message); speak renders those
// messages in the request's language as the answer leaves, so that no
// handler needs to know the language. English answers pass untouched.

// langOf returns the language of the request whose context ctx is; English
// outside a request.
func langOf(ctx context.Context) i18n.Lang {
	if s := scopeIn(ctx); s != nil && s.lang != "" {
		return s.lang
	}
	return i18n.English
}

// requestLang returns the language a request asks for: the event stream's
// ?lang= (for clients that cannot send headers, as ?access_token= is for
// the credential), else Accept-Language.
func requestLang(c echo.Context) i18n.Lang {
	if c.Path() == eventsRoute {
		if q := c.QueryParam("lang"); q != "" {
			return locale.Match(q)
		}
	}
	return locale.Match(c.Request().Header.Get("Accept-Language"))
}

// speak puts the request's language in its context, marks the answer with
// it (Content-Language, and Vary: Accept-Language for caches) and, for a
// language other than English, renders every <name>_message of a JSON
// answer into <name> (i18n.Localize). It is the outermost middleware, so
// that problems written by the error handler pass through it too; the
// event stream, which is not JSON, localises each event itself.
func speak(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		lang := requestLang(c)
		scopeOf(c).lang = lang
		h := c.Response().Header()
		// One slice backs Content-Language and Vary, with room for the
		// two Vary values most answers add after this one (Authorization,
		// Prefer): Set, Add and Add's growth made four allocations of
		// every request.
		vals := make([]string, 2, 4)
		vals[0], vals[1] = string(lang), "Accept-Language"
		h["Content-Language"] = vals[0:1:1]
		if v, ok := h["Vary"]; ok {
			h["Vary"] = append(v, vals[1]) // as Add
		} else {
			h["Vary"] = vals[1:2:4]
		}
		if lang == i18n.English {
			return next(c)
		}
		res := c.Response()
		lw := &localizer{ResponseWriter: res.Writer, lang: lang}
		res.Writer = lw
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		lw.finish()
		res.Writer = lw.ResponseWriter
		return nil
	}
}

// localizer holds back a JSON answer until it is complete, to render its
// messages in lang; any other answer (an event stream, a page, a file)
// passes through as it is written.
type localizer struct {
	http.ResponseWriter
	lang      i18n.Lang
	decided   bool // WriteHeader was called
	buffering bool // the answer is JSON, held in buf
	status    int
	buf       bytes.Buffer
}

func (w *localizer) WriteHeader(status int) {
	if w.decided {
		return
	}
	w.decided = true
	h := w.Header()
	if status != http.StatusNoContent && status != http.StatusNotModified && h.Get("Content-Encoding") == "" &&
		jsonAnswer(h.Get("Content-Type")) {
		w.buffering, w.status = true, status
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *localizer) Write(b []byte) (int, error) {
	if !w.decided {
		w.WriteHeader(http.StatusOK)
	}
	if w.buffering {
		return w.buf.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// FlushError passes a flush through, except of an answer being held.
func (w *localizer) FlushError() error {
	if w.buffering {
		return nil
	}
	return http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap gives http.ResponseController the writer below (deadlines).
func (w *localizer) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish writes the held answer with its messages rendered.
func (w *localizer) finish() {
	if !w.buffering {
		return
	}
	w.buffering = false
	raw := w.buf.Bytes()
	body := i18n.Localize(w.lang, raw)
	if len(body) != len(raw) || !bytes.Equal(body, raw) {
		if bytes.HasSuffix(raw, []byte("\n")) && !bytes.HasSuffix(body, []byte("\n")) {
			body = append(body, '\n') // as json.Encoder ends a value
		}
		if w.Header().Get("Content-Length") != "" {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		}
	}
	w.ResponseWriter.WriteHeader(w.status)
	_, _ = w.ResponseWriter.Write(body)
}

// jsonAnswer reports whether a Content-Type is JSON (problems included).
func jsonAnswer(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// langTag returns an entity tag as the request's language makes it: an
// answer in another language than English is another representation, so
// its tag names the language ("12" in English, "12-de" in German). A
// client that switches languages then never revalidates one language's
// copy for the other.
func langTag(ctx context.Context, tag string) string {
	lang := langOf(ctx)
	if lang == i18n.English || len(tag) < 2 || !strings.HasSuffix(tag, `"`) {
		return tag
	}
	return tag[:len(tag)-1] + "-" + string(lang) + `"`
}

// withoutLang returns the value of an entity tag (without quotes) with the
// language langTag added taken off: If-Match names a game's version in
// whatever language the client read it.
func withoutLang(v string) string {
	if i := strings.LastIndexByte(v, '-'); i > 0 && i18n.Supported(i18n.Lang(v[i+1:])) {
		return v[:i]
	}
	return v
}

// ListLanguages lists the languages with a catalog, English first.
func (s *Server) ListLanguages(context.Context, oapi.ListLanguagesRequestObject) (oapi.ListLanguagesResponseObject, error) {
	out := oapi.ListLanguages200JSONResponse{Languages: []models.Language{}}
	for _, l := range i18n.Languages() {
		out.Languages = append(out.Languages, models.Language{Tag: string(l), Name: i18n.Render(l, i18n.M("language.name"))})
	}
	return out, nil
}

// GetLanguage returns the whole catalog of a language, for a client to
// render messages itself.
func (s *Server) GetLanguage(ctx context.Context, r oapi.GetLanguageRequestObject) (oapi.GetLanguageResponseObject, error) {
	lang := i18n.Lang(r.Lang)
	if !i18n.Supported(lang) {
		return nil, domain.Fail(domain.NotFound, "api.language.unknown", "lang", string(r.Lang),
			"languages", tags(i18n.Languages()))
	}
	f := catalogFiles()[lang]
	cache := "public, max-age=300"
	if r.Params.IfNoneMatch != nil && noneMatch(*r.Params.IfNoneMatch, f.etag) {
		return oapi.GetLanguage304Response{Headers: oapi.GetLanguage304ResponseHeaders{ETag: f.etag, CacheControl: cache}}, nil
	}
	return languageCatalog200{lang: lang, file: f, cache: cache}, nil
}

// catalogFiles are the languages' catalogs as GET /v1/languages/{lang}
// answers them, each kept gzipped too, made once at the first request: the
// table app reads its language's at start, and the English one is 108 KB,
// 28 KB gzipped.
var catalogFiles = sync.OnceValue(func() map[i18n.Lang]appFile {
	files := map[i18n.Lang]appFile{}
	for _, l := range i18n.Languages() {
		files[l] = newAppFile(append(slices.Clip(i18n.Catalog(l)), '\n'), "application/json")
	}
	return files
})

func tags(ls []i18n.Lang) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = string(l)
	}
	return out
}

// languageCatalog200 answers with a catalog's bytes as they are, gzipped
// when the client takes gzip (see gzipAnswers). Its language is the one the
// path names, whatever Accept-Language says, and it holds no messages to
// render.
type languageCatalog200 struct {
	lang  i18n.Lang
	file  appFile
	gzip  bool
	cache string
}

func (r languageCatalog200) VisitGetLanguageResponse(w http.ResponseWriter) error {
	h := w.Header()
	h.Set("Content-Type", r.file.contentType)
	h.Set("Content-Language", string(r.lang))
	h.Set("ETag", r.file.etag)
	h.Set("Cache-Control", r.cache)
	body := r.file.body
	if r.gzip {
		h.Set("Content-Encoding", "gzip")
		body = r.file.gzipped
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(body)
	return err
}
