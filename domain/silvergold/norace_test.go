//go:build !race

package silvergold

const raceEnabled = false
