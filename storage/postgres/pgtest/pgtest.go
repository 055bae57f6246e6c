// Package pgtest runs a throwaway PostgreSQL server for tests: one cluster per
// test binary, in a temporary directory, reachable only through a Unix socket
// in that directory, and one fresh database per test.
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
//	func TestSomething(t *testing.T) {
//		url := pgtest.Database(t) // postgres://…; skipped when PostgreSQL is not installed
//		…
//	}
//
// The cluster starts at the first call of Database, so a binary whose tests
// never ask for one starts none. It is found in Debian's layout
// (/usr/lib/postgresql/<version>/bin) or on PATH. initdb refuses to run as
// root; as root, the server runs as the system user "postgres" that Debian's
// package creates. Without PostgreSQL the tests that need it are skipped, or
// fail when the environment variable CI is "true".
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Install is the advice given when no PostgreSQL can be found.
const Install = "PostgreSQL not installed: apt-get install postgresql; CI installs it"

// superuser is the cluster's superuser; the Unix socket is its only way in
// (trust authentication), so it needs no password.
const superuser = "treasury"

var (
	once    sync.Once
	shared  *cluster
	failure error // why the cluster could not start
	skip    bool  // failure means "not installed", not "broken"
	dbs     atomic.Int64
)

// Main runs the tests of a binary and then stops the cluster they used, if
// any, and runs after (what else the tests shared, as a browser). Call it
// from TestMain.
func Main(m *testing.M, after ...func()) {
	code := m.Run()
	for _, f := range after {
		f()
	}
	if shared != nil {
		if err := shared.stop(); err != nil {
			fmt.Fprintln(os.Stderr, "pgtest:", err)
		}
	}
	os.Exit(code)
}

// Database creates an empty database in the binary's cluster and returns its
// URL. The database is dropped when the test ends. Without PostgreSQL the
// test is skipped (failed when CI=true).
func Database(t testing.TB) string {
	t.Helper()
	once.Do(func() { shared, skip, failure = start(false) })
	if failure != nil {
		if skip && os.Getenv("CI") != "true" {
			t.Skip(failure.Error())
		}
		t.Fatal(failure.Error())
	}
	name := fmt.Sprintf("test_%d_%d", os.Getpid(), dbs.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := shared.admin(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		// FORCE: a connection a test left open does not keep the database.
		if err := shared.admin(ctx, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("pgtest: %v", err)
		}
	})
	return shared.url(name)
}

// cluster is one running server.
type cluster struct {
	dir  string // everything: data/, the socket, server.log
	cmd  *exec.Cmd
	exit chan error // the server's exit status, once it has exited

	postgres string // the binary, its user and settings: to start it again
	cred     *syscall.Credential
	durable  bool
	settings []string // more -c name=value
}

func (c *cluster) url(db string) string {
	q := url.Values{"host": {c.dir}, "sslmode": {"disable"}}
	return (&url.URL{Scheme: "postgres", User: url.User(superuser), Path: "/" + db, RawQuery: q.Encode()}).String()
}

func (c *cluster) admin(ctx context.Context, sql string) error {
	conn, err := pgx.Connect(ctx, c.url("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, sql)
	return err
}

// binDir finds the directory of initdb and postgres: the newest of Debian's
// /usr/lib/postgresql/*/bin, or PATH.
func binDir() (string, error) {
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	slices.SortFunc(found, func(a, b string) int { return version(a) - version(b) })
	if len(found) > 0 {
		return filepath.Dir(found[len(found)-1]), nil
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", errors.New(Install)
}

// version is the major version in a Debian path, 0 when there is none.
func version(initdb string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return v
}

// start initialises and starts a cluster. skip says that err is a missing
// installation rather than a failure of one that exists.
func start(durable bool, settings ...string) (c *cluster, skip bool, err error) {
	bin, err := binDir()
	if err != nil {
		return nil, true, err
	}
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, true, fmt.Errorf("pgtest: running as root, and initdb refuses root: no user postgres to run it as (%v); %s", err, Install)
		}
		uid, _ := strconv.ParseUint(u.Uid, 10, 32)
		gid, _ := strconv.ParseUint(u.Gid, 10, 32)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	dir, err := os.MkdirTemp("", "treasury-pgtest-")
	if err != nil {
		return nil, false, fmt.Errorf("pgtest: %w", err)
	}
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			os.RemoveAll(dir)
			return nil, false, fmt.Errorf("pgtest: %w", err)
		}
	}
	data := filepath.Join(dir, "data")
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", superuser,
		"--auth=trust", "--encoding=UTF8", "--no-locale", "--no-sync")
	initdb.Dir = dir
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, false, fmt.Errorf("pgtest: initdb: %v\n%s", err, out)
	}

	c = &cluster{dir: dir, exit: make(chan error, 1), postgres: filepath.Join(bin, "postgres"), cred: cred, durable: durable, settings: settings}
	if err := c.run(filepath.Join(bin, "postgres"), cred, durable); err != nil {
		os.RemoveAll(dir)
		return nil, false, err
	}
	if err := c.waitReady(); err != nil {
		c.stop() //nolint:errcheck // the start failed; its error is the one to report
		return nil, false, err
	}
	return c, false, nil
}

// run starts the server in the foreground of a goroutine locked to its OS
// thread. The server gets SIGKILL when that thread ends, which it does only
// with this process: a test binary killed by its timeout leaves no server
// behind (pg_ctl would start a daemon that outlives it).
func (c *cluster) run(postgres string, cred *syscall.Credential, durable bool) error {
	logf, err := os.Create(filepath.Join(c.dir, "server.log"))
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread lives as long as the server
		args := []string{"-D", filepath.Join(c.dir, "data"),
			"-c", "listen_addresses=",
			"-c", "unix_socket_directories=" + c.dir,
			"-c", "shared_buffers=32MB", "-c", "max_connections=200"}
		if !durable {
			// A throwaway cluster: a crash loses nothing worth keeping.
			args = append(args, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
		}
		for _, s := range c.settings {
			args = append(args, "-c", s)
		}
		c.cmd = exec.Command(postgres, args...)
		c.cmd.Dir = c.dir
		c.cmd.Stdout, c.cmd.Stderr = logf, logf
		c.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL, Setpgid: true}
		if err := c.cmd.Start(); err != nil {
			logf.Close()
			started <- fmt.Errorf("pgtest: start postgres: %w", err)
			return
		}
		started <- nil
		c.exit <- c.cmd.Wait()
		logf.Close()
	}()
	return <-started
}

// waitReady waits until the server accepts connections (pg_ctl -w's wait).
func (c *cluster) waitReady() error {
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, c.url("postgres"))
		cancel()
		if err == nil {
			conn.Close(context.Background())
			return nil
		}
		select {
		case exitErr := <-c.exit:
			c.exit <- exitErr
			return fmt.Errorf("pgtest: postgres exited (%v):\n%s", exitErr, c.log())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pgtest: postgres not ready after a minute: %v\n%s", err, c.log())
		}
	}
}

func (c *cluster) log() string {
	b, _ := os.ReadFile(filepath.Join(c.dir, "server.log"))
	return strings.TrimSpace(string(b))
}

// stop shuts the server down (fast shutdown; SIGKILL after ten seconds) and
// removes its directory.
func (c *cluster) stop() error {
	defer os.RemoveAll(c.dir)
	if c.cmd == nil || c.cmd.Process == nil {
		return nil
	}
	_ = c.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-c.exit:
		return nil
	case <-time.After(10 * time.Second):
		_ = c.cmd.Process.Kill()
		<-c.exit
		return errors.New("postgres did not stop within 10s; killed")
	}
}

// Cluster is a throwaway server for programs that are not tests (the load
// and crash runs), started as the tests' own is, in a temporary directory
// reachable through a Unix socket only.
type Cluster struct {
	c       *cluster
	stopped sync.Once
	stopErr error
}

// Start starts a cluster. A durable one keeps fsync and synchronous commit
// on, as a production server does, so that its figures compare with
// SQLite's synchronous=FULL; the tests' own turns them off.
func Start(durable bool) (*Cluster, error) { return StartWith(durable) }

// StartWith is Start with more server settings, each "name=value" (as
// postgres -c takes them): "shared_preload_libraries=pg_stat_statements"
// for the load run's statement counts, say.
func StartWith(durable bool, settings ...string) (*Cluster, error) {
	c, _, err := start(durable, settings...)
	if err != nil {
		return nil, err
	}
	return &Cluster{c: c}, nil
}

// Database creates an empty database named name and returns its URL.
func (c *Cluster) Database(ctx context.Context, name string) (string, error) {
	if err := c.c.admin(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", fmt.Errorf("pgtest: %w", err)
	}
	return c.c.url(name), nil
}

// PID is the postmaster's process id, which is also the process group of
// every backend (for their CPU time, say).
func (c *Cluster) PID() int { return c.c.cmd.Process.Pid }

// Stop shuts the server down and removes its directory; once stopped, it
// does nothing.
func (c *Cluster) Stop() error {
	c.stopped.Do(func() { c.stopErr = c.c.stop() })
	return c.stopErr
}

// Own starts a cluster of the test's own with one database, named name,
// for a test that stops the server while other tests use the binary's, and
// returns it with the database's URL; it is stopped when the test ends. A
// test is skipped where no cluster can be started.
func Own(t testing.TB, name string) (*Cluster, string) {
	t.Helper()
	c, err := Start(false)
	if err != nil {
		t.Skip("no PostgreSQL cluster of its own: " + err.Error())
	}
	t.Cleanup(func() { _ = c.Stop() })
	url, err := c.Database(t.Context(), name)
	if err != nil {
		t.Fatal(err)
	}
	return c, url
}

// Kill ends the server with SIGKILL, as a crash would, and starts it again
// on the same data (crash recovery then runs); it returns once the server
// accepts connections again.
func (c *Cluster) Kill() error {
	// The whole process group: the postmaster and every backend, so that
	// none is left holding the shared memory the new server needs.
	pgid := c.c.cmd.Process.Pid
	if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil {
		return fmt.Errorf("pgtest: kill: %w", err)
	}
	<-c.c.exit
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		if syscall.Kill(-pgid, 0) == syscall.ESRCH {
			break // the whole group is gone
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Backends that were between two steps may hold the shared memory a
	// moment longer: the new server refuses to start until they are gone.
	for tries := 0; ; tries++ {
		if err := c.c.run(c.c.postgres, c.c.cred, c.c.durable); err != nil {
			return err
		}
		err := c.c.waitReady()
		if err == nil || tries == 50 {
			return err
		}
		<-c.c.exit // the failed start's status, which waitReady put back
		time.Sleep(100 * time.Millisecond)
	}
}
