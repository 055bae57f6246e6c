//go:build !race

package colorfultreasure

// raceEnabled: the race detector slows the many-game tests tenfold; they play fewer games.
const raceEnabled = false
