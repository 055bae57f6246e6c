package main

import "syscall"

// reservedFiles are the file descriptors kept for everything but event
// streams (the database, plain requests, /healthz and /metrics) when the cap
// on streams is checked against the open-file limit.
const reservedFiles = 1024

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
