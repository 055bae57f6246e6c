// Package nginx runs the load balancer Treasury ships (treasury.conf in this
// directory: nginx with consistent hashing on the game id of the path) in
// front of servers of a test or a load run. The configuration it runs is the
// shipped file with its upstream servers and listen address replaced.
//
// nginx comes from the system (Debian: apt-get install nginx, or the
// smaller nginx-light); Find says when it is missing.
package nginx

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/treasury-games/treasury/scripts/internal/proc"
)

// Config is the shipped configuration, treasury.conf.
//
//go:embed treasury.conf
var Config string

// Install is the advice given when nginx cannot be found.
const Install = "nginx not installed (apt-get install nginx); .ci/run installs it"

// Find returns the path of the nginx binary, or an error that says how to
// install it.
func Find() (string, error) {
	if p, err := exec.LookPath("nginx"); err == nil {
		return p, nil
	}
	for _, p := range []string{"/usr/sbin/nginx", "/usr/local/sbin/nginx"} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New(Install)
}

// Render returns the shipped configuration with backends (host:port) as its
// upstream servers and listen as its address.
func Render(backends []string, listen string) (string, error) {
	servers := regexp.MustCompile(`(?s)\t# servers: one line per Treasury server\n.*?\t# servers: end\n`)
	if !servers.MatchString(Config) {
		return "", errors.New("nginx: treasury.conf has no servers block")
	}
	var b strings.Builder
	b.WriteString("\t# servers: one line per Treasury server\n")
	for _, s := range backends {
		fmt.Fprintf(&b, "\tserver %s;\n", s)
	}
	b.WriteString("\t# servers: end\n")
	out := servers.ReplaceAllLiteralString(Config, b.String())
	listenLine := regexp.MustCompile(`(?m)^\tlisten [^;]+;$`)
	if !listenLine.MatchString(out) {
		return "", errors.New("nginx: treasury.conf has no listen line")
	}
	return listenLine.ReplaceAllLiteralString(out, "\tlisten "+listen+";"), nil
}

// Proxy is a running nginx.
type Proxy struct {
	URL    string // http://host:port
	cmd    *exec.Cmd
	exited chan struct{}
	dir    string
}

// Start runs nginx in dir (its configuration, logs and pid file go there) in
// front of backends, on a free port of 127.0.0.1, and waits until a request
// for /healthz passes through it (up to 20 s).
func Start(ctx context.Context, dir string, backends []string) (*Proxy, error) {
	bin, err := Find()
	if err != nil {
		return nil, err
	}
	addr, err := proc.FreeAddress()
	if err != nil {
		return nil, err
	}
	site, err := Render(backends, addr)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "treasury.conf"), []byte(site), 0o644); err != nil {
		return nil, err
	}
	// The main configuration a system's nginx.conf would hold, with every
	// path in dir.
	main := fmt.Sprintf(`daemon off;
worker_processes 1;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
events { worker_connections 4096; }
http {
	access_log off;
	client_body_temp_path %[1]s/client_body;
	proxy_temp_path %[1]s/proxy;
	fastcgi_temp_path %[1]s/fastcgi;
	uwsgi_temp_path %[1]s/uwsgi;
	scgi_temp_path %[1]s/scgi;
	include %[1]s/treasury.conf;
}
`, dir)
	conf := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(conf, []byte(main), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-p", dir, "-c", conf, "-e", filepath.Join(dir, "error.log"))
	log, err := os.Create(filepath.Join(dir, "nginx.out"))
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		log.Close()
		return nil, err
	}
	p := &Proxy{URL: "http://" + addr, cmd: cmd, exited: make(chan struct{}), dir: dir}
	go func() {
		_ = cmd.Wait()
		log.Close()
		close(p.exited)
	}()
	switch err := proc.Await(ctx, p.URL+"/healthz", p.exited, 20*time.Second, 20*time.Millisecond); {
	case err == nil:
		return p, nil
	case errors.Is(err, proc.ErrExited):
		out, _ := os.ReadFile(filepath.Join(dir, "nginx.out"))
		errs, _ := os.ReadFile(filepath.Join(dir, "error.log"))
		return nil, fmt.Errorf("nginx exited: %s%s", out, errs)
	case errors.Is(err, proc.ErrSlow):
		p.Stop()
		return nil, fmt.Errorf("nginx did not pass /healthz within 20s (log: %s)", filepath.Join(dir, "error.log"))
	default:
		p.Stop()
		return nil, err
	}
}

// CPUTime returns the CPU time (user and system) nginx has used so far, its
// master and worker processes; 0 where there is no /proc.
func (p *Proxy) CPUTime() time.Duration { return proc.GroupCPUTime(p.cmd.Process.Pid) }

// Stop stops nginx (SIGQUIT: it finishes the requests in flight; SIGKILL
// after 10 s) and waits for it to exit.
func (p *Proxy) Stop() {
	_ = p.cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case <-p.exited:
		return
	case <-time.After(10 * time.Second):
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.exited
}
