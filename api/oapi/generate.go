// Package oapi is generated from openapi.yaml by oapi-codegen: the request and
// response types, the Echo router and the strict server interface that
// api.Server implements. Do not edit oapi.gen.go; change the spec and run
// go generate ./...
package oapi

//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen --config=config.yaml ../../openapi.yaml
