package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"mime"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/api/models"
)

// BenchmarkMoveRequestChain measures what a move request costs in the
// middleware that reads, checks and validates it, up to the decoded body,
// without the game behind it: the headers and body a seat of the load run
// sends.
func BenchmarkMoveRequestChain(b *testing.B) {
	doc, err := Spec()
	if err != nil {
		b.Fatal(err)
	}
	doc.Servers = nil
	validate, err := validator(doc)
	if err != nil {
		b.Fatal(err)
	}
	e := echo.New()
	e.JSONSerializer = bodySerializer{}
	e.HTTPErrorHandler = errorHandler(slog.New(slog.DiscardHandler))
	e.Use(requestID, privateCache, bodyLimits(DefaultBodyLimit), readBody(DefaultJSONLimits), validate, bearer)
	e.POST(movesRoute, func(c echo.Context) error {
		var body models.SubmitMoveJSONRequestBody
		if err := (&echo.DefaultBinder{}).BindBody(c, &body); err != nil {
			return err
		}
		if credential(c.Request().Context()) == "" {
			b.Fatal("no credential")
		}
		return c.NoContent(http.StatusNoContent)
	})
	const move = `{"type":"cross","seat":2,"card":"orange-05","boxes":[[1,1],[1,2],[2,2]]}`
	header := http.Header{
		"Content-Type":    {"application/json"},
		"Authorization":   {"Bearer kQ3v9x_T2mLp8ZrW4nYbH6cJ1sDfG7eA0uIoPqRtSxE"},
		"Idempotency-Key": {"Yx3p9Lm2Qr7Tv5Wz8Ab1Cd4Ef6Gh0Ij"},
		"Prefer":          {"return=minimal"},
	}
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/v1/games/3q2XoU0W1mTQb9_c/moves", strings.NewReader(move))
		req.Header = header.Clone()
		rec := httptest.NewRecorder()
		if e.ServeHTTP(rec, req); rec.Code != http.StatusNoContent {
			b.Fatalf("%d %s", rec.Code, rec.Body)
		}
	}
}

// The validator's quick way for JSON bodies accepts only what the whole
// validation of kin-openapi accepts, and does accept the moves of every
// game (else it would only cost): every member's example, and those
// examples broken in ways a client might break them.
func TestQuickBodyCheckAgrees(t *testing.T) {
	doc, err := Spec()
	require.NoError(t, err)
	route := specRoutes(doc)["POST "+movesRoute]
	require.NotNil(t, route)
	check, ok := newBodyCheck(doc, route.Operation)
	require.True(t, ok)
	require.NotEmpty(t, check.members, "the move's oneOf is not told apart by its discriminator")
	opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, SkipSettingDefaults: true}
	whole := func(body []byte) error {
		req := httptest.NewRequest(http.MethodPost, "/v1/games/g1/moves", bytes.NewReader(body))
		req.Header.Set(echo.HeaderContentType, "application/json")
		in := &openapi3filter.RequestValidationInput{Request: req, PathParams: map[string]string{"id": "g1"}, Route: route, Options: opts}
		return openapi3filter.ValidateRequest(context.Background(), in)
	}
	var bodies [][]byte
	for _, m := range route.Operation.RequestBody.Value.Content["application/json"].Schema.Value.OneOf {
		example, err := json.Marshal(m.Value.Example)
		require.NoError(t, err)
		require.NoError(t, whole(example), "%s's example", m.Ref)
		require.True(t, check.accepts("application/json", example), "%s's example takes the long way", m.Ref)
		var obj map[string]any
		require.NoError(t, json.Unmarshal(example, &obj))
		for name := range obj {
			without := maps.Clone(obj)
			delete(without, name)
			wrong := maps.Clone(obj)
			wrong[name] = []any{true}
			bodies = append(bodies, marshal(t, without), marshal(t, wrong))
		}
		extra := maps.Clone(obj)
		extra["bots"] = 1
		bodies = append(bodies, marshal(t, extra), append(slices.Clone(example), " {}"...), append(slices.Clone(example), " x"...))
	}
	bodies = append(bodies, []byte(`{"type":"nonesuch"}`), []byte(`{"type":3}`), []byte(`{}`), []byte(`[]`), []byte(`null`), []byte(`"take"`))
	refused := 0
	for _, body := range bodies {
		err := whole(body)
		if check.accepts("application/json", body) {
			require.NoError(t, err, "the quick way accepted %s", body)
		} else if err != nil {
			refused++
		}
	}
	require.Greater(t, refused, len(bodies)/2, "too few of the broken bodies are refused to tell anything")

	// Numbers the quick way and kin-openapi (json.Number) must judge alike,
	// integers beyond 2^53 and int64 among them: the quick way takes every
	// one the whole validation accepts, and none it refuses.
	for _, n := range []string{"7", "9007199254740993", "-9007199254740993", "9223372036854775807", "9223372036854775808",
		"18446744073709551617", "1e400", "7.0", "7.5", "1e2", "-0", "0"} {
		for _, body := range []string{`{"type":"take_back","version":` + n + `}`, `{"type":"take_back","version":7,"versions":[` + n + `]}`} {
			err := whole([]byte(body))
			require.Equal(t, err == nil, check.accepts("application/json", []byte(body)), "%s: the whole validation says %v", body, err)
		}
	}
}

func marshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// plainMediaType holds only for media types that mime parses into
// themselves, without parameters, and formats as they are: the quick way of
// normaliseContentType and isJSON changes nothing.
func TestPlainMediaTypeParsesToItself(t *testing.T) {
	for _, ct := range []string{
		"application/json", "application/problem+json", "text/event-stream", "application/vnd.a-b.c_d+json",
		"Application/JSON", "application/json; charset=utf-8", "application/json;charset=UTF-8", " application/json",
		"application/json ", "application/", "/json", "application", "application/json/x", "a/b", "", "application/jsön",
		"application/(json)", "text/plain;", "x/y=z",
	} {
		if !plainMediaType(ct) {
			continue
		}
		mt, params, err := mime.ParseMediaType(ct)
		if err != nil || mt != ct || len(params) > 0 || mime.FormatMediaType(mt, params) != ct {
			t.Errorf("%q is taken as plain, but mime parses it into %q %v (%v) and formats it as %q",
				ct, mt, params, err, mime.FormatMediaType(mt, params))
		}
	}
	for _, ct := range []string{"application/json", "application/problem+json"} {
		if !plainMediaType(ct) {
			t.Errorf("%q is not taken as plain", ct)
		}
	}
}

// The validator's quick way for parameters accepts only what kin-openapi's
// validation of them accepts, for every operation it serves, with each
// parameter absent, empty, as its example and broken; and it takes a
// move's parameters as a seat sends them.
func TestQuickParamCheckAgrees(t *testing.T) {
	doc, err := Spec()
	require.NoError(t, err)
	opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, SkipSettingDefaults: true, ExcludeRequestBody: true}
	e := echo.New()
	values := []string{"", " ", "12", `"12"`, `W/"12"`, "*", `"1", "2"`, "return=minimal", "3q2XoU0W1mTQb9_c", "a b", "ü",
		"bad\x01", strings.Repeat("k", 22), strings.Repeat("k", 65), strings.Repeat("k", 300)}
	checked, quick, refused := 0, 0, 0
	for key, route := range specRoutes(doc) {
		pc, ok := newParamCheck(doc, route)
		if !ok {
			continue
		}
		params := route.Operation.Parameters
		// Each parameter in turn absent or given each value; the others as
		// their examples.
		for i := -1; i < len(params); i++ {
			for _, v := range append(values, "\x00absent") {
				method, path, _ := strings.Cut(key, " ")
				req := httptest.NewRequest(method, "/", nil)
				c := e.NewContext(req, httptest.NewRecorder())
				var names, vals []string
				for j, ref := range params {
					p := ref.Value
					val, _ := p.Example.(string)
					if p.Example == nil && p.Schema != nil && p.Schema.Value != nil {
						val, _ = p.Schema.Value.Example.(string)
					}
					if j == i {
						val = v
					}
					if val == "\x00absent" {
						continue
					}
					switch p.In {
					case "path":
						names, vals = append(names, p.Name), append(vals, val)
					case "header":
						req.Header.Set(p.Name, val)
					}
				}
				c.SetPath(path)
				c.SetParamNames(names...)
				c.SetParamValues(vals...)
				pathParams := map[string]string{}
				for j, n := range names {
					pathParams[n] = vals[j]
				}
				in := &openapi3filter.RequestValidationInput{Request: req, PathParams: pathParams, Route: route, Options: opts}
				whole := openapi3filter.ValidateRequest(context.Background(), in)
				checked++
				if pc.accepts(c) {
					quick++
					require.NoError(t, whole, "%s: the quick way accepted parameter %d as %q", key, i, v)
				} else if whole != nil {
					refused++
				}
			}
		}
	}
	require.Greater(t, quick, 0)
	require.Greater(t, refused, checked/10, "too few of the broken parameters are refused to tell anything")

	route := specRoutes(doc)["POST "+movesRoute]
	pc, ok := newParamCheck(doc, route)
	require.True(t, ok, "a move's parameters take the long way")
	req := httptest.NewRequest(http.MethodPost, "/v1/games/3q2XoU0W1mTQb9_c/moves", nil)
	req.Header.Set("Idempotency-Key", "Yx3p9Lm2Qr7Tv5Wz8Ab1Cd4Ef6Gh0Ij")
	req.Header.Set("Prefer", "return=minimal")
	req.Header.Set("If-Match", `"12"`)
	c := e.NewContext(req, httptest.NewRecorder())
	c.SetPath(movesRoute)
	c.SetParamNames("id")
	c.SetParamValues("3q2XoU0W1mTQb9_c")
	require.True(t, pc.accepts(c), "a seat's move takes the long way")
}

// The quick way to a plain string parameter accepts only what kin-openapi's
// VisitJSON accepts, for the schemas of the document's parameters and for
// patterns of other shapes: every byte alone, every byte within a valid
// value, lengths at and beyond the bounds, values beyond ASCII.
func TestPlainStringAgrees(t *testing.T) {
	doc, err := Spec()
	require.NoError(t, err)
	schemas := map[string]*openapi3.Schema{}
	for name, ref := range doc.Components.Parameters {
		if p := ref.Value; p != nil && p.Schema != nil && p.Schema.Value != nil {
			schemas[name] = p.Schema.Value
		}
	}
	maxLen := func(n uint64) *uint64 { return &n }
	for i, pattern := range []string{`^[0-9]{1,18}$`, `^[0-9a-f]{64}$`, `^[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{6}$`,
		`^[^x]+$`, `(?i)^[a-c]+$`, `^[\x21-\x7E]*$`, `^[a-z]{3,}$`, `\A[a-z]+\z`, `^[a-z]+$|^x$`, `[a-z]+`,
		`^[a-z]+`, `^a+$`, `^[a-z]+\n?$`, `^\w+$`, `^[\u0041-\u005A]+$`, `^.+$`} {
		schemas["pattern "+pattern] = openapi3.NewStringSchema().WithPattern(pattern)
		schemas[fmt.Sprint("bounded ", i)] = &openapi3.Schema{Type: &openapi3.Types{"string"}, MinLength: 2, MaxLength: maxLen(20), Pattern: pattern}
	}
	schemas["enum"] = openapi3.NewStringSchema().WithEnum("a", "b")
	schemas["format"] = openapi3.NewStringSchema().WithFormat("date")
	schemas["nullable"] = openapi3.NewStringSchema().WithNullable()

	var values []string
	for b := 0; b < 256; b++ {
		values = append(values, string([]byte{byte(b)}), "ab"+string([]byte{byte(b)})+"c12")
	}
	for n := 0; n <= 300; n++ {
		values = append(values, strings.Repeat("k", n), strings.Repeat("7", n))
	}
	values = append(values, "ü", "aü", "\xff", "a\n", "3q2XoU0W1mTQb9_c", "7f0c1c9e-2b7a-4f4e-9a53-0c6f0e0b9f11", "return=minimal")
	quick := 0
	for name, s := range schemas {
		ps := newPlainString(s)
		if ps == nil {
			continue
		}
		for _, v := range values {
			if ps.accepts(v) {
				quick++
				require.NoError(t, s.VisitJSON(v), "%s: the quick way accepted %q", name, v)
			}
		}
	}
	require.Greater(t, quick, 1000)
	for _, name := range []string{"GameID", "IdempotencyKey", "Prefer"} {
		require.NotNil(t, newPlainString(schemas[name]), "%s takes the long way", name)
	}
	for _, name := range []string{"pattern ^[a-z]+$|^x$", "pattern [a-z]+", "pattern ^[a-z]+", "pattern ^a+$",
		"pattern ^[\\u0041-\\u005A]+$", "enum", "format", "pattern ^.+$"} {
		require.Contains(t, schemas, name)
		require.Nil(t, newPlainString(schemas[name]), "%s takes the quick way", name)
	}
}

// BenchmarkMoveParamCheck measures the quick way to a move's parameters as
// the load run's seats send them.
func BenchmarkMoveParamCheck(b *testing.B) {
	doc, err := Spec()
	if err != nil {
		b.Fatal(err)
	}
	pc, ok := newParamCheck(doc, specRoutes(doc)["POST "+movesRoute])
	if !ok {
		b.Fatal("a move's parameters take the long way")
	}
	req := httptest.NewRequest(http.MethodPost, "/v1/games/3q2XoU0W1mTQb9_c/moves", nil)
	req.Header.Set("Idempotency-Key", "Yx3p9Lm2Qr7Tv5Wz8Ab1Cd4Ef6Gh0Ij")
	req.Header.Set("Prefer", "return=minimal")
	c := echo.New().NewContext(req, httptest.NewRecorder())
	c.SetPath(movesRoute)
	c.SetParamNames("id")
	c.SetParamValues("3q2XoU0W1mTQb9_c")
	b.ReportAllocs()
	for b.Loop() {
		if !pc.accepts(c) {
			b.Fatal("refused")
		}
	}
}

// BenchmarkMoveBodyCheck measures the quick way to a move's body as a seat
// of the load run sends it.
func BenchmarkMoveBodyCheck(b *testing.B) {
	doc, err := Spec()
	if err != nil {
		b.Fatal(err)
	}
	check, ok := newBodyCheck(doc, specRoutes(doc)["POST "+movesRoute].Operation)
	if !ok {
		b.Fatal("a move's body takes the long way")
	}
	move := []byte(`{"type":"cross","seat":2,"card":"orange-05","boxes":[[1,1],[1,2],[2,2]]}`)
	b.ReportAllocs()
	for b.Loop() {
		if !check.accepts("application/json", move) {
			b.Fatal("refused")
		}
	}
}
