// Package treasury holds the HTTP contract of the Treasury game server,
// openapi.yaml, embedded so that the server validates requests against, and
// serves, exactly the file in the repository.
package treasury

import _ "embed"

// OpenAPI is the content of openapi.yaml.
//
//go:embed openapi.yaml
var OpenAPI []byte
