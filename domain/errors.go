// Package domain holds what every game on the server shares: coded errors, the
// shape of a stored game, and the interface of the store that keeps games. It
// imports only the standard library; each game's rules live in a sub-package.
package domain

import (
	"errors"
	"fmt"

	"github.com/treasury-games/treasury/domain/i18n"
)

// Code is a stable, machine-readable error class. Clients branch on it; the
// HTTP layer maps it to a status in one table.
type Code string

// The error codes every layer understands.
const (
	Invalid            Code = "invalid"             // the request cannot be understood
	NotFound           Code = "not_found"           // no such game, card, catalog …
	IllegalMove        Code = "illegal_move"        // understood, but the rules forbid it
	Conflict           Code = "conflict"            // the game moved on; retry on fresh state
	Forbidden          Code = "forbidden"           // this credential may not act for that seat
	Unauthorized       Code = "unauthorized"        // no credential, or an unknown one
	PreconditionFailed Code = "precondition_failed" // If-Match named an older version
	IdempotencyReused  Code = "idempotency_key_reused"
	Unavailable        Code = "unavailable" // shutting down or overloaded; retry later
	Internal           Code = "internal"    // a bug or an I/O failure; never shown in detail
)

// Error is an error with a code, a sentence a player can act on and, for rule
// violations, the rule that was broken (a short stable slug such as
// "pattern-shape").
type Error struct {
	Code   Code
	Rule   string
	Reason string // in English, for logs and for clients that ask for English
	// Msg is the reason as a message key and parameters, rendered in the
	// player's language by the API; zero for an error made by Errorf, which
	// is English only.
	Msg i18n.Message
}

func (e *Error) Error() string {
	if e.Rule != "" {
		return fmt.Sprintf("%s (%s): %s", e.Code, e.Rule, e.Reason)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Reason)
}

// Errorf returns an *Error with the given code and a formatted reason in
// English only, with no message: for test doubles and errors no player
// reads. Code a player may meet uses Fail or Refuse (a test in domain/i18n
// holds that no other code calls Errorf).
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Reason: fmt.Sprintf(format, args...)}
}

// Fail returns an *Error with the given code whose reason is the message
// key with its parameters (name, value pairs; see i18n.M).
func Fail(code Code, key string, kv ...any) *Error {
	m := i18n.M(key, kv...)
	return &Error{Code: code, Reason: i18n.Text(m), Msg: m}
}

// Refuse returns an IllegalMove error naming the rule that forbids the move,
// with its reason as a message key and parameters.
func Refuse(rule, key string, kv ...any) *Error {
	m := i18n.M(key, kv...)
	return &Error{Code: IllegalMove, Rule: rule, Reason: i18n.Text(m), Msg: m}
}

// ErrorCode returns the code of err, Internal for any error that is not an
// *Error, and "" for nil.
func ErrorCode(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}

// ErrorReason returns the human reason of err; foreign errors get a generic
// sentence so that internals never leak.
func ErrorReason(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return "internal error"
}

// ErrorMessage returns the reason of err as a message (zero for an error
// that has none; a foreign error says "internal error").
func ErrorMessage(err error) i18n.Message {
	var e *Error
	if errors.As(err, &e) {
		return e.Msg
	}
	return i18n.M("error.internal")
}

// ErrorRule returns the rule slug of err, or "".
func ErrorRule(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Rule
	}
	return ""
}
