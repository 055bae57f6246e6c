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
	deadline := time.Now().Add(20 * time.Second)
	client := &http.Client{Timeout: time.Second}
	for {
		select {
		case <-s.exited:
			return nil, fmt.Errorf("%s exited before it answered: %v (log: %s)", filepath.Base(bin), s.err, logPath)
		case <-ctx.Done():
			s.Kill()
			return nil, ctx.Err()
		default:
		}
		resp, err := client.Get(s.URL + healthPath)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		if time.Now().After(deadline) {
			s.Kill()
			return nil, fmt.Errorf("%s did not answer %s within 20s (log: %s)", filepath.Base(bin), healthPath, logPath)
		}
		time.Sleep(10 * time.Millisecond)
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
