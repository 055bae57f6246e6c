package api

import (
	"encoding/json"
	"net/http"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/treasury-games/treasury/api/locale"
	"github.com/treasury-games/treasury/api/models"
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// problemJSON is the body of a problem with code and detail, for answers
// written outside the Echo handler (its error handler writes the others).
func problemJSON(lang i18n.Lang, code domain.Code, msg i18n.Message) []byte {
	return problemJSONStatus(lang, code, kinds[code].status, msg)
}

// problemJSONStatus is problemJSON for an answer whose status is not the
// code's own (net/http's refusals of requests it could not read, see
// netHTTPProblem).
func problemJSONStatus(lang i18n.Lang, code domain.Code, status int, msg i18n.Message) []byte {
	b, _ := json.Marshal(models.Problem{
		Type: "urn:treasury:problem:" + string(code), Title: i18n.Render(lang, title(code)), TitleMessage: new(title(code)), Status: status,
		Detail: i18n.Render(lang, msg), DetailMessage: msg, Code: models.ProblemCode(code),
	})
	return append(b, '\n')
}

// Waiting is the handler of a server whose game store does not answer yet
// (a database still starting, or down when the server started): /healthz
// answers 200, the process being alive; /readyz and every other request 503
// unavailable with Retry-After, saying why; /metrics serves m (nil: 503 too).
// The server swaps in NewHandler's handler once the store answers. The
// problem says detail in the language of the request's Accept-Language.
func Waiting(m *Metrics, detail i18n.Message) http.Handler {
	var metrics http.Handler
	if m != nil {
		metrics = promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/healthz" && (r.Method == http.MethodGet || r.Method == http.MethodHead):
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Cache-Control", "no-store")
			_, _ = w.Write([]byte(`{"status":"ok"}` + "\n"))
			return
		case r.URL.Path == "/metrics" && metrics != nil:
			metrics.ServeHTTP(w, r)
			return
		}
		lang := locale.Match(r.Header.Get("Accept-Language"))
		body := problemJSON(lang, domain.Unavailable, detail)
		w.Header().Set("Content-Type", "application/problem+json")
		w.Header().Set("Content-Language", string(lang))
		w.Header().Add("Vary", "Accept-Language")
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Retry-After", "5")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write(body)
	})
}
