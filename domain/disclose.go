package domain

// This file is the one gate every logged move and event passes on its way to
// a viewer: the move log, the record, the event stream (live and catch-up).
// Rulesets say who may read what when they log it (Logged, Event); the gate
// applies it. Once a game has ended, everyone may read everything.

// may reports whether viewer v may read something private to seat (with the
// host too unless notHost). Seat -1 is no seat: the public, whose viewer has
// no seat either, is never its audience.
func (v Viewer) may(seat int, notHost bool) bool {
	return (!v.Host && seat >= 0 && v.Seat == seat) || (v.Host && !notHost)
}

// DiscloseMove returns the logged move m as viewer v may read it: the move in
// full, or its public form while the game runs and v is outside its
// audience.
func DiscloseMove(m *MoveRecord, v Viewer, ended bool) []byte {
	if m.Public == nil || ended || v.may(m.For, m.NotHost) {
		return m.Move
	}
	return m.Public
}

// DiscloseEvents returns the events viewer v may read, in order. live says
// the events are told as they happen; a catch-up leaves out Live events while
// the game runs. It returns events itself when every one may be read.
func DiscloseEvents(events []Event, v Viewer, ended, live bool) []Event {
	if ended {
		return events
	}
	keep := func(e *Event) bool {
		return (e.For == nil || v.may(*e.For, e.NotHost)) && (live || !e.Live)
	}
	for i := range events {
		if !keep(&events[i]) {
			out := append([]Event(nil), events[:i]...)
			for j := i + 1; j < len(events); j++ {
				if keep(&events[j]) {
					out = append(out, events[j])
				}
			}
			return out
		}
	}
	return events
}
