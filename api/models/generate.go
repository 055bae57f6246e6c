// Package models holds the request and response types of the Treasury API,
// generated once from openapi.yaml by oapi-codegen. The strict Echo server
// (package oapi) and the Go client (package client) are generated on top of
// it, so the server, the client and everything written against either use
// the same types. Do not edit types.gen.go; change the spec and run
// go generate ./...
package models

//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen --config=config.yaml ../../openapi.yaml
