package api_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/treasury-games/treasury/api"
)

// TestSpecDocumented holds openapi.yaml to its promise: every operation,
// parameter, header, schema and field has a description and an example (a
// field that refers to another schema borrows that schema's), and the error
// codes it lists are exactly those the server answers with.
func TestSpecDocumented(t *testing.T) {
	if spec.Err != nil {
		t.Fatal(spec.Err)
	}
	doc := spec.Doc
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			where := method + " " + path
			if op.OperationID == "" || op.Summary == "" || op.Description == "" {
				t.Errorf("%s: operationId, summary and description are required", where)
			}
			for _, p := range op.Parameters {
				if p.Value.Description == "" || p.Value.Example == nil {
					t.Errorf("%s: parameter %s has no description or example", where, p.Value.Name)
				}
			}
			for status, r := range op.Responses.Map() {
				if r.Value.Description == nil || *r.Value.Description == "" {
					t.Errorf("%s: response %s has no description", where, status)
				}
				for name, h := range r.Value.Headers {
					if h.Value.Description == "" || h.Value.Example == nil {
						t.Errorf("%s: response %s: header %s has no description or example", where, status, name)
					}
				}
				for ct, mt := range r.Value.Content {
					if mt.Example == nil && mt.Schema == nil {
						t.Errorf("%s: response %s: %s has neither a schema nor an example", where, status, ct)
					}
				}
			}
		}
	}
	for name, s := range doc.Components.Schemas {
		if s.Value.Description == "" || s.Value.Example == nil {
			t.Errorf("schema %s has no description or example", name)
		}
		checkFields(t, name, s.Value)
	}

	var listed []string
	for _, v := range doc.Components.Schemas["Problem"].Value.Properties["code"].Value.Enum {
		listed = append(listed, v.(string))
	}
	var served []string
	for _, c := range api.Codes() {
		served = append(served, string(c))
	}
	slices.Sort(listed)
	slices.Sort(served)
	if !slices.Equal(listed, served) {
		t.Errorf("Problem.code lists %v; the server answers with %v", listed, served)
	}
	desc := doc.Components.Schemas["Problem"].Value.Properties["code"].Value.Description
	for _, c := range served {
		if !strings.Contains(desc, "`"+c+"`") {
			t.Errorf("Problem.code does not describe %s", c)
		}
	}
}

// checkFields checks the fields of an inline schema, depth first.
func checkFields(t *testing.T, where string, s *openapi3.Schema) {
	t.Helper()
	for name, p := range s.Properties {
		at := where + "." + name
		if p.Ref != "" {
			continue // the component is checked on its own
		}
		v := p.Value
		if v.Description == "" {
			t.Errorf("field %s has no description", at)
		}
		borrows := len(v.AllOf) == 1 && v.AllOf[0].Ref != "" || // nullable reference
			v.Items != nil && v.Items.Ref != "" // list of a component
		if v.Example == nil && !borrows {
			t.Errorf("field %s has no example", at)
		}
		checkFields(t, at, v)
	}
	if s.Items != nil && s.Items.Ref == "" {
		checkFields(t, where+"[]", s.Items.Value)
	}
}

// TestConformanceCheck shows that the check every test applies to every
// answer catches an answer that drifted from openapi.yaml.
func TestConformanceCheck(t *testing.T) {
	if spec.Err != nil {
		t.Fatal(spec.Err)
	}
	req := httptest.NewRequest(http.MethodGet, "/healthz", nil)
	for _, c := range []struct {
		name string
		r    resp
		ok   bool
	}{
		{"as documented", resp{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"status":"ok"}`)}, true},
		{"unknown value", resp{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"status":"fine"}`)}, false},
		{"extra field", resp{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"status":"ok","uptime":3}`)}, false},
		{"undocumented status", resp{Status: http.StatusTeapot, Header: http.Header{"Content-Type": {"text/plain"}}, Body: []byte(`tea`)}, false},
		{"problem without a code", resp{Status: 503, Header: http.Header{"Content-Type": {api.ProblemContentType}}, Body: []byte(`{"type":"x","title":"t","status":503,"detail":"d"}`)}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := conforms(req, nil, c.r); (err == nil) != c.ok {
				t.Errorf("conforms = %v, want ok %v", err, c.ok)
			}
		})
	}
	// A game answer without its ETag header.
	game := httptest.NewRequest(http.MethodGet, "/v1/games/3q2XoU0W1mTQb9_c", nil)
	body := spec.Doc.Components.Schemas["Game"].Value.Example
	raw, _ := jsonMarshal(body)
	if err := conforms(game, nil, resp{Status: 200, Header: http.Header{"Content-Type": {"application/json"}, "Etag": {`"0"`}}, Body: raw}); err != nil {
		t.Errorf("the documented example does not conform: %v", err)
	}
	if err := conforms(game, nil, resp{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: raw}); err == nil {
		t.Error("an answer without its ETag conforms")
	}
}
