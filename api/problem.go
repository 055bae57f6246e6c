package api

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/treasury-games/treasury/api/models"
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// Codes of errors that only the HTTP layer raises; the domain's own codes
// (domain.Invalid, domain.IllegalMove …) pass through unchanged.
const (
	MalformedJSON        domain.Code = "malformed_json"         // the body is not one JSON value
	ValidationFailed     domain.Code = "validation_failed"      // the request does not match openapi.yaml
	RouteNotFound        domain.Code = "route_not_found"        // no such path
	MethodNotAllowed     domain.Code = "method_not_allowed"     // the path does not take this method
	PayloadTooLarge      domain.Code = "payload_too_large"      // the body is over the limit
	UnsupportedMediaType domain.Code = "unsupported_media_type" // the body is not JSON
	RateLimited          domain.Code = "rate_limited"           // too many requests from one address or credential
	BodyTooComplex       domain.Code = "body_too_complex"       // the JSON body nests too deep or holds too many values
	RequestTimeout       domain.Code = "request_timeout"        // the body did not arrive within the read timeout
)

// kind is how one error code looks over HTTP. Its title is the message
// problemTitles + code.
type kind struct {
	status int
}

// problemTitles starts the keys of the problems' titles, one per code.
const problemTitles = "api.title."

// title is the title of the problems with code, as a message.
func title(code domain.Code) i18n.Message { return i18n.M(problemTitles + string(code)) }

// kinds is the one table that turns error codes into HTTP statuses. Every code
// here is listed in the Problem schema of openapi.yaml, and a test holds the
// two together.
var kinds = map[domain.Code]kind{
	domain.Invalid:            {http.StatusBadRequest},
	MalformedJSON:             {http.StatusBadRequest},
	ValidationFailed:          {http.StatusBadRequest},
	BodyTooComplex:            {http.StatusBadRequest},
	RequestTimeout:            {http.StatusRequestTimeout},
	domain.Unauthorized:       {http.StatusUnauthorized},
	domain.Forbidden:          {http.StatusForbidden},
	domain.NotFound:           {http.StatusNotFound},
	RouteNotFound:             {http.StatusNotFound},
	MethodNotAllowed:          {http.StatusMethodNotAllowed},
	domain.Conflict:           {http.StatusConflict},
	domain.PreconditionFailed: {http.StatusPreconditionFailed},
	PayloadTooLarge:           {http.StatusRequestEntityTooLarge},
	UnsupportedMediaType:      {http.StatusUnsupportedMediaType},
	domain.IdempotencyReused:  {http.StatusUnprocessableEntity},
	domain.IllegalMove:        {http.StatusUnprocessableEntity},
	RateLimited:               {http.StatusTooManyRequests},
	domain.Internal:           {http.StatusInternalServerError},
	domain.Unavailable:        {http.StatusServiceUnavailable},
}

// Codes lists every error code the API can answer with.
func Codes() []domain.Code {
	out := make([]domain.Code, 0, len(kinds))
	for c := range kinds {
		out = append(out, c)
	}
	return out
}

// problemCodeKey is where the error handler leaves the code of the problem it
// answered, for the metrics.
const problemCodeKey = "treasury.problem_code"

// ProblemContentType is the media type of every error answer.
const ProblemContentType = "application/problem+json"

// echoCodes turns the errors Echo raises itself into codes.
var echoCodes = map[int]domain.Code{
	http.StatusBadRequest:            ValidationFailed,
	http.StatusNotFound:              RouteNotFound,
	http.StatusMethodNotAllowed:      MethodNotAllowed,
	http.StatusRequestEntityTooLarge: PayloadTooLarge,
	http.StatusUnsupportedMediaType:  UnsupportedMediaType,
	http.StatusServiceUnavailable:    domain.Unavailable,
	http.StatusUnauthorized:          domain.Unauthorized,
	http.StatusForbidden:             domain.Forbidden,
}

// errorHandler answers every error as application/problem+json. Errors that
// carry no code are internal: they are logged and never shown.
func errorHandler(log *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		code, msg := classify(err)
		c.Set(problemCodeKey, string(code))
		req := c.Request()
		reqID := c.Response().Header().Get(echo.HeaderXRequestID)
		if code == domain.Internal {
			log.ErrorContext(req.Context(), "internal error", "error", err, "method", req.Method, "path", req.URL.Path, "request_id", reqID)
			msg = i18n.M("api.internal")
		}
		if code == domain.Unavailable && !errors.Is(err, context.Canceled) {
			log.WarnContext(req.Context(), "unavailable", "error", err, "method", req.Method, "path", req.URL.Path, "request_id", reqID)
		}
		k := kinds[code]
		p := models.Problem{
			Type:          "urn:treasury:problem:" + string(code),
			Title:         i18n.Render(langOf(req.Context()), title(code)),
			TitleMessage:  new(title(code)),
			Status:        k.status,
			Detail:        i18n.Render(langOf(req.Context()), msg),
			DetailMessage: msg,
			Code:          models.ProblemCode(code),
		}
		if rule := domain.ErrorRule(err); rule != "" {
			p.Rule = &rule
		}
		if reqID != "" {
			p.RequestId = &reqID
		}
		if ms, ok := c.Get(retryAfterKey).(int64); ok && code == RateLimited {
			p.RetryAfterMs = &ms
		}
		h := c.Response().Header()
		switch code {
		case domain.Unauthorized:
			h.Set("WWW-Authenticate", `Bearer realm="treasury"`)
		case domain.Unavailable:
			if h.Get("Retry-After") == "" {
				h.Set("Retry-After", "1")
			}
		}
		body, mErr := json.Marshal(p)
		if mErr != nil {
			log.Error("encode problem", "error", mErr)
			return
		}
		body = append(body, '\n') // as the JSON answers end
		if req.Method == http.MethodHead {
			_ = c.NoContent(k.status)
			return
		}
		if wErr := c.Blob(k.status, ProblemContentType, body); wErr != nil {
			log.Debug("write problem", "error", wErr)
		}
	}
}

// classify returns the code of err and the sentence to show for it, as a
// message. An *domain.Error made without one (domain.Errorf, only until
// every package names its messages) is shown in its English words.
func classify(err error) (domain.Code, i18n.Message) {
	var de *domain.Error
	var he *echo.HTTPError
	var mb *http.MaxBytesError
	switch {
	case errors.As(err, &de):
		if _, ok := kinds[de.Code]; !ok {
			return domain.Internal, i18n.Message{}
		}
		if de.Msg.Zero() {
			return de.Code, i18n.M("api.text", "text", de.Reason)
		}
		return de.Code, de.Msg
	case errors.As(err, &mb):
		return PayloadTooLarge, tooLarge(mb.Limit)
	case errors.As(err, &he):
		code, ok := echoCodes[he.Code]
		if !ok {
			return domain.Internal, i18n.Message{}
		}
		switch code {
		case RouteNotFound:
			return code, i18n.M("api.route-not-found")
		case MethodNotAllowed:
			return code, i18n.M("api.method-not-allowed")
		}
		// Echo's own errors and the generated binders' (which the
		// validator leaves nothing to find) say the status only.
		return code, i18n.M("api.http-status", "status", he.Code)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return domain.Unavailable, i18n.M("api.cancelled")
	}
	return domain.Internal, i18n.Message{}
}

// tooLarge says that a body is over limit bytes.
func tooLarge(limit int64) i18n.Message {
	return i18n.M("api.body-too-large", "limit", int(limit))
}
