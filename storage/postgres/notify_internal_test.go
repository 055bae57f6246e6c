package postgres

import (
	"strings"
	"testing"
)

func TestPayloads(t *testing.T) {
	if got := payloads(nil); len(got) != 0 {
		t.Fatalf("no notices give %q", got)
	}
	if got := payloads([]string{"g1 1", "g2 7"}); len(got) != 1 || got[0] != "g1 1\ng2 7" {
		t.Fatalf("two notices give %q, want one payload of two lines", got)
	}
	var lines []string
	for range 2000 {
		lines = append(lines, "game-with-a-long-id-0123456789 123456")
	}
	got := payloads(lines)
	if len(got) < 2 {
		t.Fatalf("%d notices fit in %d payloads", len(lines), len(got))
	}
	var n int
	for _, p := range got {
		if len(p) > maxNoticePayload {
			t.Fatalf("a payload of %d bytes, over %d", len(p), maxNoticePayload)
		}
		n += len(strings.Split(p, "\n"))
	}
	if n != len(lines) {
		t.Fatalf("%d lines in the payloads, want %d", n, len(lines))
	}
}
