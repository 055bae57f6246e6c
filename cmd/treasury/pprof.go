//go:build pprof

package main

import (
	"fmt"
	"net/http"
	_ "net/http/pprof" // registers /debug/pprof on http.DefaultServeMux
	"os"
)

// A build with -tags pprof serves net/http/pprof on the address in
// TREASURY_PPROF (e.g. 127.0.0.1:6060), apart from the API. The load run
// (scripts/loadrun -pprof) uses it to profile the server under load; release
// builds leave it out.
func init() {
	addr := os.Getenv("TREASURY_PPROF")
	if addr == "" {
		return
	}
	go func() {
		if err := http.ListenAndServe(addr, nil); err != nil {
			fmt.Fprintln(os.Stderr, "treasury: pprof:", err)
		}
	}()
}
