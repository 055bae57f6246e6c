// Package client is a Go client of the Treasury API, generated from
// openapi.yaml by oapi-codegen: one method per operation, on the request and
// response types of package models (generated once, shared with the server).
// Frontends, bots and load runs written in Go import both:
//
//	c, err := client.NewClientWithResponses("http://127.0.0.1:8080")
//	key := domain.NewSecret() // sent again with a retry: one game however often
//	created, err := c.CreateGameWithResponse(ctx, &models.CreateGameParams{IdempotencyKey: &key}, models.CreateGameRequest{
//		Ruleset: "silver-and-gold", Mode: models.Digital,
//		Players: []models.PlayerSpec{{Name: "Ann"}},
//	})
//
// Credentials go in a request editor:
//
//	client.Bearer(created.JSON201.Credentials.Seats[0])
//
// Do not edit client.gen.go; change the spec and run go generate ./...
package client

//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen --config=config.yaml ../../openapi.yaml
