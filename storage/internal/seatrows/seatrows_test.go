package seatrows_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/storage/internal/seatrows"
)

func TestCredentials(t *testing.T) {
	t.Run("the host's row and the seats in order", func(t *testing.T) {
		var r seatrows.Credentials
		require.NoError(t, r.Add(seatrows.Host, "h", false))
		require.NoError(t, r.Add(0, "a", false))
		require.NoError(t, r.Add(1, "b", true))
		c, found := r.Result()
		assert.True(t, found)
		assert.Equal(t, domain.Credentials{HostHash: "h", SeatHashes: []string{"a", "b"}, Taken: []bool{false, true}}, c)
	})
	t.Run("no seat taken is no Taken at all", func(t *testing.T) {
		var r seatrows.Credentials
		require.NoError(t, r.Add(seatrows.Host, "h", false))
		require.NoError(t, r.Add(0, "a", false))
		c, _ := r.Result()
		assert.Nil(t, c.Taken)
	})
	t.Run("no row is no game", func(t *testing.T) {
		var r seatrows.Credentials
		_, found := r.Result()
		assert.False(t, found)
	})
	t.Run("a missing seat is an error", func(t *testing.T) {
		var r seatrows.Credentials
		require.NoError(t, r.Add(0, "a", false))
		assert.EqualError(t, r.Add(2, "c", false), "seat 2 follows seat 0")
	})
}
