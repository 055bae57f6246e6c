package play

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// Recorder counts what the clients did: every move submission with its
// latency and outcome, reads by kind, and a sample of the bodies sent (the
// floor run sends the same bodies). It is safe for concurrent use.
type Recorder struct {
	mu        sync.Mutex
	latencies []time.Duration // every move submission that got an HTTP answer
	accepted  int64
	errors    map[string]int // "422 illegal_move", "transport", …
	reads     map[string]int // "legal-moves", "game", "game 304", …
	creates   int
	games     int // games played to their end
	retries   int // requests sent again after they got no answer
	bodies    [][]byte
	bodyBytes int64
}

// maxBodies bounds the sample of move bodies kept for the floor run.
const maxBodies = 4096

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder {
	return &Recorder{errors: map[string]int{}, reads: map[string]int{}}
}

// Move records one move submission answered with status in d; code is the
// problem code of an error answer.
func (r *Recorder) Move(d time.Duration, status int, code string, body []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.latencies = append(r.latencies, d)
	r.bodyBytes += int64(len(body))
	if len(r.bodies) < maxBodies {
		r.bodies = append(r.bodies, body)
	}
	if status == 200 {
		r.accepted++
		return
	}
	r.errors[fmt.Sprintf("%d %s", status, code)]++
}

// Error records a failure that is not an HTTP answer (a refused connection,
// a timeout, an answer that cannot be read).
func (r *Recorder) Error(kind string) {
	r.mu.Lock()
	r.errors[kind]++
	r.mu.Unlock()
}

// Read records one read request of the given kind.
func (r *Recorder) Read(kind string) {
	r.mu.Lock()
	r.reads[kind]++
	r.mu.Unlock()
}

// Retried records a request sent again because it got no answer.
func (r *Recorder) Retried() {
	r.mu.Lock()
	r.retries++
	r.mu.Unlock()
}

// Created records a game created.
func (r *Recorder) Created() {
	r.mu.Lock()
	r.creates++
	r.mu.Unlock()
}

// Finished records a game played to its end.
func (r *Recorder) Finished() {
	r.mu.Lock()
	r.games++
	r.mu.Unlock()
}

// Bodies returns the sample of move bodies sent.
func (r *Recorder) Bodies() [][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.bodies)
}

// Summary is what a phase of a run measured.
type Summary struct {
	Seconds      float64        `json:"seconds"`
	Submissions  int            `json:"submissions"`
	Accepted     int64          `json:"accepted"`
	PerSecond    float64        `json:"accepted_per_second"`
	P50          float64        `json:"p50_ms"`
	P99          float64        `json:"p99_ms"`
	Max          float64        `json:"max_ms"`
	Errors       map[string]int `json:"errors"`
	Reads        map[string]int `json:"reads"`
	Creates      int            `json:"games_created"`
	Games        int            `json:"games_completed"`
	Retries      int            `json:"retries"`
	AvgBodyBytes float64        `json:"avg_body_bytes"`
	// CPU per accepted move, in microseconds: of the server process, and
	// of the process running the clients (filled in by the caller).
	ServerCPU float64 `json:"server_cpu_us_per_move"`
	ClientCPU float64 `json:"client_cpu_us_per_move"`
	// WritesPerCommit is how many writes the server's store grouped in each
	// commit on average (treasury only: from its /metrics).
	WritesPerCommit float64 `json:"writes_per_commit,omitempty"`
	// WrittenPerMove is how many bytes the server process wrote to files
	// per accepted move (its database; 0 when not measured, as for a server
	// whose database is another process, PostgreSQL).
	WrittenPerMove float64 `json:"written_bytes_per_move,omitempty"`
	// DatabaseCPU is the CPU time of the PostgreSQL cluster (every process
	// of it) per accepted move, in microseconds; 0 on SQLite.
	DatabaseCPU float64 `json:"database_cpu_us_per_move,omitempty"`
	// Proxied tells that the clients talked to the servers through nginx,
	// and ProxyCPU is then nginx's CPU time (every process of it) per
	// accepted move, in microseconds.
	Proxied  bool    `json:"through_nginx,omitempty"`
	ProxyCPU float64 `json:"proxy_cpu_us_per_move,omitempty"`
}

// Summary computes the figures over a phase that lasted elapsed.
func (r *Recorder) Summary(elapsed time.Duration) Summary {
	r.mu.Lock()
	defer r.mu.Unlock()
	lat := slices.Clone(r.latencies)
	slices.Sort(lat)
	s := Summary{
		Seconds: elapsed.Seconds(), Submissions: len(lat), Accepted: r.accepted,
		PerSecond: float64(r.accepted) / elapsed.Seconds(),
		Errors:    map[string]int{}, Reads: map[string]int{}, Creates: r.creates, Games: r.games, Retries: r.retries,
	}
	for k, v := range r.errors {
		s.Errors[k] = v
	}
	for k, v := range r.reads {
		s.Reads[k] = v
	}
	if len(lat) > 0 {
		s.P50 = ms(quantile(lat, 0.50))
		s.P99 = ms(quantile(lat, 0.99))
		s.Max = ms(lat[len(lat)-1])
		s.AvgBodyBytes = float64(r.bodyBytes) / float64(len(lat))
	}
	return s
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// quantile returns the q-quantile of sorted (nearest rank).
func quantile(sorted []time.Duration, q float64) time.Duration {
	i := int(q*float64(len(sorted))+0.5) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// Counts formats a map of counts as "k: n, k: n" in key order, or "none".
func Counts(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s: %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
