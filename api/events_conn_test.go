package api_test

import "testing"

// TestEventStreamConnectionClose: a stream's answer says Connection: close,
// so that a client does not keep the connection for its next request once
// the stream ends: the server closes it then. Without it, the load run's
// clients sent the POST creating their next game on the connection of the
// stream of the game just ended, and got "connection reset by peer".
func TestEventStreamConnectionClose(t *testing.T) {
	s := startOps(t, nil)
	p := create(t, s.client, 2, "stream-connection")
	st := openStream(t, s.server, "/v1/games/"+p.id+"/events?access_token="+p.host)
	defer st.resp.Body.Close()
	if !st.resp.Close {
		t.Errorf("the stream's answer does not say Connection: close (headers %v)", st.resp.Header)
	}
}
