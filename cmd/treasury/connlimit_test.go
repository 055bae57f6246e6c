package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// clientFrom is an HTTP client whose connections come from the local
// address ip (all of 127/8 is this host on Linux).
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: d.DialContext}}
}

// idleConn opens a connection from ip, asks for /healthz on it and leaves
// it open, idle, as the attack did. It returns the connection and the
// status it was answered (0: closed without an answer).
func idleConn(t *testing.T, ip, addr string) (net.Conn, int) {
	t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial from %s: %v", ip, err)
	}
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: treasury\r\n\r\n"); err != nil {
		return c, 0
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return c, 0
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	_ = c.SetDeadline(time.Time{})
	return c, res.StatusCode
}

// TestConnectionFlood: one address holding idle keep-alive connections gets
// its cap and no more, and many addresses holding idle connections up to
// the total cap have the longest idle closed; meanwhile another address
// still gets /healthz, /metrics, a new game and a move answered. The caps
// are low here (the defaults come from the open-file limit).
func TestConnectionFlood(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	base, _ := started(t, []string{"serve", "--address", "127.0.0.1:0", "--database", db},
		env("TREASURY_CONNECTIONS_PER_ADDRESS", "16", "TREASURY_MAX_CONNECTIONS", "64", "TREASURY_RATE_PER_ADDRESS", "0"))
	addr := strings.TrimPrefix(base, "http://")

	var mu sync.Mutex
	var held []net.Conn
	t.Cleanup(func() {
		for _, c := range held {
			c.Close()
		}
	})
	flood := func(ip string, n int) map[int]int {
		statuses := map[int]int{}
		for range n {
			c, status := idleConn(t, ip, addr)
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
			statuses[status]++
		}
		return statuses
	}

	// One address, 100 connections: 16 served and kept, the rest closed at
	// once (answered 429, or closed before the answer could be read).
	got := flood("127.0.0.1", 100)
	if got[http.StatusOK] != 16 || got[http.StatusOK]+got[http.StatusTooManyRequests]+got[0] != 100 {
		t.Errorf("one address opening 100 connections: statuses %v; want 16 answered 200, the others refused", got)
	}

	// Ten more addresses, 16 each (160, over the total of 64): the
	// connections idle longest are closed to let the new ones in.
	for i := range 10 {
		flood(fmt.Sprintf("127.0.0.%d", 10+i), 16)
	}

	// Another address is served at once, its connections kept alive.
	other := clientFrom("127.0.0.2")
	defer other.CloseIdleConnections()
	for _, path := range []string{"/healthz", "/readyz", "/metrics"} {
		start := time.Now()
		res, err := other.Get(base + path)
		if err != nil {
			t.Fatalf("%s from another address during the flood: %v", path, err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s from another address during the flood: %d", path, res.StatusCode)
		}
		t.Logf("%s from another address: %v", path, time.Since(start))
	}
	res, err := other.Post(base+"/v1/games", "application/json",
		strings.NewReader(`{"ruleset":"silver-and-gold","mode":"digital","players":[{"name":"Ann"}]}`))
	if err != nil {
		t.Fatalf("create a game from another address during the flood: %v", err)
	}
	var created struct {
		Game struct {
			ID    string
			State struct{ Players []struct{ Dealt []string } }
		}
		Credentials struct{ Seats []string }
	}
	err = json.NewDecoder(res.Body).Decode(&created)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("create a game from another address during the flood: %d %v", res.StatusCode, err)
	}
	dealt := created.Game.State.Players[0].Dealt
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, base+"/v1/games/"+created.Game.ID+"/moves",
		strings.NewReader(fmt.Sprintf(`{"type":"keep","seat":0,"cards":[%q,%q]}`, dealt[0], dealt[1])))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+created.Credentials.Seats[0])
	res, err = other.Do(req)
	if err != nil {
		t.Fatalf("a move from another address during the flood: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("a move from another address during the flood: %d", res.StatusCode)
	}

	res, err = other.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, want := range []string{`treasury_connections_refused_total{limit="address"} 84`, "treasury_connections_closed_idle_total "} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics does not show %q", want)
		}
	}
}

// TestStreamsWithoutCap: --max-streams 0 still leaves connections for
// others: streams may take all but the reserve kept for addresses holding
// few connections, and health checks from another address are answered.
func TestStreamsWithoutCap(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	base, _ := started(t, []string{"serve", "--address", "127.0.0.1:0", "--database", db},
		env("TREASURY_MAX_STREAMS", "0", "TREASURY_STREAMS_PER_ADDRESS", "0", "TREASURY_STREAMS_PER_CREDENTIAL", "0",
			"TREASURY_CONNECTIONS_PER_ADDRESS", "0", "TREASURY_MAX_CONNECTIONS", "64", "TREASURY_RATE_PER_ADDRESS", "0"))
	addr := strings.TrimPrefix(base, "http://")
	id := createGame(t, base)
	http.DefaultClient.CloseIdleConnections()
	statuses := map[int]int{}
	for range 80 {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		status := 0
		if _, err := fmt.Fprintf(c, "GET /v1/games/%s/events HTTP/1.1\r\nHost: treasury\r\n\r\n", id); err == nil {
			if res, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
				status = res.StatusCode
			}
		}
		statuses[status]++
	}
	if statuses[http.StatusOK] > 48 || statuses[http.StatusOK] < 40 || statuses[http.StatusOK]+statuses[http.StatusServiceUnavailable]+statuses[0] != 80 {
		t.Errorf("80 streams with --max-streams 0 and 64 connections at most: statuses %v; want at most 48 open (the reserve is 16), the others 503", statuses)
	}
	other := clientFrom("127.0.0.2")
	defer other.CloseIdleConnections()
	for _, path := range []string{"/healthz", "/metrics"} {
		res, err := other.Get(base + path)
		if err != nil {
			t.Fatalf("%s from another address: %v", path, err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s from another address: %d", path, res.StatusCode)
		}
	}
}
