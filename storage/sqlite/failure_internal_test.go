package sqlite

import (
	"errors"
	"fmt"
	"syscall"
	"testing"

	"github.com/mattn/go-sqlite3"
)

func TestIOFailure(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("sqlite: commit: %w", sqlite3.Error{Code: sqlite3.ErrFull}), true},
		{sqlite3.Error{Code: sqlite3.ErrIoErr, ExtendedCode: sqlite3.ErrIoErrFsync}, true},
		{sqlite3.Error{Code: sqlite3.ErrReadonly}, true},
		{fmt.Errorf("write: %w", syscall.ENOSPC), true},
		{sqlite3.Error{Code: sqlite3.ErrConstraint, ExtendedCode: sqlite3.ErrConstraintPrimaryKey}, false},
		{sqlite3.Error{Code: sqlite3.ErrCorrupt}, false},
		{errors.New("sqlite: append: move 3 does not follow version 1"), false},
	} {
		if got := ioFailure(c.err); got != c.want {
			t.Errorf("ioFailure(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
