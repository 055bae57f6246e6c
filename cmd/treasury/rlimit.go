package main

import (
	"log/slog"
	"syscall"

	"github.com/treasury-games/treasury/api"
)

// otherFiles are the file descriptors kept for everything but client
// connections: the listener, the database (SQLite's files, PostgreSQL's
// connections), logs, the catalog.
const otherFiles = 256

// connLimits are the caps on connections of c under an open-file limit of
// n: every connection is a file descriptor, so that the total is below n
// whatever --max-connections says.
func connLimits(c config, n uint64, log *slog.Logger) api.ConnLimits {
	most := 64 // a limit too small to be real: keep serving a few
	if n > otherFiles+64 {
		most = int(min(n-otherFiles, 1<<30))
	}
	total := most
	if c.maxConns > most {
		log.Warn("--max-connections is above what the open-file limit allows; lowered (raise the hard open-file limit, systemd: LimitNOFILE=, to allow more)",
			"max_connections", c.maxConns, "lowered_to", most, "open_file_limit", n)
	} else if c.maxConns > 0 {
		total = c.maxConns
	}
	per := c.connsPerAddress
	if per < 0 {
		per = 0
	}
	return api.ConnLimits{PerAddress: per, Total: total}
}

// raiseOpenFileLimit lifts the process's soft limit on open files to its hard
// limit: every connection is a file descriptor, and a soft limit of 1024 (a
// common default) would be reached long before the cap on event streams. It
// returns the limit in force afterwards.
func raiseOpenFileLimit() (uint64, error) {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0, err
	}
	if l.Cur >= l.Max {
		return l.Cur, nil
	}
	raised := l
	raised.Cur = l.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised); err != nil {
		return l.Cur, err
	}
	return raised.Cur, nil
}
