// Package proc builds the servers the load and crash runs drive and runs them
// as real processes on 127.0.0.1: build once, start on a free port, wait until
// the server answers, stop or kill by PID.
package proc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ModuleRoot returns the directory of the repository's go.mod, so that the
// programs work from any directory inside the repository.
func ModuleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("run this from inside the treasury repository (no go.mod found)")
	}
	return filepath.Dir(mod), nil
}

// Build compiles package pkg (e.g. "./cmd/treasury") of the module at root
// into out.
func Build(ctx context.Context, root, pkg, out string, tags ...string) error {
	args := []string{"build", "-o", out}
	if len(tags) > 0 {
		args = append(args, "-tags", strings.Join(tags, ","))
	}
	cmd := exec.CommandContext(ctx, "go", append(args, pkg)...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s: %w\n%s", pkg, err, stderr.String())
	}
	return nil
}

// FreeAddress returns 127.0.0.1:<a port nobody listens on right now>.
func FreeAddress() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// Server is a running server process.
type Server struct {
	Address string // host:port
	URL     string // http://host:port
	cmd     *exec.Cmd
	exited  chan struct{}
	err     error
}

// Start runs bin with args, its output appended to logPath, and waits until
// GET healthPath answers 200 (up to 20s).
func Start(ctx context.Context, bin string, args []string, address, healthPath, logPath string, env ...string) (*Server, error) {
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = append(os.Environ(), env...)
	// Its own process group: a ^C to the run reaches the run, which stops
	// the server itself.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	s := &Server{Address: address, URL: "http://" + address, cmd: cmd, exited: make(chan struct{})}
	go func() {
		s.err = cmd.Wait()
		logf.Close()
		close(s.exited)
	}()
	switch err := Await(ctx, s.URL+healthPath, s.exited, 20*time.Second, 10*time.Millisecond); {
	case err == nil:
		return s, nil
	case errors.Is(err, ErrExited):
		return nil, fmt.Errorf("%s exited before it answered: %v (log: %s)", filepath.Base(bin), s.err, logPath)
	case errors.Is(err, ErrSlow):
		s.Kill()
		return nil, fmt.Errorf("%s did not answer %s within 20s (log: %s)", filepath.Base(bin), healthPath, logPath)
	default:
		s.Kill()
		return nil, err
	}
}

// What Await returns when the process does not come up.
var (
	ErrExited = errors.New("the process exited")
	ErrSlow   = errors.New("no answer in time")
)

// Await asks GET url every pause until it answers 200 (nil), the process
// behind it exits (exited closes: ErrExited), ctx ends (its error) or
// within has passed (ErrSlow).
func Await(ctx context.Context, url string, exited <-chan struct{}, within, pause time.Duration) error {
	deadline := time.Now().Add(within)
	client := &http.Client{Timeout: time.Second}
	for {
		select {
		case <-exited:
			return ErrExited
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		if resp, err := client.Get(url); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return ErrSlow
		}
		time.Sleep(pause)
	}
}

// PID is the server's process id.
func (s *Server) PID() int { return s.cmd.Process.Pid }

// Stop sends SIGTERM and waits for the server to exit (SIGKILL after 30s).
func (s *Server) Stop() error {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(30 * time.Second):
		s.Kill()
	}
	var ee *exec.ExitError
	if errors.As(s.err, &ee) {
		return fmt.Errorf("server exited: %v", s.err)
	}
	return nil
}

// Kill sends SIGKILL and waits until the process is gone.
func (s *Server) Kill() {
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.exited
}

// CPUTime returns the CPU time the server has used so far (user and
// system), from /proc; 0 where there is no /proc.
func (s *Server) CPUTime() time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.PID()))
	if err != nil {
		return 0
	}
	// The command name (field 2) may hold spaces; fields after it do not.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	var ticks int64
	for _, v := range f[11:13] { // utime and stime, fields 14 and 15
		n, _ := strconv.ParseInt(v, 10, 64)
		ticks += n
	}
	return time.Duration(ticks) * time.Second / clockTicks
}

// GroupCPUTime returns the CPU time (user and system) used so far by the
// processes of process group pgid, with what their children that have
// ended used (a PostgreSQL cluster: the postmaster, its live backends, and
// those that have exited); 0 where there is no /proc.
func GroupCPUTime(pgid int) time.Duration {
	dirs, _ := os.ReadDir("/proc")
	var ticks int64
	for _, d := range dirs {
		if d.Name()[0] < '0' || d.Name()[0] > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue // ended meanwhile
		}
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) < 15 || f[2] != strconv.Itoa(pgid) {
			continue
		}
		for _, v := range f[11:15] { // utime, stime, cutime, cstime: fields 14-17
			n, _ := strconv.ParseInt(v, 10, 64)
			ticks += n
		}
	}
	return time.Duration(ticks) * time.Second / clockTicks
}

// WrittenBytes returns the bytes the server has written to files so far
// (write_bytes of /proc/<pid>/io: what it sent towards the disk, its
// database and write-ahead log above all; not what it wrote to sockets);
// -1 where there is no /proc.
func (s *Server) WrittenBytes() int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", s.PID()))
	if err != nil {
		return -1
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "write_bytes: "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				return -1
			}
			return n
		}
	}
	return -1
}

// clockTicks is USER_HZ, 100 on every Linux architecture Go supports.
const clockTicks = 100

// Machine describes the hardware the run is on: the number of CPUs and the
// CPU model from /proc/cpuinfo.
func Machine() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%d CPUs (nproc), %s, %s/%s, %s", runtime.NumCPU(), model, runtime.GOOS, runtime.GOARCH, runtime.Version())
}

// Workspace is where a run builds and keeps its files: the module's root
// (to build from) and a fresh temporary directory.
type Workspace struct {
	Root string
	Dir  string
	keep bool
}

// NewWorkspace finds the module's root and makes a temporary directory
// named after the run; with keep it says on out where the directory is and
// Close leaves it (the database and the server's log, to look at).
func NewWorkspace(run string, keep bool, out io.Writer) (Workspace, error) {
	root, err := ModuleRoot()
	if err != nil {
		return Workspace{}, err
	}
	dir, err := os.MkdirTemp("", "treasury-"+run+"-")
	if err != nil {
		return Workspace{}, err
	}
	if keep {
		fmt.Fprintln(out, "keeping", dir)
	}
	return Workspace{Root: root, Dir: dir, keep: keep}, nil
}

// Close removes the directory unless it is kept.
func (w Workspace) Close() {
	if !w.keep {
		os.RemoveAll(w.Dir)
	}
}

// Over reports whether a loop of the run should end: stop is closed or ctx
// is done.
func Over(ctx context.Context, stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	case <-ctx.Done():
		return true
	default:
		return false
	}
}
