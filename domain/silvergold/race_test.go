//go:build race

package silvergold

// raceEnabled is set under -race, which slows the many-game tests about
// tenfold: they play a tenth as many games then.
const raceEnabled = true
