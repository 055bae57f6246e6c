package api

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/treasury-games/treasury/api/models"
	"github.com/treasury-games/treasury/api/oapi"
	"github.com/treasury-games/treasury/domain"
)

// GetJoinCode returns the game's join code (the host's only).
func (s *Server) GetJoinCode(ctx context.Context, r oapi.GetJoinCodeRequestObject) (oapi.GetJoinCodeResponseObject, error) {
	a, err := s.mustActor(ctx, r.Id)
	if err != nil {
		return nil, err
	}
	code, err := s.games.JoinCode(ctx, r.Id, a)
	if err != nil {
		return nil, err
	}
	return oapi.GetJoinCode200JSONResponse{Code: code, GameId: r.Id}, nil
}

// OpenJoinCode returns the game and seats a join code opens.
func (s *Server) OpenJoinCode(ctx context.Context, r oapi.OpenJoinCodeRequestObject) (oapi.OpenJoinCodeResponseObject, error) {
	t, err := s.games.Join(ctx, r.Body.Code)
	if err != nil {
		return nil, err
	}
	out := oapi.OpenJoinCode200JSONResponse{GameId: t.GameID, Ruleset: t.Ruleset, Mode: models.Mode(t.Mode), Seats: make([]models.JoinSeat, len(t.Seats))}
	for i, st := range t.Seats {
		out.Seats[i] = models.JoinSeat{Seat: st.Seat, Name: st.Name, Taken: st.Taken}
	}
	return out, nil
}

// TakeSeat hands a free seat to whoever picked it on the join page.
func (s *Server) TakeSeat(ctx context.Context, r oapi.TakeSeatRequestObject) (oapi.TakeSeatResponseObject, error) {
	key := ""
	if r.Params.IdempotencyKey != nil {
		key = *r.Params.IdempotencyKey
	}
	c, err := s.games.TakeSeat(ctx, r.Body.Code, r.Body.Seat, key)
	if err != nil {
		return nil, err
	}
	return oapi.TakeSeat201JSONResponse{GameId: c.GameID, Seat: c.Seat, Credential: c.Credential}, nil
}

// ReissueSeat gives a seat a fresh credential (the host's only).
func (s *Server) ReissueSeat(ctx context.Context, r oapi.ReissueSeatRequestObject) (oapi.ReissueSeatResponseObject, error) {
	a, err := s.mustActor(ctx, r.Id)
	if err != nil {
		return nil, err
	}
	c, err := s.games.ReissueSeat(ctx, r.Id, a, r.Seat)
	if err != nil {
		return nil, err
	}
	return oapi.ReissueSeat200JSONResponse{GameId: c.GameID, Seat: c.Seat, Credential: c.Credential}, nil
}

// PlayAgain starts (host) or joins (seat) the next game with the same players.
func (s *Server) PlayAgain(ctx context.Context, r oapi.PlayAgainRequestObject) (oapi.PlayAgainResponseObject, error) {
	a, err := s.mustActor(ctx, r.Id)
	if err != nil {
		return nil, err
	}
	n, err := s.games.PlayAgain(ctx, r.Id, a, credential(ctx))
	if err != nil {
		return nil, err
	}
	body := models.NextGame{Game: gameToAPI(n.Game), Host: n.Host, Credential: n.Credential}
	if !n.Host {
		seat := n.Seat
		body.Seat = &seat
	}
	if n.Created {
		return oapi.PlayAgain201JSONResponse{Body: body, Headers: oapi.PlayAgain201ResponseHeaders{Location: "/v1/games/" + n.Game.ID}}, nil
	}
	return oapi.PlayAgain200JSONResponse(body), nil
}

// DefaultJoinLimit is how many wrong join codes one client address may send:
// 10 at once, then one every 10 seconds. A table typing its code makes one
// or two mistakes; a guesser gets under 9,000 tries a day against codes
// drawn from 887 million.
var DefaultJoinLimit = RateLimit{Rate: 0.1, Burst: 10}

// joinRoutes are the paths that take a join code.
var joinRoutes = map[string]bool{"/v1/join": true, "/v1/join/seat": true}

// joinGuard limits the wrong join codes of each client address: a request
// is refused with 429 rate_limited and Retry-After while the address has no
// wrong guess left, and a code that opens nothing spends one. Right codes
// spend nothing, so a table joining from one network is never held up.
func joinGuard(byAddress *limiters, m *Metrics) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if c.Request().Method != http.MethodPost || !joinRoutes[c.Path()] {
				return next(c)
			}
			key := addressKey(c.RealIP())
			if wait, ok := byAddress.peek(key, time.Now()); !ok {
				m.limited.WithLabelValues("join").Inc()
				ms := max(int64(math.Ceil(float64(wait)/float64(time.Millisecond))), 1)
				secs := max(int(math.Ceil(wait.Seconds())), 1)
				c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
				c.Set(retryAfterKey, ms)
				return domain.Fail(RateLimited, "api.rate.join-codes", "seconds", secs)
			}
			err := next(c)
			if domain.ErrorCode(err) == domain.NotFound {
				byAddress.take(key, time.Now())
			}
			return err
		}
	}
}
