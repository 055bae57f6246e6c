package main

import (
	"os"
	"runtime/debug"
)

// serverGCPercent is the garbage collector's target unless GOGC is set. The
// server's live heap is small and bounded (the game cache, a few tens of
// MiB), while every request allocates a little: the default of 100 would
// collect every few MiB, and under load the collector then takes about a
// tenth of the CPU. At 400 it runs a quarter as often, for a heap a few
// times the live one. The load run (scripts/loadrun) shows the difference.
const serverGCPercent = 400

func init() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(serverGCPercent)
	}
}
