package api

import (
	"slices"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain/silvergold"
)

// The validator finds a request's operation by the route Echo matched. Every
// operation of openapi.yaml must have an Echo route under that same key, or
// its requests would reach the handlers unvalidated.
func TestEveryOperationIsValidated(t *testing.T) {
	h, err := NewHandler(sqliteGames(t), Options{DefaultRuleset: silvergold.RulesetName})
	require.NoError(t, err)
	var echoRoutes []string
	for _, r := range h.(*echo.Echo).Routes() {
		echoRoutes = append(echoRoutes, r.Method+" "+r.Path)
	}
	doc, err := Spec()
	require.NoError(t, err)
	routes := specRoutes(doc)
	require.NotEmpty(t, routes)
	for key, route := range routes {
		require.Contains(t, echoRoutes, key, "operation %s (%s %s) has no Echo route of that key", route.Operation.OperationID, route.Method, route.Path)
	}
	require.True(t, slices.Contains(echoRoutes, "POST /v1/games/:id/moves"))
}
