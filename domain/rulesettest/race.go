//go:build race

package rulesettest

// raceEnabled is set under -race, which slows the suite about tenfold.
const raceEnabled = true
