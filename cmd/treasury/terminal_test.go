package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestVerifyEscapesUntrustedText: a sheet whose names hold control or
// bidirectional characters is refused as unusable (exit 2), as the server
// refuses it, with a reason naming the player and the character; nothing of
// the name reaches the terminal raw, with or without --json.
func TestVerifyEscapesUntrustedText(t *testing.T) {
	evil := `Sarah\u001b]0;pwned\u0007\u001b[2J\u202eXX\nWINNER: Tom`
	sheet := strings.Replace(sheetMistakes, `"name":"Sarah"`, `"name":"`+evil+`"`, 1)
	for _, args := range [][]string{{"sheet", "-"}, {"sheet", "--json", "-"}} {
		code, out, errOut := verifyRun(t, sheet, args...)
		if code != 2 {
			t.Fatalf("%v: exit %d: %s%s", args, code, out, errOut)
		}
		for _, raw := range []string{"\x1b", "\x07", "\u202e", "\nWINNER"} {
			if strings.Contains(out+errOut, raw) {
				t.Errorf("%v: the output holds %q raw:\n%s%s", args, raw, out, errOut)
			}
		}
		if !strings.Contains(errOut, "players[0].name") || !strings.Contains(errOut, "U+001B") {
			t.Errorf("%v: the reason does not name the player and the character: %s", args, errOut)
		}
	}
}

func TestTerminalSafe(t *testing.T) {
	for in, want := range map[string]string{
		"plain text\n":          "plain text\n",
		"Zoë 李雷\t1\n":           "Zoë 李雷\t1\n",
		"a\x1b[31mred":          `a\u001b[31mred`,
		"nul\x00 del\x7f":       `nul\u0000 del\u007f`,
		"c1 \u009b":             `c1 \u009b`,
		"rtl \u202eabc \u2066x": `rtl \u202eabc \u2066x`,
		"bad \xff byte":         `bad \xff byte`,
	} {
		var b bytes.Buffer
		n, err := terminalSafe{&b}.Write([]byte(in))
		if err != nil || n != len(in) || b.String() != want {
			t.Errorf("Write(%q) = %d, %v, wrote %q; want %q", in, n, err, b.String(), want)
		}
	}
}
