// Package client is a Go client of the Treasury API, generated from
// openapi.yaml by oapi-codegen: the request and response types and one method
// per operation. Frontends, bots and load runs written in Go import it:
//
//	c, err := client.NewClientWithResponses("http://127.0.0.1:8080")
//	created, err := c.CreateGameWithResponse(ctx, client.CreateGameRequest{
//		Ruleset: "silver-and-gold", Mode: client.Digital,
//		Players: []client.PlayerSpec{{Name: "Ann"}},
//	})
//
// Credentials go in a request editor:
//
//	client.Bearer(created.JSON201.Credentials.Seats[0])
//
// Do not edit client.gen.go; change the spec and run go generate ./...
package client

//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen --config=config.yaml ../../openapi.yaml
