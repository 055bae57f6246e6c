package api

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/treasury-games/treasury/api/models"
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// eventsRoute is the pattern of the event stream's route.
const eventsRoute = "/v1/games/:id/events"

// DefaultHeartbeat is how often an idle event stream sends a keep-alive
// comment, well within the minute after which proxies commonly cut idle
// connections.
const DefaultHeartbeat = 15 * time.Second

// streamWriteTimeout bounds each write to an event stream: a client that
// reads nothing for this long is cut off (it reconnects with Last-Event-ID
// and catches up from the store). It replaces the server's WriteTimeout,
// which would end every stream after a fixed time.
const streamWriteTimeout = 30 * time.Second

// streamGameEvents serves GET /v1/games/{id}/events as Server-Sent Events.
//
// No move is lost or sent twice: the stream subscribes to live updates before
// it reads anything from the store, so every move committed after that read
// also arrives live; it remembers the last version sent and skips live
// updates at or below it. A client that falls too far behind has its
// subscription dropped by the service; the stream then subscribes again and
// catches up from the store the same way. When several servers share the
// store, the stream also catches up from the store at every heartbeat, so
// that a notice of another server's move that never came delays that move
// by a heartbeat at most.
func (s *Server) streamGameEvents(c echo.Context) error {
	req := c.Request()
	ctx := req.Context()
	id := c.Param("id")

	cred := credential(ctx)
	if cred == "" {
		cred = c.QueryParam("access_token")
	}
	var actor *domain.Actor
	if cred != "" {
		a, err := s.games.Authenticate(ctx, id, cred)
		if err != nil {
			return err
		}
		actor = &a
	}
	viewer := domain.ViewerOf(actor)
	last, resume, err := lastEventID(c)
	if err != nil {
		return err
	}
	legalSeat := -2 // no legal_moves events
	if c.QueryParam("legal_moves") == "true" {
		switch {
		case actor == nil:
			return domain.Fail(domain.Invalid, "api.stream.legal-moves-need-credential")
		case actor.Host:
			legalSeat = -1 // the table's own moves
		default:
			legalSeat = actor.Seat
		}
	}
	followNext := c.QueryParam("next_game") == "true"
	release, err := s.streams.acquire(c, addressKey(c.RealIP()), cred)
	if err != nil {
		return err
	}
	defer release()

	updates, unsubscribe := s.games.Subscribe(id)
	defer func() { unsubscribe() }()
	changed := s.games.Changed(id)
	g, err := s.games.Game(ctx, id, viewer)
	if err != nil {
		return err
	}
	if resume && last > g.Version {
		resume = false // a version this game never reached: start afresh
	}
	if resume && g.Ended && last == g.Version && !followNext {
		// Everything was sent; 204 tells EventSource to stop reconnecting.
		return c.NoContent(http.StatusNoContent)
	}

	st := s.openStream(c)
	defer st.close()
	st.legalSeat = legalSeat
	st.id, st.cred, st.followNext = id, cred, followNext
	sent := g.Version
	if resume {
		if sent, err = st.catchUp(ctx, id, last, viewer); err != nil {
			return st.fail(err)
		}
	} else if err := st.snapshot(g); err != nil {
		return st.fail(err)
	}
	if g.Ended && sent >= g.Version {
		return st.afterEnd(ctx) // the game is over and the client has all of it
	}
	if err := st.legal(ctx, id, viewer); err != nil {
		return st.fail(err)
	}
	if err := st.flush(); err != nil {
		return nil
	}

	heartbeat := time.NewTicker(s.heartbeat)
	defer heartbeat.Stop()
	for {
		select {
		case <-ctx.Done(): // the client went away
			return nil
		case <-s.done: // the server shuts down
			return nil
		case <-heartbeat.C:
			if s.games.Shared() {
				// Other servers store moves too, and a notice of one may
				// never come: the log is the truth, read it now and then.
				var ended bool
				if sent, ended, err = st.catchUpEnded(ctx, id, sent, viewer); err != nil {
					return st.fail(err)
				}
				if ended {
					return st.afterEnd(ctx)
				}
				// Another server may have issued this seat again.
				if st.revoked(ctx) {
					return nil
				}
			}
			if err := st.comment("keep-alive"); err != nil {
				return nil
			}
		case <-changed:
			// A seat was taken or issued again: is this stream's
			// credential still one of the game's?
			changed = s.games.Changed(id)
			if st.revoked(ctx) {
				return nil
			}
		case u, ok := <-updates:
			if !ok {
				// Dropped for falling behind: subscribe again, then catch
				// up from the store from the last version sent.
				s.metrics.resyncs.Inc()
				updates, unsubscribe = s.games.Subscribe(id)
				changed = s.games.Changed(id)
				if sent, err = st.catchUp(ctx, id, sent, viewer); err != nil {
					return st.fail(err)
				}
				g, err := s.games.Game(ctx, id, domain.Public)
				if err != nil {
					return st.fail(err)
				}
				if g.Ended && sent >= g.Version {
					return st.afterEnd(ctx)
				}
				// The seat may be the one the game waits for: nothing else
				// would tell it its legal moves again.
				if err := st.legal(ctx, id, viewer); err != nil {
					return st.fail(err)
				}
				if err := st.flush(); err != nil {
					return nil
				}
				continue
			}
			if u.Seq <= sent {
				if u.Ended {
					return st.afterEnd(ctx) // the end, already sent from the store
				}
				continue // already sent from the store
			}
			if u.Seq > sent+1 {
				// Updates arrive in order, but with several servers one
				// may be missing (a notice lost, or a read of the log
				// overtaken by a move played here): the store has what
				// lies between, maybe the game's end too.
				var ended bool
				if sent, ended, err = st.catchUpEnded(ctx, id, sent, viewer); err != nil {
					return st.fail(err)
				}
				if ended {
					return st.afterEnd(ctx)
				}
				if u.Seq <= sent {
					continue
				}
			}
			st.group(*u, viewer, true)
			sent = u.Seq
			if u.Ended {
				if st.flush() != nil {
					return nil
				}
				return st.afterEnd(ctx)
			}
			if len(updates) == 0 { // caught up: what may the seat do now?
				if err := st.legal(ctx, id, viewer); err != nil {
					return st.fail(err)
				}
			}
			if err := st.flush(); err != nil {
				return nil
			}
		}
	}
}

// lastEventID reads the version a reconnecting client has seen, from the
// Last-Event-ID header or the last_event_id parameter (the header wins).
func lastEventID(c echo.Context) (v int64, ok bool, err error) {
	raw := c.Request().Header.Get("Last-Event-ID")
	if raw == "" {
		raw = c.QueryParam("last_event_id")
	}
	if raw == "" {
		return 0, false, nil
	}
	v, err = strconv.ParseInt(raw, 10, 64)
	if err != nil || v < 0 {
		return 0, false, domain.Fail(ValidationFailed, "api.stream.last-event-id", "value", raw)
	}
	return v, true, nil
}

// stream writes Server-Sent Events to one client.
type stream struct {
	s    *Server
	lang i18n.Lang // of the request: the events' texts are in it
	c    echo.Context
	res  http.ResponseWriter
	w    *bufio.Writer // from streamBuffers while events wait for a flush; nil when none do
	rc   *http.ResponseController
	err  error // the first write error; the stream is dead after it

	id         string // the game
	cred       string // the credential the stream was opened with; "" for none
	followNext bool   // ?next_game=true: after the end, wait for the next game and tell it

	legalSeat int    // the seat whose legal moves are told, -1 the table's; -2 for none
	lastLegal []byte // the legal moves last told, without their version
	legalAt   int64  // the version lastLegal was read at
}

// legal buffers a legal_moves event with what the stream's seat may do now,
// when it differs from what was told last.
func (st *stream) legal(ctx context.Context, id string, v domain.Viewer) error {
	if st.legalSeat < -1 {
		return nil
	}
	head, l, err := st.s.games.LegalMoves(ctx, id, v, st.legalSeat)
	if err != nil {
		return err
	}
	if bytes.Equal(l, st.lastLegal) {
		return nil
	}
	st.lastLegal, st.legalAt = l, head.Version
	st.event("legal_moves", "", withHead(l, head))
	return nil
}

// spent forgets the legal moves last told when u is a move of the stream's
// own seat (or the table's) made after they were read: the client acted on
// them, and must hear what it may do next even when that reads the same (a
// roll of 1 die owed again after another seat's move, told with this one).
func (st *stream) spent(u domain.Update) {
	own := u.Actor.Host == (st.legalSeat == -1) && (u.Actor.Host || u.Actor.Seat == st.legalSeat)
	if st.legalSeat >= -1 && own && u.Seq > st.legalAt {
		st.lastLegal = nil
	}
}

func (s *Server) openStream(c echo.Context) *stream {
	res := c.Response()
	h := res.Header()
	h.Set(echo.HeaderContentType, "text/event-stream")
	h.Set("Cache-Control", "private, no-cache, no-transform")
	h.Set("X-Accel-Buffering", "no") // tell nginx not to buffer the stream
	res.WriteHeader(http.StatusOK)
	st := &stream{s: s, c: c, res: res, rc: http.NewResponseController(res), lang: langOf(c.Request().Context())}
	// The server's read and write timeouts are meant for requests that end;
	// a stream manages its own deadline per write instead. An error means
	// the writer cannot set deadlines (a test recorder): nothing to lift.
	_ = st.rc.SetReadDeadline(time.Time{})
	s.metrics.streams.Inc()
	st.out().WriteString("retry: 2000\n\n")
	st.flush()
	return st
}

func (st *stream) close() { st.s.metrics.streams.Dec() }

// fail ends a stream after an error. The status line is gone, so the error
// can only be logged; the client reconnects and tries again.
func (st *stream) fail(err error) error {
	ctx := st.c.Request().Context()
	if err == st.err {
		return nil // the client stopped reading or went away
	}
	if ctx.Err() == nil {
		st.s.log.WarnContext(ctx, "event stream ended on an error", "error", err,
			"request_id", st.c.Response().Header().Get(echo.HeaderXRequestID))
	}
	return nil
}

// flush sends what is buffered, within streamWriteTimeout.
func (st *stream) flush() error {
	if st.err != nil {
		return st.err
	}
	st.arm()
	if st.w != nil {
		st.err = st.w.Flush()
		st.w.Reset(nil)
		streamBuffers.Put(st.w)
		st.w = nil
	}
	if st.err == nil {
		st.err = st.rc.Flush()
	}
	return st.err
}

// streamBuffers hold the events of a stream between their writing and the
// flush that sends them: an idle stream holds none (8 KB each; with 10,000
// streams open, 80 MB).
var streamBuffers = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 8<<10) }}

// out returns the buffer the stream's events are written to until the next
// flush.
func (st *stream) out() *bufio.Writer {
	if st.w == nil {
		st.w = streamBuffers.Get().(*bufio.Writer)
		st.w.Reset(st.res)
	}
	return st.w
}

// arm gives the writes from now on streamWriteTimeout to finish.
func (st *stream) arm() { _ = st.rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout)) }

// event buffers one event; data is JSON, whose messages are rendered in
// the stream's language.
func (st *stream) event(typ, id string, data []byte) {
	data = i18n.Localize(st.lang, data)
	w := st.out()
	w.WriteString("event: ")
	w.WriteString(typ)
	w.WriteByte('\n')
	if id != "" {
		w.WriteString("id: ")
		w.WriteString(id)
		w.WriteByte('\n')
	}
	// Encoded JSON holds no newline, but a field of a stored event may have
	// been indented; each line of data is a data line of its own.
	for line := range bytes.Lines(data) {
		w.WriteString("data: ")
		w.Write(bytes.TrimRight(line, "\r\n"))
		w.WriteByte('\n')
	}
	w.WriteByte('\n')
}

func (st *stream) comment(text string) error {
	st.out().WriteString(": " + text + "\n\n")
	return st.flush()
}

// snapshot sends the game as the viewer sees it.
func (st *stream) snapshot(g domain.GameView) error {
	data, err := json.Marshal(gameToAPI(g))
	if err != nil {
		return err
	}
	st.event("snapshot", itoa(g.Version), data)
	return st.flush()
}

// group buffers one move and the events it caused as the viewer may read
// them (live: as they happen; otherwise caught up from the log); the last of
// them carries the game's version as its id.
func (st *stream) group(u domain.Update, v domain.Viewer, live bool) {
	st.spent(u)
	m, visible := u.Disclose(v, live)
	move := models.EventMove{Seq: u.Seq, Actor: models.Actor{Host: u.Actor.Host}, Move: union[models.Move](m), At: u.At}
	if !u.Actor.Host {
		seat := u.Actor.Seat
		move.Actor.Seat = &seat
	}
	data, _ := json.Marshal(move) // plain values and valid JSON only
	id := itoa(u.Seq)
	if len(visible) == 0 {
		st.event("move", id, data)
	} else {
		st.event("move", "", data)
	}
	for i, e := range visible {
		eid := ""
		if i == len(visible)-1 {
			eid = id
		}
		st.event(e.Type, eid, e.Data)
	}
}

// catchUp sends, from the store, every move after version after, and returns
// the last version sent.
func (st *stream) catchUp(ctx context.Context, id string, after int64, v domain.Viewer) (int64, error) {
	sent, _, err := st.catchUpEnded(ctx, id, after, v)
	return sent, err
}

// catchUpEnded is catchUp that also says whether it sent the game's end.
func (st *stream) catchUpEnded(ctx context.Context, id string, after int64, v domain.Viewer) (int64, bool, error) {
	backlog, err := st.s.games.Updates(ctx, id, after)
	if err != nil {
		return after, false, err
	}
	if len(backlog) == 0 {
		return after, false, nil
	}
	st.arm()
	for _, u := range backlog {
		st.group(u, v, false)
		after = u.Seq
	}
	return after, backlog[len(backlog)-1].Ended, st.flush()
}

// revoked reports whether the stream's credential is no longer the game's
// (the host issued its seat again, or the seat was picked on the join page
// before the credential's first use); it then tells the client so in a
// credential_revoked event, and the stream ends.
func (st *stream) revoked(ctx context.Context) bool {
	if st.cred == "" {
		return false
	}
	_, err := st.s.games.Authenticate(ctx, st.id, st.cred)
	if domain.ErrorCode(err) != domain.Unauthorized {
		return false
	}
	m := i18n.M("api.stream.credential-revoked")
	data, _ := json.Marshal(models.EventCredentialRevoked{Reason: i18n.Text(m), ReasonMessage: &m})
	st.event("credential_revoked", "", data)
	_ = st.flush()
	return true
}

// afterEnd ends a stream whose client has the whole game. With
// ?next_game=true it first waits (keeping the connection alive) until the
// host starts the next game with the same players, tells it in a next_game
// event, and ends then; each credential asks for its own credential of the
// next game (POST /v1/games/{id}/next).
func (st *stream) afterEnd(ctx context.Context) error {
	if !st.followNext {
		return nil
	}
	s := st.s
	heartbeat := time.NewTicker(s.heartbeat)
	defer heartbeat.Stop()
	for {
		changed := s.games.Changed(st.id)
		next, err := s.games.NextGameOf(ctx, st.id)
		if err != nil {
			return st.fail(err)
		}
		if next != "" {
			data, _ := json.Marshal(models.EventNextGame{GameId: next})
			st.event("next_game", "", data)
			_ = st.flush()
			return nil
		}
		if st.revoked(ctx) {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-s.done:
			return nil
		case <-changed:
		case <-heartbeat.C:
			if err := st.comment("keep-alive"); err != nil {
				return nil
			}
		}
	}
}
