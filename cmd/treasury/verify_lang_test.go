package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/treasury-games/treasury/api/locale"
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
	"github.com/treasury-games/treasury/domain/silvergold"
)

// verifyRunEnv runs `treasury verify args…` with the environment kv.
func verifyRunEnv(t *testing.T, kv []string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), append([]string{"verify"}, args...), env(kv...), &out, &errOut)
	if err == nil {
		return 0, out.String(), errOut.String()
	}
	return exitStatus(err), out.String(), err.Error()
}

// TestVerifySpeaksTheReadersLanguage: treasury verify reports a sheet and a
// record in the language --lang names, else in the one of the environment
// (LC_ALL, LC_MESSAGES, LANG), else in English.
func TestVerifySpeaksTheReadersLanguage(t *testing.T) {
	sheet := writeFile(t, "sheet.json", sheetMistakes)
	t.Run("a sheet with --lang de", func(t *testing.T) {
		code, out, errOut := verifyRunEnv(t, nil, "sheet", "--lang", "de", sheet)
		if code != 1 || errOut != "der Wertungsbogen hat 2 Fehler" {
			t.Fatalf("exit %d, error %q\n%s", code, errOut, out)
		}
		for _, want := range []string{"Spieler  Münzen  Pokale  Palmen  Karten  Siegel  Summe",
			"Tom          10      11       5      60       0     86",
			"Rangliste:", "2. Tom, 86 - weniger Punkte als Sarah", "Der Wertungsbogen hat 2 Fehler:", "Tom, Zeile Pokale (cup_reused): "} {
			if !strings.Contains(out, want) {
				t.Errorf("the report does not say %q:\n%s", want, out)
			}
		}
		for _, english := range []string{"Ranking", "fewer points", "mistake", "line ("} {
			if strings.Contains(out, english) {
				t.Errorf("the German report says %q:\n%s", english, out)
			}
		}
	})

	rec := playedRecord(t, silvergold.Digital)
	rec.Seed += "x"
	file := recordFile(t, rec)
	for name, kv := range map[string][]string{
		"LANG=de_DE.UTF-8":                   {"LANG", "de_DE.UTF-8"},
		"LC_MESSAGES=de_AT over LANG=en_US":  {"LANG", "en_US.UTF-8", "LC_MESSAGES", "de_AT.UTF-8"},
		"LC_ALL=de_CH@euro over LC_MESSAGES": {"LC_MESSAGES", "en_GB", "LC_ALL", "de_CH@euro"},
	} {
		t.Run("a record with "+name, func(t *testing.T) {
			code, out, errOut := verifyRunEnv(t, kv, "record", file)
			if code != 1 || errOut != "die Aufzeichnung ist ungültig: seed_mismatch" {
				t.Fatalf("exit %d, error %q\n%s", code, errOut, out)
			}
			for _, want := range []string{"Aufzeichnung von Spiel ", "2 Spieler (Ann, Ben)",
				"UNGÜLTIG (seed_mismatch): der Seed passt nicht zu der Festlegung, die beim Anlegen des Spiels veröffentlicht wurde."} {
				if !strings.Contains(out, want) {
					t.Errorf("the report does not say %q:\n%s", want, out)
				}
			}
		})
	}

	t.Run("--json with --lang de", func(t *testing.T) {
		_, out, _ := verifyRunEnv(t, nil, "record", "--json", "--lang", "de", file)
		var v domain.Verdict
		if err := json.Unmarshal([]byte(out), &v); err != nil || v.Problem == nil || v.Problem.ReasonMessage == nil {
			t.Fatalf("%v: %s", err, out)
		}
		if v.Problem.ReasonMessage.Key != "table.record.seed-mismatch" || !strings.HasPrefix(v.Problem.Reason, "der Seed passt nicht") {
			t.Errorf("the problem: %+v", v.Problem)
		}
	})

	t.Run("English without a language", func(t *testing.T) {
		for _, kv := range [][]string{nil, {"LANG", "C.UTF-8"}, {"LANG", "fr_FR.UTF-8"}} {
			code, out, _ := verifyRunEnv(t, kv, "record", file)
			if code != 1 || !strings.Contains(out, "INVALID (seed_mismatch): the seed does not match the commitment") {
				t.Errorf("%v: exit %d\n%s", kv, code, out)
			}
		}
	})
}

func TestPosixLocale(t *testing.T) {
	for in, want := range map[string]i18n.Lang{"de_DE.UTF-8": "de", "de": "de", "de-AT": "de", "C": "en", "POSIX": "en", "en_US.UTF-8": "en", "sv_SE": "en"} {
		if got := locale.Match(posixLocale(in)); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}
