//go:build !race

package rulesettest

const raceEnabled = false
