package api

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/treasury-games/treasury/api/models"
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
	"github.com/treasury-games/treasury/domain/service"
)

// eventsRoute is the pattern of the event stream's route.
const eventsRoute = "/v1/games/:id/events"

// DefaultHeartbeat is how often an idle event stream sends a keep-alive
// comment, well within the minute after which proxies commonly cut idle
// connections.
const DefaultHeartbeat = 15 * time.Second

// DefaultStreamWriteTimeout bounds each write to an event stream: a client
// that reads nothing for this long (up to a quarter more: see arm) is cut
// off (it reconnects with Last-Event-ID and catches up from the store). It
// replaces the server's WriteTimeout, which would end every stream after a
// fixed time.
const DefaultStreamWriteTimeout = 30 * time.Second

// streamGameEvents serves GET /v1/games/{id}/events as Server-Sent Events.
//
// No move is lost or sent twice: the stream listens to live updates before
// it reads anything from the store, so every move committed after that read
// also arrives live; it remembers the last version sent and skips live
// updates at or below it. A client that falls too far behind has its queued
// updates forgotten; the stream then catches up from the store the same way.
// When several servers share the store, the stream also catches up from the
// store at every heartbeat, so that a notice of another server's move that
// never came delays that move by a heartbeat at most.
//
// Once the snapshot (or what a resuming client missed) is sent, the stream
// holds no goroutine: it takes the connection from net/http (see detach),
// and whoever publishes an update, the heartbeat wheel (streamHub) or the
// watch of closed connections wakes it to write (see stream.run).
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
	release, err := s.streams.acquire(c, addressKey(c.RealIP()), cred)
	if err != nil {
		return err
	}
	st := &stream{s: s, lang: langOf(ctx), id: id, cred: cred, viewer: viewer, legalSeat: legalSeat,
		followNext: c.QueryParam("next_game") == "true", release: release,
		requestID: c.Response().Header().Get(echo.HeaderXRequestID)}
	st.unlisten = s.games.Listen(id, st)
	handedOff := false
	defer func() {
		if !handedOff {
			st.unlisten()
			release()
		}
	}()
	g, err := s.games.Game(ctx, id, viewer)
	if err != nil {
		return err
	}
	if resume && last > g.Version {
		resume = false // a version this game never reached: start afresh
	}
	if resume && g.Ended && last == g.Version && !st.followNext {
		// Everything was sent; 204 tells EventSource to stop reconnecting.
		return c.NoContent(http.StatusNoContent)
	}

	st.open(c)
	defer func() {
		if !handedOff {
			s.metrics.streams.Dec()
		}
	}()
	st.sent = g.Version
	if resume {
		if st.sent, err = st.catchUp(ctx, last); err != nil {
			st.fail(err)
			return nil
		}
	} else if err := st.snapshot(g); err != nil {
		st.fail(err)
		return nil
	}
	if g.Ended && st.sent >= g.Version {
		// The game is over and the client has all of it.
		if !st.afterEnd(ctx) {
			return nil
		}
	} else if err := st.legal(ctx); err != nil {
		st.fail(err)
		return nil
	}
	if st.flush() != nil {
		return nil
	}
	handedOff = true
	return st.detach(ctx)
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

// stream writes Server-Sent Events to one client: first from the request's
// handler, then, once detached, from a goroutine started for each bout of
// work (run) and gone when it is done.
type stream struct {
	s         *Server
	lang      i18n.Lang // of the request: the events' texts are in it
	requestID string    // of the request that opened it, for the log
	unlisten  func()    // stops the game's updates
	release   func()    // frees its place under the caps on streams

	id         string        // the game
	cred       string        // the credential the stream was opened with; "" for none
	viewer     domain.Viewer // whom the events are disclosed to
	followNext bool          // ?next_game=true: after the end, wait for the next game and tell it
	waiting    bool          // the client has the whole game and waits for the next
	sent       int64         // the last version sent

	legalSeat int // the seat whose legal moves are told, -1 the table's; -2 for none
	// The legal moves last told, without their version, in the service's
	// two parts (service.LegalMovesParts): the ruleset's listing (nil to
	// tell the next one whatever it holds) and the take-backs added to it.
	lastLegal     []byte
	lastTakeBacks []json.RawMessage
	legalAt       int64 // the version lastLegal was read at

	// Where the events go: the response through net/http until detach,
	// then the bare connection (conn), in chunks when chunked.
	res     http.ResponseWriter
	rc      *http.ResponseController
	conn    net.Conn
	chunked bool
	out     *[]byte       // from streamBuffers while events wait for a flush, after chunkRoom bytes; nil when none do
	armed   time.Time     // the write deadline set last (arm); zero for none
	err     error         // the first write error; the stream is dead after it
	ended   chan struct{} // closed at the end of a stream that could not be detached

	mu      sync.Mutex       // guards what follows: what woke the stream
	queue   []*domain.Update // updates not yet sent
	spare   []*domain.Update // the queue a run sent last, emptied: the next queue (run's alone)
	behind  bool             // the queue overflowed: catch up from the store
	beat    bool             // a heartbeat is due
	seats   bool             // a seat changed: is the credential still the game's?
	stop    bool             // end: the server shuts down
	gone    bool             // end: the client went away
	live    bool             // detached: wakes start run
	running bool             // a run is under way (or the stream is over)
	slot    int              // of the heartbeat wheel
	unwatch func()           // ends the watch of the connection
}

// Update queues an update (service.Listener); past SubscriberBuffer queued
// ones, it forgets them and catches up from the store when it runs.
func (st *stream) Update(u *domain.Update) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	switch {
	case st.behind:
	case len(st.queue) >= service.SubscriberBuffer:
		st.queue, st.behind = nil, true
	default:
		st.queue = append(st.queue, u)
	}
	st.wakeLocked()
	return true
}

// SeatsChanged makes the stream check its credential (service.Listener).
func (st *stream) SeatsChanged() { st.wake(func() { st.seats = true }) }

// wake records why the stream should run, and starts a run unless one is
// under way (it then sees it) or the stream is not detached yet (detach
// starts one).
func (st *stream) wake(why func()) {
	st.mu.Lock()
	why()
	st.wakeLocked()
	st.mu.Unlock()
}

func (st *stream) wakeLocked() {
	if st.live && !st.running {
		st.running = true
		startRun(st)
	}
}

// streamRunners hands a stream's run to a runner goroutine waiting for one
// (unbuffered: a send succeeds only when one waits).
var streamRunners = make(chan *stream)

// runnerIdle is how long a runner waits for another stream's run before it
// ends: long enough to outlast the pause between a table's moves, so that the
// runs after each move find runners whose stacks have grown to what a run
// needs (a fresh goroutine grew its stack several times in every run: 5% of
// the server's CPU in a load run, issue 27); an idle server keeps none.
const runnerIdle = 5 * time.Second

// startRun runs st on a waiting runner, or on a new one.
func startRun(st *stream) {
	select {
	case streamRunners <- st:
	default:
		go runner(st)
	}
}

// runner runs st, then the runs handed to it, until none comes for
// runnerIdle.
func runner(st *stream) {
	t := time.NewTimer(runnerIdle)
	defer t.Stop()
	for {
		st.run()
		st = nil // hold nothing of a stream while waiting
		t.Reset(runnerIdle)
		select {
		case st = <-streamRunners:
		case <-t.C:
			return
		}
	}
}

// run does what the stream was woken for until nothing is left, then
// returns: an idle stream holds no goroutine.
func (st *stream) run() {
	for {
		st.mu.Lock()
		q, behind, beat, seats, stop := st.queue, st.behind, st.beat, st.seats, st.stop || st.gone
		st.behind, st.beat, st.seats = false, false, false
		if len(q) > 0 {
			// Updates queue in the slice of the last run: a queue of its
			// own was an allocation for every stream after every move.
			st.queue, st.spare = st.spare, nil
		}
		if len(q) == 0 && !behind && !beat && !seats && !stop {
			st.running = false
			st.mu.Unlock()
			return
		}
		st.mu.Unlock()
		if stop || !st.step(q, behind, beat, seats) {
			st.end()
			return
		}
		if len(q) > 0 && cap(q) <= service.SubscriberBuffer { // q was taken from st.queue above
			clear(q[:cap(q)]) // hold no update once sent (ready may have appended past len)
			st.spare = q[:0]
		}
	}
}

// step sends what woke the stream; false ends it.
func (st *stream) step(q []*domain.Update, behind, beat, seats bool) bool {
	s := st.s
	ctx := stepDeadlines.within(s.streamWrite)
	if st.waiting {
		if beat && st.comment("keep-alive") != nil {
			return false
		}
		return st.next(ctx)
	}
	if behind {
		// Dropped for falling behind: catch up from the store from the
		// last version sent.
		s.metrics.resyncs.Inc()
		var err error
		if st.sent, err = st.catchUp(ctx, st.sent); err != nil {
			return st.fail(err)
		}
		g, err := s.games.Game(ctx, st.id, domain.Public)
		if err != nil {
			return st.fail(err)
		}
		if g.Ended && st.sent >= g.Version {
			return st.afterEnd(ctx)
		}
		// The seat may be the one the game waits for: nothing else would
		// tell it its legal moves again.
		if err := st.legal(ctx); err != nil {
			return st.fail(err)
		}
	}
	listed := st.sent // the version of the listing last told, or needing none
	for i := 0; i < len(q); i++ {
		u := q[i]
		if u.Seq <= st.sent {
			if u.Ended {
				return st.flush() == nil && st.afterEnd(ctx) // the end, already sent from the store
			}
			continue // already sent from the store
		}
		if u.Seq > st.sent+1 {
			// Updates arrive in order, but with several servers one may
			// be missing (a notice lost, or a read of the log overtaken by
			// a move played here): the store has what lies between, maybe
			// the game's end too.
			ended, err := st.catchUpEnded(ctx)
			if err != nil {
				return st.fail(err)
			}
			if ended {
				return st.afterEnd(ctx)
			}
			if u.Seq <= st.sent {
				continue
			}
		}
		st.group(*u, true)
		st.sent = u.Seq
		if u.Ended {
			return st.flush() == nil && st.afterEnd(ctx)
		}
		if i == len(q)-1 {
			// Updates that came meanwhile (the other moves of a commit)
			// go out in this step's write; the listing after the last.
			if q = st.ready(q); i < len(q)-1 {
				continue
			}
			// Caught up: what may the seat do now?
			if err := st.legal(ctx); err != nil {
				return st.fail(err)
			}
			listed = st.sent
			q = st.ready(q) // came while the listing was read: the same write
		}
	}
	if seats && st.revoked(ctx) {
		// A seat was taken or issued again: this stream's credential is
		// no longer one of the game's.
		return false
	}
	if beat {
		if s.games.Shared() {
			// Other servers store moves too, and a notice of one may never
			// come: the log is the truth, read it now and then.
			ended, err := st.catchUpEnded(ctx)
			if err != nil {
				return st.fail(err)
			}
			if ended {
				return st.afterEnd(ctx)
			}
			// Another server may have issued this seat again.
			if st.revoked(ctx) {
				return false
			}
		}
		st.write(": keep-alive\n\n")
	}
	if st.sent > listed {
		// The last updates were sent from the store (a gap caught up, or
		// a heartbeat's read of the log): the seat may be the one the
		// game waits for now, and no later update may come to tell it
		// (issue 28: a 2 s stall, then moves picked from stale listings).
		if err := st.legal(ctx); err != nil {
			return st.fail(err)
		}
	}
	return st.flush() == nil
}

// stepUpdates is how many updates one step tells at most before it
// writes: past it, the updates that keep coming wait for the next step.
const stepUpdates = 64

// ready appends to q the updates queued since the step took it, unless the
// stream fell behind or is to end (run sees to those), or q is long enough
// for one write: a step tells what is ready when it would write, never
// waiting for more (a commit of several moves of the game publishes them
// one after the other, each waking the stream; they went out in a write
// each, with a listing each).
func (st *stream) ready(q []*domain.Update) []*domain.Update {
	if len(q) >= stepUpdates {
		return q
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.queue) == 0 || st.behind || st.stop || st.gone {
		return q
	}
	q = append(q, st.queue...)
	st.queue = nil
	return q
}

// lastChunk ends a chunked response.
var lastChunk = []byte("0\r\n\r\n")

// end closes the stream: it stops listening, frees its place, and ends the
// response.
func (st *stream) end() {
	st.mu.Lock()
	st.running, st.live, st.queue = true, false, nil // no run after this one
	gone := st.gone
	st.mu.Unlock()
	st.unlisten()
	st.s.hub.remove(st)
	st.release()
	st.s.metrics.streams.Dec()
	if st.conn == nil {
		close(st.ended) // the handler returns, and net/http ends the response
		return
	}
	st.unwatch()
	if st.chunked && st.err == nil && !gone {
		st.arm()
		_, _ = st.conn.Write(lastChunk)
	}
	_ = st.conn.Close()
	if st.s.detached != nil {
		st.s.detached.Done()
	}
}

// detach takes the connection from net/http once the stream has sent what
// the client lacked, drops net/http's buffers and hands the stream to the
// heartbeat wheel: from then on it holds no goroutine while idle. Where the
// connection cannot be taken (HTTP/2, a test recorder), the handler stays
// and waits for the end.
func (st *stream) detach(ctx context.Context) error {
	// net/http's buffers of the connection are dropped with the
	// bufio.ReadWriter: what the client sends after its request (nothing,
	// from an EventSource) is never read.
	//
	// The stream is counted among the detached ones before the connection
	// is taken: from the moment it is, net/http's Shutdown no longer waits
	// for it, and the server's shutdown may begin waiting for the detached
	// streams (a count raised after that is a race, and a stream not waited
	// for).
	if st.s.detached != nil {
		st.s.detached.Add(1)
	}
	conn, _, err := st.rc.Hijack()
	if err == nil {
		st.conn, st.res, st.rc = conn, nil, nil
		st.armed = time.Time{} // set again on the bare connection
		_ = conn.SetReadDeadline(time.Time{})
		st.unwatch = watchClose(conn, func() { st.wake(func() { st.gone = true }) })
	} else {
		if st.s.detached != nil {
			st.s.detached.Done()
		}
		st.ended = make(chan struct{})
	}
	st.mu.Lock()
	st.live = true
	st.mu.Unlock()
	if !st.s.hub.add(st) {
		st.wake(func() { st.stop = true })
	}
	st.wake(func() {}) // send what came meanwhile
	if st.conn != nil {
		return nil
	}
	select {
	case <-ctx.Done(): // the client went away
		st.wake(func() { st.gone = true })
		<-st.ended
	case <-st.ended:
	}
	return nil
}

// legal buffers a legal_moves event with what the stream's seat may do now,
// when it differs from what was told last. The stream has told every version
// up to st.sent, so the listing may be of that one without the store being
// asked for a later one (a later one comes as an update of its own).
//
// A stream reads its seat's listing after every move of the table, and
// most reads tell nothing new: the listing's parts are compared with those
// told last (the ruleset's part, kept by the service, is most often the
// very bytes told last), and joined with the head only to be told, written
// into the stream's buffer once.
func (st *stream) legal(ctx context.Context) error {
	if st.legalSeat < -1 {
		return nil
	}
	head, l, takeBacks, err := st.s.games.LegalMovesParts(service.Known(ctx, st.id, st.sent), st.id, st.viewer, st.legalSeat)
	if err != nil {
		return err
	}
	if st.lastLegal != nil && bytes.Equal(l, st.lastLegal) && sameEntries(takeBacks, st.lastTakeBacks) {
		return nil
	}
	b := headBuffers.Get().(*[]byte)
	data := (*b)[:0]
	listing := l
	if takeBacks != nil {
		if data, err = service.AppendTakeBacks(data, l, takeBacks); err != nil {
			return err
		}
		listing = data
	}
	st.lastLegal, st.lastTakeBacks, st.legalAt = l, takeBacks, head.Version
	listing = bytes.TrimSpace(listing)
	if len(listing) < 2 || listing[0] != '{' || st.lang != i18n.English || bytes.IndexByte(listing, '\n') >= 0 {
		// What event writes otherwise: not an object (the ruleset's bug,
		// told as it is), texts to render in the stream's language, lines.
		start := len(data)
		data = appendWithHead(data, listing, head)
		st.event("legal_moves", "", data[start:])
	} else {
		start := len(data)
		data = appendHead(data, listing, head)
		w := st.buffer()
		*w = append(*w, "event: legal_moves\ndata: "...)
		*w = append(append(*w, data[start:]...), listing[1:]...)
		*w = append(*w, "\n\n"...)
		st.sendFull()
	}
	if cap(data) <= maxStreamBuffer {
		*b = data
		headBuffers.Put(b)
	}
	return nil
}

// sameEntries says whether a and b hold the same entries.
func sameEntries(a, b []json.RawMessage) bool {
	return slices.EqualFunc(a, b, func(x, y json.RawMessage) bool { return bytes.Equal(x, y) })
}

// headBuffers hold a listing with its head (withHead) while a stream
// buffers it.
var headBuffers = sync.Pool{New: func() any {
	b := make([]byte, 0, 8<<10)
	return &b
}}

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

// open writes the response's header and the reconnection delay.
func (st *stream) open(c echo.Context) {
	res := c.Response()
	h := res.Header()
	h.Set(echo.HeaderContentType, "text/event-stream")
	h.Set("Cache-Control", "private, no-cache, no-transform")
	h.Set("X-Accel-Buffering", "no") // tell nginx not to buffer the stream
	// The server closes the connection when the stream ends, having taken
	// it from net/http: a client that kept it for its next request (a POST
	// it does not retry) would find it closed under that request.
	h.Set("Connection", "close")
	res.WriteHeader(http.StatusOK)
	st.res, st.rc = res, http.NewResponseController(res)
	// net/http chunks a response of unknown length to HTTP/1.1 clients;
	// once detached, the stream frames its chunks itself.
	st.chunked = c.Request().ProtoAtLeast(1, 1)
	// The server's read and write timeouts are meant for requests that end;
	// a stream manages its own deadline per write instead. An error means
	// the writer cannot set deadlines (a test recorder): nothing to lift.
	_ = st.rc.SetReadDeadline(time.Time{})
	st.s.metrics.streams.Inc()
	st.write("retry: 2000\n\n")
	st.flush()
}

// fail ends a stream after an error, and returns false. The status line is
// gone, so the error can only be logged; the client reconnects and tries
// again.
func (st *stream) fail(err error) bool {
	if err == st.err {
		return false // the client stopped reading or went away
	}
	st.mu.Lock()
	gone := st.gone
	st.mu.Unlock()
	if !gone {
		st.s.log.Warn("event stream ended on an error", "error", err, "request_id", st.requestID)
	}
	return false
}

// flush sends what is buffered, within the stream's write timeout.
func (st *stream) flush() error {
	if st.err != nil {
		return st.err
	}
	st.arm()
	if st.out != nil {
		st.send()
		if cap(*st.out) <= maxStreamBuffer {
			streamBuffers.Put(st.out)
		}
		st.out = nil
	}
	if st.err == nil && st.rc != nil {
		st.err = st.rc.Flush()
	}
	return st.err
}

// streamBuffers hold the events of a stream between their writing and the
// flush that sends them: an idle stream holds none (8 KB each, grown to what
// a step writes, up to maxStreamBuffer kept; with 10,000 streams open and a
// step of each under way, 80 MB or more).
var streamBuffers = sync.Pool{New: func() any {
	b := make([]byte, 0, 8<<10)
	return &b
}}

const (
	// chunkRoom is kept free in front of a stream's buffered events for
	// the size line of the chunk they are sent as (16 hex digits and CRLF),
	// so that a step's events, a move's group and its listing, go out in
	// one write without being copied (issue 27: a write, and a copy of the
	// events into a fresh slice, for every 8 KB and every flush).
	chunkRoom = 18
	// sendAt is how much a stream buffers before it sends, flush or not
	// (a catch-up from the store may tell many moves).
	sendAt = 32 << 10
	// maxStreamBuffer is the largest buffer streamBuffers keeps.
	maxStreamBuffer = 64 << 10
)

// buffer returns the stream's buffered events, taking a buffer when none
// wait.
func (st *stream) buffer() *[]byte {
	if st.out == nil {
		st.out = streamBuffers.Get().(*[]byte)
		*st.out = (*st.out)[:chunkRoom]
	}
	return st.out
}

// write buffers s.
func (st *stream) write(s string) {
	b := st.buffer()
	*b = append(*b, s...)
}

// send writes what is buffered, as one chunk when the response is chunked
// (HTTP/1.1's chunked coding, framed here once the connection is the
// stream's). A write error is kept in st.err: the next flush ends the
// stream.
func (st *stream) send() {
	b := *st.out
	n := len(b) - chunkRoom
	if st.err == nil && n > 0 {
		switch {
		case st.conn == nil:
			_, st.err = st.res.Write(b[chunkRoom:])
		case st.chunked:
			var size [16]byte
			line := append(strconv.AppendInt(size[:0], int64(n), 16), "\r\n"...)
			start := chunkRoom - len(line)
			copy(b[start:], line)
			b = append(b, "\r\n"...)
			*st.out = b
			_, st.err = st.conn.Write(b[start:])
		default:
			_, st.err = st.conn.Write(b[chunkRoom:])
		}
	}
	*st.out = (*st.out)[:chunkRoom]
}

// arm gives the writes from now on the stream's write timeout to finish,
// and at most a quarter more: the deadline is set again only when the one
// set last leaves less than the timeout. Setting it at every flush was 1%
// of the server's CPU, each of a move's four streams resetting a timer of
// the runtime's (issue 27); now a busy stream sets it about every quarter
// of the timeout. A client that reads nothing is cut off after the write
// timeout, 1.25 times it at most.
func (st *stream) arm() {
	now := time.Now()
	if st.armed.Sub(now) >= st.s.streamWrite {
		return
	}
	t := now.Add(st.s.streamWrite + st.s.streamWrite/4)
	var err error
	if st.conn != nil {
		err = st.conn.SetWriteDeadline(t)
	} else {
		err = st.rc.SetWriteDeadline(t)
	}
	if err == nil {
		st.armed = t
	}
}

// event buffers one event; data is JSON, whose messages are rendered in
// the stream's language.
func (st *stream) event(typ, id string, data []byte) {
	data = i18n.Localize(st.lang, data)
	b := st.buffer()
	*b = append(append(append(*b, "event: "...), typ...), '\n')
	if id != "" {
		*b = append(append(append(*b, "id: "...), id...), '\n')
	}
	// Encoded JSON holds no newline, but a field of a stored event may have
	// been indented; each line of data is a data line of its own. (A loop
	// over bytes.Lines would make data escape: group's buffer, on its
	// stack, went to the heap for every move and stream.)
	for rest := data; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i+1], rest[i+1:]
		} else {
			rest = nil
		}
		*b = append(append(append(*b, "data: "...), bytes.TrimRight(line, "\r\n")...), '\n')
	}
	*b = append(*b, '\n')
	st.sendFull()
}

// sendFull sends the buffered events when they fill a write.
func (st *stream) sendFull() {
	if len(*st.out) >= sendAt {
		st.arm() // the deadline of the last flush may be long past
		st.send()
	}
}

func (st *stream) comment(text string) error {
	st.write(": ")
	st.write(text)
	st.write("\n\n")
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
func (st *stream) group(u domain.Update, live bool) {
	st.spent(u)
	m, visible := u.Disclose(st.viewer, live)
	var buf [512]byte
	data := appendMoveEvent(buf[:0], &u, m)
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

// appendMoveEvent appends the data of a move event, u's move m as the
// stream's viewer may read it, as json.Marshal of models.EventMove encodes
// it, without reflection: every stream of a game encodes every move (7% of
// the server's CPU per move with four streams, issue 27). A move that is
// not compact JSON free of what json.Marshal escapes (u.Plain, or
// domain.PlainJSON here), or a time it cannot write, takes json.Marshal
// itself. TestAppendMoveEvent holds the two equal.
func appendMoveEvent(b []byte, u *domain.Update, m json.RawMessage) []byte {
	if y := u.At.Year(); y < 0 || y > 9999 || !u.Plain && !domain.PlainJSON(m) {
		move := models.EventMove{Seq: u.Seq, Actor: models.Actor{Host: u.Actor.Host}, Move: union[models.Move](m), At: u.At}
		if !u.Actor.Host {
			seat := u.Actor.Seat
			move.Actor.Seat = &seat
		}
		data, _ := json.Marshal(move) // plain values and valid JSON only
		return append(b, data...)
	}
	b = strconv.AppendInt(append(b, `{"seq":`...), u.Seq, 10)
	if u.Actor.Host {
		b = append(b, `,"actor":{"host":true,"seat":null}`...)
	} else {
		b = strconv.AppendInt(append(b, `,"actor":{"host":false,"seat":`...), int64(u.Actor.Seat), 10)
		b = append(b, '}')
	}
	b = append(append(b, `,"move":`...), m...)
	b = u.At.AppendFormat(append(b, `,"at":"`...), time.RFC3339Nano)
	return append(b, `"}`...)
}

// catchUp sends, from the store, every move after version after, and returns
// the last version sent.
func (st *stream) catchUp(ctx context.Context, after int64) (int64, error) {
	st.sent = after
	_, err := st.catchUpEnded(ctx)
	return st.sent, err
}

// catchUpEnded sends, from the store, every move after the last version
// sent, and says whether it sent the game's end.
func (st *stream) catchUpEnded(ctx context.Context) (bool, error) {
	backlog, err := st.s.games.Updates(ctx, st.id, st.sent)
	if err != nil || len(backlog) == 0 {
		return false, err
	}
	st.arm()
	for _, u := range backlog {
		st.group(u, false)
		st.sent = u.Seq
	}
	return backlog[len(backlog)-1].Ended, st.flush()
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

// afterEnd is what happens once the client has the whole game: the stream
// ends (false). With ?next_game=true it first waits (keeping the connection
// alive) until the host starts the next game with the same players, tells
// it in a next_game event, and ends then; each credential asks for its own
// credential of the next game (POST /v1/games/{id}/next).
func (st *stream) afterEnd(ctx context.Context) bool {
	if !st.followNext {
		return false
	}
	st.waiting = true
	return st.next(ctx)
}

// next tells the next game if there is one, and says whether to wait on.
func (st *stream) next(ctx context.Context) bool {
	next, err := st.s.games.NextGameOf(ctx, st.id)
	if err != nil {
		return st.fail(err)
	}
	if next != "" {
		data, _ := json.Marshal(models.EventNextGame{GameId: next})
		st.event("next_game", "", data)
		_ = st.flush()
		return false
	}
	return !st.revoked(ctx)
}
