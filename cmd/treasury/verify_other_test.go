package main

import (
	"strings"
	"testing"
)

// TestVerifySheetOtherRuleset checks a Colorful Treasure tally offline: the
// ranking and the findings are printed, and the exit status says whether the
// sheet holds a mistake; a sheet of a ruleset nobody plays cannot be used.
func TestVerifySheetOtherRuleset(t *testing.T) {
	sheet := `{"ruleset":"colorful-treasure","players":[
		{"name":"Ann","cards":[],"diamond_tokens":[],"total":0},
		{"name":"Ben","cards":[],"diamond_tokens":[],"total":3}]}`
	code, out, errOut := verifyRun(t, "", "sheet", writeFile(t, "tally.json", sheet))
	if code != 1 || !strings.Contains(out, "1. Ann, 0") || !strings.Contains(out, "total_mismatch") || !strings.Contains(errOut, "1 mistake") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
	code, _, errOut = verifyRun(t, `{"ruleset":"chess","players":[]}`, "sheet", "-")
	if code != 2 || !strings.Contains(errOut, `"chess"`) {
		t.Errorf("a chess sheet: exit %d, %s", code, errOut)
	}
}
