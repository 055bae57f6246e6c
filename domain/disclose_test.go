package domain_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/treasury-games/treasury/domain"
)

func TestDisclose(t *testing.T) {
	one := 1
	events := []domain.Event{
		{Type: "public"},
		{Type: "seat1-and-host", For: &one},
		{Type: "seat1-only", For: &one, NotHost: true},
		{Type: "live", Live: true},
	}
	types := func(es []domain.Event) (out []string) {
		for _, e := range es {
			out = append(out, e.Type)
		}
		return out
	}
	for _, c := range []struct {
		name        string
		v           domain.Viewer
		ended, live bool
		want        []string
	}{
		{"the public, live", domain.Public, false, true, []string{"public", "live"}},
		{"the public, caught up", domain.Public, false, false, []string{"public"}},
		{"the host, live", domain.HostViewer, false, true, []string{"public", "seat1-and-host", "live"}},
		{"seat 1, live", domain.SeatViewer(1), false, true, []string{"public", "seat1-and-host", "seat1-only", "live"}},
		{"seat 0, caught up", domain.SeatViewer(0), false, false, []string{"public"}},
		{"anyone once ended", domain.Public, true, false, []string{"public", "seat1-and-host", "seat1-only", "live"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, types(domain.DiscloseEvents(events, c.v, c.ended, c.live)))
		})
	}

	m := domain.MoveRecord{Move: []byte(`{"cards":["x"]}`), Public: []byte(`{}`), For: 1, NotHost: true}
	assert.Equal(t, `{"cards":["x"]}`, string(domain.DiscloseMove(&m, domain.SeatViewer(1), false)))
	assert.Equal(t, `{}`, string(domain.DiscloseMove(&m, domain.HostViewer, false)), "NotHost: the host reads the public form")
	assert.Equal(t, `{}`, string(domain.DiscloseMove(&m, domain.SeatViewer(0), false)))
	assert.Equal(t, `{"cards":["x"]}`, string(domain.DiscloseMove(&m, domain.Public, true)), "everyone reads it once the game has ended")
	m.NotHost = false
	assert.Equal(t, `{"cards":["x"]}`, string(domain.DiscloseMove(&m, domain.HostViewer, false)))
	// For no seat (-1) and not the host: nobody until the end, the public
	// (whose viewer has no seat either) included.
	m.For, m.NotHost = -1, true
	for _, v := range []domain.Viewer{domain.Public, domain.HostViewer, domain.SeatViewer(0), domain.SeatViewer(1)} {
		assert.Equal(t, `{}`, string(domain.DiscloseMove(&m, v, false)), "%+v", v)
	}
	assert.Equal(t, `{"cards":["x"]}`, string(domain.DiscloseMove(&m, domain.Public, true)))
}
