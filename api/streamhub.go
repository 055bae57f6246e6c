package api

import (
	"sync"
	"time"
)

// hubSlots is how many parts the heartbeat period is cut into: each tick of
// the wheel beats the streams of one slot, so that 10,000 streams do not
// all write at the same instant.
const hubSlots = 16

// streamHub keeps the heartbeats of the detached event streams with one
// ticker for all of them (a wheel of hubSlots slots, a stream's slot beaten
// once per period), and ends them all when the server shuts down. Its
// goroutine runs only while streams are open.
type streamHub struct {
	period time.Duration
	done   <-chan struct{}

	mu      sync.Mutex
	slots   [hubSlots]map[*stream]struct{}
	cursor  int
	open    int
	ticking bool
	closed  bool
}

func newStreamHub(period time.Duration, done <-chan struct{}) *streamHub {
	h := &streamHub{period: period, done: done}
	for i := range h.slots {
		h.slots[i] = map[*stream]struct{}{}
	}
	return h
}

// add puts st on the wheel: its first heartbeat comes a period from now.
// false: the server shuts down.
func (h *streamHub) add(st *stream) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	select {
	case <-h.done:
		h.closed = true
	default:
	}
	if h.closed {
		return false
	}
	st.slot = h.cursor
	h.slots[h.cursor][st] = struct{}{}
	h.open++
	if !h.ticking {
		h.ticking = true
		go h.tick()
	}
	return true
}

// remove takes st off the wheel.
func (h *streamHub) remove(st *stream) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.slots[st.slot][st]; ok {
		delete(h.slots[st.slot], st)
		h.open--
	}
}

// tick beats one slot at every tick, until no stream is left or the server
// shuts down; then it ends every stream.
func (h *streamHub) tick() {
	t := time.NewTicker(max(h.period/hubSlots, time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-t.C:
			h.mu.Lock()
			if h.open == 0 {
				h.ticking = false
				h.mu.Unlock()
				return
			}
			h.cursor = (h.cursor + 1) % hubSlots
			for st := range h.slots[h.cursor] {
				st.wake(func() { st.beat = true })
			}
			h.mu.Unlock()
		case <-h.done:
			h.mu.Lock()
			h.closed, h.ticking = true, false
			for _, slot := range h.slots {
				for st := range slot {
					st.wake(func() { st.stop = true })
				}
			}
			h.mu.Unlock()
			return
		}
	}
}
