// Package oapi is generated from openapi.yaml by oapi-codegen: the Echo
// router and the strict server interface that api.Server implements, with
// the strict server's request and response objects. The request and response
// types themselves are package models, generated once and shared with the Go
// client. Do not edit server.gen.go; change the spec and run
// go generate ./...
package oapi

//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen --config=config.yaml ../../openapi.yaml
