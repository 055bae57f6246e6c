// Package treasury holds the HTTP contract of the Treasury game server,
// openapi.yaml, embedded so that the server validates requests against, and
// serves, exactly the file in the repository.
//
// openapi.yaml is generated: scripts/specbundle bundles openapi.base.yaml (the
// shared part) with the openapi.yaml in the folder of every game registered in
// domain/rulesets. This package's go:generate line runs first in
// go generate ./... (the root package sorts first), before oapi-codegen reads
// the bundle in api/.
package treasury

//go:generate go run ./scripts/specbundle

import _ "embed"

// OpenAPI is the content of openapi.yaml.
//
//go:embed openapi.yaml
var OpenAPI []byte
