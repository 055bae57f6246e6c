package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// terminalSafe writes to a terminal (or whatever reads it as one) text that
// holds what others wrote: player names, reasons, moves from a record or a
// sheet. A terminal obeys control characters (an escape sequence may clear
// the screen, retitle the window or recolour what follows) and U+202E turns
// the rest of a line around, so every such character is written as a \u
// escape instead, and a byte that is not UTF-8 as \x. Line breaks and tabs,
// which the program writes itself, pass. JSON written through it stays the
// same JSON: these characters can only stand inside its strings, where the
// \u escape means the same character.
type terminalSafe struct{ w io.Writer }

func (t terminalSafe) Write(p []byte) (int, error) {
	if !needsEscape(p) {
		return t.w.Write(p)
	}
	var b strings.Builder
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, p[i])
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.Write(p[i : i+size])
		}
		i += size
	}
	if _, err := io.WriteString(t.w, b.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}

func needsEscape(p []byte) bool {
	for i := 0; i < len(p); {
		if c := p[i]; c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		if (r == utf8.RuneError && size == 1) || unsafeRune(r) {
			return true
		}
		i += size
	}
	return false
}

// unsafeRune reports whether a terminal would act on r rather than show it:
// C0 and C1 controls, DEL, line and paragraph separators, and the
// bidirectional formatting characters.
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == '\u2028', r == '\u2029', r == '\u061C', r == '\u200E', r == '\u200F':
		return true
	case r >= '\u202A' && r <= '\u202E', r >= '\u2066' && r <= '\u2069':
		return true
	}
	return false
}
