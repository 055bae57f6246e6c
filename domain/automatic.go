package domain

// SystemActor is the server acting on its own: neither the host nor a seat.
// It makes the moves an Automatic game says are due; the log keeps them with
// this actor (a record's actor {"host":false,"seat":-1}), replay applies them
// as any move, and their events are told like any move's.
var SystemActor = Actor{Seat: -1}

// IsSystem reports whether a is the SystemActor.
func (a Actor) IsSystem() bool { return !a.Host && a.Seat < 0 }

// MaxAutomatic is how many moves the server makes on its own, one after
// the other, after one move of a player (or the game's creation): a game
// whose Due never rests is stopped there.
const MaxAutomatic = 64

// Automatic is a Game with steps nobody at the table chooses (a digital
// deal, roll or reveal the rules give no one a say in), which the server
// makes itself, as SystemActor, as soon as they are due: after the game is
// created and after every accepted move, the service asks Due and applies
// what it returns, again and again while a move is due (at most
// MaxAutomatic in a row).
type Automatic interface {
	// Due returns the move (JSON) the server makes now, ok false when none
	// is due. It reads the game only. Apply must accept the move from
	// SystemActor, and only from it; a game awaiting the server's move
	// awaits no seat for that step (its Table does not list it).
	Due() (move []byte, ok bool)
}

// DueMove returns the move g has due (nil when g is not Automatic or
// nothing is due).
func DueMove(g Game) []byte {
	a, ok := g.(Automatic)
	if !ok {
		return nil
	}
	if m, ok := a.Due(); ok {
		return m
	}
	return nil
}
