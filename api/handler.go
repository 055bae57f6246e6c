package api

import (
	"fmt"
	"log/slog"
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	treasury "github.com/treasury-games/treasury"
	"github.com/treasury-games/treasury/api/oapi"
	"github.com/treasury-games/treasury/domain"
)

// DefaultBodyLimit is the largest request body accepted unless Options say
// otherwise. A move is a few hundred bytes.
const DefaultBodyLimit = 64 << 10

// Options tune the HTTP layer.
type Options struct {
	// Logger receives one line per request and every internal error;
	// slog.Default() when nil.
	Logger *slog.Logger
	// BodyLimit is the largest request body in bytes; DefaultBodyLimit when 0.
	BodyLimit int64
	// DefaultRuleset is the ruleset a catalog is looked up in when the
	// request names none; empty means the only ruleset the service plays.
	DefaultRuleset string
}

func (o Options) withDefaults() Options {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.BodyLimit <= 0 {
		o.BodyLimit = DefaultBodyLimit
	}
	return o
}

// Spec loads and checks the OpenAPI document embedded in the binary.
func Spec() (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(treasury.OpenAPI)
	if err != nil {
		return nil, fmt.Errorf("api: load openapi.yaml: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("api: openapi.yaml is invalid: %w", err)
	}
	return doc, nil
}

// NewHandler returns the whole API over games: routes generated from
// openapi.yaml, request validation against it, credentials, limits and
// problem+json errors.
func NewHandler(games *domain.Games, opts Options) (http.Handler, error) {
	opts = opts.withDefaults()
	doc, err := Spec()
	if err != nil {
		return nil, err
	}
	// Requests are matched on their path alone, whatever host they name.
	doc.Servers = nil
	validate, err := validator(doc)
	if err != nil {
		return nil, err
	}

	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = errorHandler(opts.Logger)
	e.Use(
		middleware.RequestID(),
		accessLog(opts.Logger),
		middleware.RecoverWithConfig(middleware.RecoverConfig{
			LogErrorFunc: func(c echo.Context, err error, stack []byte) error {
				opts.Logger.ErrorContext(c.Request().Context(), "panic", "error", err, "stack", string(stack))
				return err
			},
		}),
		middleware.CORSWithConfig(middleware.CORSConfig{
			// Credentials travel in the Authorization header, never in
			// cookies, so any origin may call the API.
			AllowOrigins:  []string{"*"},
			AllowHeaders:  []string{echo.HeaderAuthorization, echo.HeaderContentType, "If-Match", "If-None-Match", "Idempotency-Key"},
			ExposeHeaders: []string{"ETag", echo.HeaderLocation, "Idempotency-Replayed", echo.HeaderXRequestID},
		}),
		privateCache,
		limitBody(opts.BodyLimit),
		validate,
		bearer,
	)
	oapi.RegisterHandlers(e, oapi.NewStrictHandler(NewServer(games, opts), nil))
	return e, nil
}
