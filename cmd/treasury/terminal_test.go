package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestVerifyEscapesUntrustedText: names in a sheet or a record reach the
// terminal with their control and bidirectional characters escaped, on one
// line each; JSON output stays the same JSON.
func TestVerifyEscapesUntrustedText(t *testing.T) {
	evil := `Sarah\u001b]0;pwned\u0007\u001b[2J\u202eXX\nWINNER: Tom`
	sheet := strings.Replace(sheetMistakes, `"name":"Sarah"`, `"name":"`+evil+`"`, 1)
	for _, args := range [][]string{{"sheet", "-"}, {"sheet", "--json", "-"}} {
		code, out, _ := verifyRun(t, sheet, args...)
		if code != 1 {
			t.Fatalf("%v: exit %d: %s", args, code, out)
		}
		for _, raw := range []string{"\x1b", "\x07", "\u202e", "\nWINNER"} {
			if strings.Contains(out, raw) {
				t.Errorf("%v: the output holds %q raw:\n%s", args, raw, out)
			}
		}
		if args[1] == "--json" {
			var v struct{ Players []struct{ Name string } }
			if err := json.Unmarshal([]byte(out), &v); err != nil || !strings.HasPrefix(v.Players[0].Name, "Sarah\x1b]0;") {
				t.Errorf("the JSON output no longer reads back: %v %+v", err, v)
			}
		} else if !strings.Contains(out, `Sarah\u001b]0;pwned\u0007\u001b[2J\u202eXX\nWINNER: Tom`) {
			t.Errorf("the name is not shown escaped:\n%s", out)
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
