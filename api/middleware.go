package api

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"mime"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// limitBody refuses bodies over limit bytes, whether or not they announce
// their length.
func limitBody(limit int64) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			if req.ContentLength > limit {
				return domain.Fail(PayloadTooLarge, "api.body-too-large", "limit", int(limit))
			}
			if req.Body != nil && req.Body != http.NoBody {
				req.Body = http.MaxBytesReader(c.Response().Writer, req.Body, limit)
			}
			return next(c)
		}
	}
}

// readBody reads the whole request body (within the body limit set before
// it) so that what follows can look at it more than once, and refuses a JSON
// body whose shape is beyond limits before anything parses it: the schema
// validator's cost grows much faster than the body with its nesting.
func readBody(limits JSONLimits) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			if req.Body == nil || req.Body == http.NoBody {
				return next(c)
			}
			data, err := readAll(req.Body, req.ContentLength)
			normaliseContentType(req)
			if err != nil {
				if tooLarge := (*http.MaxBytesError)(nil); errors.As(err, &tooLarge) {
					return err
				}
				return readError(err)
			}
			_ = req.Body.Close()
			req.Body = io.NopCloser(bytes.NewReader(data))
			req.ContentLength = int64(len(data))
			sc := scopeOf(c)
			sc.body, sc.bodyRead = data, true
			if isJSON(req.Header.Get(echo.HeaderContentType)) {
				// encoding/json would silently turn bad bytes into U+FFFD.
				if !utf8.Valid(data) {
					return domain.Fail(MalformedJSON, "api.body.not-utf8")
				}
				l := limits
				if c.Path() == groupsImportRoute {
					l = groupImportJSONLimits
				}
				if reason := checkJSONShape(data, l); !reason.Zero() {
					return domain.Fail(BodyTooComplex, reason.Key, kv(reason)...)
				}
				if reason := checkDuplicateNames(data); !reason.Zero() {
					return domain.Fail(MalformedJSON, reason.Key, kv(reason)...)
				}
			}
			return next(c)
		}
	}
}

// readAll reads r to its end. A body of known length is read into a slice
// of its length (bytes.Buffer.ReadFrom would grow a buffer of that length
// to 512 bytes more before reading).
func readAll(r io.Reader, length int64) ([]byte, error) {
	if length <= 0 {
		var buf bytes.Buffer
		_, err := buf.ReadFrom(r)
		return buf.Bytes(), err
	}
	data := make([]byte, length, length+1) // within the body limit, checked before
	for n := 0; ; {
		if n == len(data) {
			if n > int(length) {
				break // the body goes on past its length
			}
			data = data[:n+1] // where net/http reads EOF
		}
		m, err := r.Read(data[n:])
		n += m
		if err == io.EOF {
			return data[:n], nil
		}
		if err != nil {
			return data[:n], err
		}
	}
	buf := bytes.NewBuffer(data)
	_, err := buf.ReadFrom(r)
	return buf.Bytes(), err
}

// normaliseContentType writes a request's media type in lower case, as
// the router and the validator compare it: media types are
// case-insensitive (RFC 9110 8.3.1), so APPLICATION/JSON is JSON.
func normaliseContentType(req *http.Request) {
	ct := req.Header.Get(echo.HeaderContentType)
	if ct == "" || plainMediaType(ct) {
		return
	}
	if mt, params, err := mime.ParseMediaType(ct); err == nil {
		if canon := mime.FormatMediaType(mt, params); canon != "" && canon != ct {
			req.Header.Set(echo.HeaderContentType, canon)
		}
	}
}

// readError explains a body that could not be read to its end.
func readError(err error) error {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return domain.Fail(RequestTimeout, "api.body.timeout")
	}
	return domain.Fail(domain.Invalid, "api.body.short")
}

// specRoutes maps "METHOD /echo/:path" to the document's operation. Echo has
// already found the route by the time the validator runs, so operations are
// looked up by Echo's route instead of being matched again with regular
// expressions (which cost more than the rest of the validation of a move).
func specRoutes(doc *openapi3.T) map[string]*routers.Route {
	routes := map[string]*routers.Route{}
	for path, item := range doc.Paths.Map() {
		echoPath := openAPIParam.ReplaceAllString(path, ":$1")
		for method, op := range item.Operations() {
			routes[method+" "+echoPath] = &routers.Route{Spec: doc, Path: path, PathItem: item, Method: method, Operation: op}
		}
	}
	return routes
}

// openAPIParam is a path parameter as OpenAPI writes it: {id}.
var openAPIParam = regexp.MustCompile(`\{([^}/]+)\}`)

// bearer puts the credential of an "Authorization: Bearer <credential>"
// header into the request's context. Whether an operation needs one, and
// whose it is, the handlers decide.
func bearer(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Request().Header.Get(echo.HeaderAuthorization)
		if h == "" {
			return next(c)
		}
		scheme, token, ok := strings.Cut(h, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") {
			return domain.Fail(domain.Unauthorized, "api.auth.not-bearer")
		}
		if why := malformedCredential(token); !why.Zero() {
			return domain.Fail(domain.Invalid, "api.auth.malformed", "why", why)
		}
		scopeOf(c).credential = token
		return next(c)
	}
}

// malformedCredential says what is wrong with the credential of a Bearer
// header (what follows "Bearer "), or nothing (a zero message) when it is a
// b64token (RFC 6750: letters, digits, - . _ ~ + /, then any =), as every
// credential is.
func malformedCredential(token string) i18n.Message {
	switch {
	case token == "":
		return i18n.M("api.auth.why.empty")
	case token[0] == ' ' || token[0] == '\t':
		return i18n.M("api.auth.why.spaces")
	}
	body := strings.TrimRight(token, "=")
	if body == "" {
		return i18n.M("api.auth.why.only-equals")
	}
	for _, r := range body {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("-._~+/", r):
		case r == ' ' || r == '\t':
			return i18n.M("api.auth.why.blank")
		default:
			return i18n.M("api.auth.why.char", "char", fmt.Sprintf("%q", r))
		}
	}
	return i18n.Message{}
}

// credential returns the bearer credential of the request, or "".
func credential(ctx context.Context) string {
	if s := scopeIn(ctx); s != nil {
		return s.credential
	}
	return ""
}

// scope is what the middleware learns of a request for what follows it,
// put in the request's context once: each value put there on its own
// copied the request (four times for a move).
type scope struct {
	lang       i18n.Lang // speak's
	id         string    // requestID's
	credential string    // bearer's
	ruleset    string    // the ruleset of a move's game, for the metrics
	body       []byte    // readBody's
	bodyRead   bool      // whether readBody read one
}

type scopeKey struct{}

// scopeOf returns the scope of the request of c, putting one in its
// context first if it has none.
func scopeOf(c echo.Context) *scope {
	req := c.Request()
	if s := scopeIn(req.Context()); s != nil {
		return s
	}
	s := &scope{}
	c.SetRequest(req.WithContext(context.WithValue(req.Context(), scopeKey{}, s)))
	return s
}

// scopeIn returns the scope of the request whose context ctx is, or nil.
func scopeIn(ctx context.Context) *scope {
	s, _ := ctx.Value(scopeKey{}).(*scope)
	return s
}

// requestBody returns the bytes of the body readBody read, and whether it
// read one.
func requestBody(c echo.Context) ([]byte, bool) {
	if s := scopeIn(c.Request().Context()); s != nil {
		return s.body, s.bodyRead
	}
	return nil, false
}

// validator checks every request against the OpenAPI document before the
// handlers see it: path, query and header parameters and the body. Requests
// for paths the document does not have are left to Echo, which answers 404
// or 405. Authentication is the handlers' business, so security requirements
// always pass here.
func validator(doc *openapi3.T) (echo.MiddlewareFunc, error) {
	routes := specRoutes(doc)
	if len(routes) == 0 {
		return nil, fmt.Errorf("api: the OpenAPI document has no operations")
	}
	// Every security requirement passes here (NoopAuthenticationFunc), so
	// the operations the validator reads have none: kin-openapi walked the
	// requirements of every request (1% of the server's CPU in a load run,
	// issue 27). Copies: the document itself is served as it is.
	for _, r := range routes {
		op := *r.Operation
		op.Security = &openapi3.SecurityRequirements{}
		r.Operation = &op
	}
	opts := &openapi3filter.Options{
		AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
		// The body reaches the handlers byte for byte (idempotent retries
		// compare bytes), so the validator must never rewrite it.
		SkipSettingDefaults: true,
	}
	paramOpts := *opts
	paramOpts.ExcludeRequestBody = true
	bodies := make(map[*routers.Route]bodyCheck, len(routes))
	params := make(map[*routers.Route]paramCheck, len(routes))
	for _, r := range routes {
		if b, ok := newBodyCheck(doc, r.Operation); ok {
			bodies[r] = b
			if p, ok := newParamCheck(doc, r); ok {
				params[r] = p
			}
		}
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			route := routes[req.Method+" "+c.Path()]
			if route == nil {
				return next(c)
			}
			data, _ := requestBody(c)
			// The quick way, for a JSON body of an operation that takes
			// one: parameters, then the body decoded once from the bytes
			// read. What it accepts the whole validation accepts; whatever
			// it does not goes the whole way, which names the fault.
			b, quick := bodies[route]
			quick = quick && req.URL.RawQuery == "" && len(data) > 0
			if p, ok := params[route]; quick && ok {
				if b.accepts(req.Header.Get(echo.HeaderContentType), data) && p.accepts(c) {
					return next(c)
				}
				quick = false
			}
			names, values := c.ParamNames(), c.ParamValues()
			params := make(map[string]string, len(names))
			for i, name := range names {
				v, err := url.PathUnescape(values[i])
				if err != nil {
					return domain.Fail(domain.Invalid, "api.path.bad-escape", "name", name)
				}
				params[name] = v
			}
			if quick {
				in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: &paramOpts}
				if b.accepts(req.Header.Get(echo.HeaderContentType), data) && openapi3filter.ValidateRequest(req.Context(), in) == nil {
					return next(c)
				}
			}
			if len(data) > 0 && isJSON(req.Header.Get(echo.HeaderContentType)) && !json.Valid(data) {
				return domain.Fail(MalformedJSON, "api.body.not-one-value")
			}
			// url.Query drops what it cannot decode: say so instead.
			if _, err := url.ParseQuery(req.URL.RawQuery); err != nil {
				var esc url.EscapeError
				if errors.As(err, &esc) {
					return domain.Fail(ValidationFailed, "api.query.bad-escape", "escape", string(esc))
				}
				return domain.Fail(ValidationFailed, "api.query.invalid")
			}
			in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
			if err := openapi3filter.ValidateRequest(req.Context(), in); err != nil {
				return validationError(err)
			}
			return next(c)
		}
	}, nil
}

// paramCheck is the validator's quick way to an operation's parameters
// when each is a string in the path or a header (as a move's are):
// kin-openapi then checks the schema against the value as it is, and spent
// some 20 allocations of a move finding that out (decoders, serialisation
// methods, the validation input).
type paramCheck struct {
	params []quickParam
	opts   []openapi3.SchemaValidationOption
}

// quickParam is one parameter of a paramCheck.
type quickParam struct {
	path     bool   // in the path; otherwise a header
	name     string // the path parameter's name, or the header's canonical key
	required bool
	schema   *openapi3.Schema // nil: any value
	plain    *plainString     // the schema's quick way, if it has one
}

// plainString is a string schema whose only constraints are its lengths
// and a pattern of one character class repeated, ^[…]+$ or ^[…]{m,n}$ (a
// game's id, an Idempotency-Key): an ASCII value then matches it when each
// of its bytes is in the class and its length is in bounds, with no
// regexp run and none of VisitJSON's settings built (three parameters of
// every move, 1.2% of server CPU in a load run, issue 27;
// BenchmarkMoveParamCheck 3.2 us and 9 allocations -> 0.21 us and none).
type plainString struct {
	minLen, maxLen int       // maxLen -1: none
	class          [2]uint64 // the pattern's class, its ASCII bytes
	pattern        bool      // false: no pattern, class unused
}

// newPlainString returns the quick way to s, a schema of type string alone
// of an OpenAPI 3.0 document, or nil if s asks for more than it knows.
func newPlainString(s *openapi3.Schema) *plainString {
	if s.Type == nil || len(s.Type.Slice()) != 1 || s.Type.Slice()[0] != openapi3.TypeString {
		return nil
	}
	rest := *s
	rest.Type, rest.MinLength, rest.MaxLength, rest.Pattern = nil, 0, nil, ""
	if !rest.IsEmpty() || rest.Always != nil || rest.Not != nil ||
		len(rest.AllOf) > 0 || len(rest.AnyOf) > 0 || len(rest.OneOf) > 0 {
		return nil
	}
	ps := &plainString{minLen: int(s.MinLength), maxLen: -1}
	if s.MinLength > 1<<20 {
		return nil
	}
	if s.MaxLength != nil {
		if *s.MaxLength > 1<<20 {
			return nil
		}
		ps.maxLen = int(*s.MaxLength)
	}
	if s.Pattern == "" {
		return ps
	}
	// kin-openapi compiles the pattern with regexp.Compile once it has
	// rewritten \uXXXX; a pattern without one it compiles as it is.
	if strings.Contains(s.Pattern, `\u`) {
		return nil
	}
	re, err := syntax.Parse(s.Pattern, syntax.Perl)
	if err != nil || re.Op != syntax.OpConcat || len(re.Sub) != 3 ||
		re.Sub[0].Op != syntax.OpBeginText || re.Sub[2].Op != syntax.OpEndText {
		return nil
	}
	rep := re.Sub[1]
	repMin, repMax := 1, -1
	switch rep.Op {
	case syntax.OpPlus:
	case syntax.OpRepeat:
		repMin, repMax = rep.Min, rep.Max
	default:
		return nil
	}
	if len(rep.Sub) != 1 || rep.Sub[0].Op != syntax.OpCharClass {
		return nil
	}
	for r := rune(0); r < utf8.RuneSelf; r++ {
		if classHas(rep.Sub[0].Rune, r) {
			ps.class[r/64] |= 1 << (r % 64)
		}
	}
	ps.pattern = true
	ps.minLen = max(ps.minLen, repMin)
	if repMax >= 0 && (ps.maxLen < 0 || repMax < ps.maxLen) {
		ps.maxLen = repMax
	}
	return ps
}

// classHas says whether r is in the ranges of a parsed character class.
func classHas(ranges []rune, r rune) bool {
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i] <= r && r <= ranges[i+1] {
			return true
		}
	}
	return false
}

// accepts says whether v is what the schema accepts. False is no verdict:
// VisitJSON decides (a value beyond ASCII, whose length kin-openapi counts
// in UTF-16 units, always goes there).
func (ps *plainString) accepts(v string) bool {
	if len(v) < ps.minLen || ps.maxLen >= 0 && len(v) > ps.maxLen {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c >= utf8.RuneSelf || ps.pattern && ps.class[c/64]&(1<<(c%64)) == 0 {
			return false
		}
	}
	return true
}

// newParamCheck returns the quick way to the parameters of route, if each
// of them is read as kin-openapi's openapi3filter.ValidateParameter reads
// a plain string: no content, the simple style, a schema of type string and
// nothing else to decode (allOf, anyOf, oneOf, not), or no schema. A query
// parameter is left out only when it is optional (the quick way is for
// requests without a query, which never has one then).
func newParamCheck(doc *openapi3.T, route *routers.Route) (paramCheck, bool) {
	if len(route.PathItem.Parameters) > 0 {
		return paramCheck{}, false
	}
	var pc paramCheck
	if doc.IsOpenAPI31OrLater() { // as ValidateParameter does
		pc.opts = []openapi3.SchemaValidationOption{openapi3.EnableJSONSchema2020()}
	}
	for _, ref := range route.Operation.Parameters {
		p := ref.Value
		if p == nil || p.Content != nil {
			return paramCheck{}, false
		}
		if p.Schema == nil {
			continue // kin-openapi checks nothing
		}
		s := p.Schema.Value
		if s == nil || s.Type == nil || s.Type.Slice()[0] != openapi3.TypeString || len(s.Type.Slice()) != 1 ||
			len(s.AllOf) > 0 || len(s.AnyOf) > 0 || len(s.OneOf) > 0 || s.Not != nil {
			return paramCheck{}, false
		}
		q := quickParam{name: p.Name, required: p.Required, schema: s}
		if len(pc.opts) == 0 {
			q.plain = newPlainString(s)
		}
		switch {
		case p.In == openapi3.ParameterInQuery && !p.Required:
			continue
		case p.Style != "" && p.Style != openapi3.SerializationSimple:
			return paramCheck{}, false
		case p.In == openapi3.ParameterInPath:
			q.path = true
		case p.In == openapi3.ParameterInHeader:
			q.name = http.CanonicalHeaderKey(p.Name)
		default:
			return paramCheck{}, false
		}
		pc.params = append(pc.params, q)
	}
	return pc, true
}

// accepts says whether the parameters of the request of c are what the
// schemas ask for. False is no verdict: the whole validation decides.
func (pc paramCheck) accepts(c echo.Context) bool {
	for _, p := range pc.params {
		var v string
		if p.path {
			raw := c.Param(p.name)
			var err error
			if v, err = url.PathUnescape(raw); err != nil || v == "" {
				return false // absent, as kin-openapi reads it: it says why
			}
		} else {
			vs, ok := c.Request().Header[p.name]
			switch {
			case !ok && !p.required:
				continue
			case !ok || len(vs) == 0:
				return false
			}
			v = vs[0]
		}
		if p.plain != nil && p.plain.accepts(v) {
			continue
		}
		if p.schema != nil && p.schema.VisitJSON(v, pc.opts...) != nil {
			return false
		}
	}
	return true
}

// bodyCheck is what the validator's quick way knows of an operation's
// application/json request body, worked out once at start.
type bodyCheck struct {
	schema *openapi3.Schema
	// members are the schemas of a oneOf told apart by a discriminator,
	// by the discriminator's value: kin-openapi copies the whole value and
	// then checks it against the one member twice (the second time to set
	// defaults, which the validator never does).
	discriminator string
	members       map[string]*openapi3.Schema
	opts          []openapi3.SchemaValidationOption
	// floats: numbers may be decoded as float64 rather than json.Number
	// (two allocations each, and a decoder of three more: a third of a
	// move's validation). OpenAPI 3.0's validator judges a json.Number by
	// its Float64() alone, as json.Unmarshal parses it: type, bounds,
	// formats and enum alike; uniqueItems compares values encoded again,
	// and two numbers that encode alike as float64 were equal texts first,
	// so float64 refuses no fewer. The JSON Schema 2020 validator of 3.1
	// reads json.Number apart.
	floats bool
}

// newBodyCheck returns the quick way to an operation's JSON body, if it has
// one.
func newBodyCheck(doc *openapi3.T, op *openapi3.Operation) (bodyCheck, bool) {
	if op.RequestBody == nil || op.RequestBody.Value == nil {
		return bodyCheck{}, false
	}
	mt := op.RequestBody.Value.Content["application/json"]
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return bodyCheck{}, false
	}
	b := bodyCheck{schema: mt.Schema.Value, opts: []openapi3.SchemaValidationOption{openapi3.VisitAsRequest()}}
	if doc.IsOpenAPI31OrLater() { // as openapi3filter does
		b.opts = append(b.opts, openapi3.EnableJSONSchema2020())
	} else {
		b.floats = true
	}
	s := b.schema
	d := s.Discriminator
	if len(s.OneOf) == 0 || d == nil || len(d.Mapping) == 0 {
		return b, true
	}
	// Only a schema that is its oneOf and nothing else checks a value as
	// its member alone does.
	rest := *s
	rest.OneOf, rest.Discriminator = nil, nil
	if !rest.IsEmpty() || len(rest.AnyOf) > 0 || len(rest.AllOf) > 0 {
		return b, true
	}
	b.discriminator, b.members = d.PropertyName, map[string]*openapi3.Schema{}
	for value, ref := range d.Mapping {
		for _, m := range s.OneOf {
			if m.Ref != "" && m.Ref == ref.Ref && m.Value != nil {
				b.members[value] = m.Value
			}
		}
	}
	return b, true
}

// accepts says whether data, sent as contentType, is one JSON value that
// the body's schema accepts. False is no verdict: the whole validation
// then decides, and says why.
func (b bodyCheck) accepts(contentType string, data []byte) bool {
	if contentType != "application/json" {
		return false
	}
	var value any
	if b.floats {
		// One value, nothing after it (json.Unmarshal says so).
		if json.Unmarshal(data, &value) != nil {
			return false // not one value, or a number beyond float64 (kin-openapi refuses it too)
		}
	} else {
		// Numbers are decoded as json.Number, as kin-openapi decodes a
		// body, so that the schema judges the same value either way (an
		// integer beyond 2^53 is not first rounded to a float64 here).
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&value); err != nil {
			return false
		}
		if len(bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")) > 0 { // one value, nothing after it
			return false
		}
	}
	s := b.schema
	if b.members != nil {
		obj, _ := value.(map[string]any)
		kind, _ := obj[b.discriminator].(string)
		if s = b.members[kind]; s == nil {
			return false
		}
	}
	return s.VisitJSON(value, b.opts...) == nil
}

func isJSON(contentType string) bool {
	mt := contentType
	if !plainMediaType(mt) {
		var err error
		if mt, _, err = mime.ParseMediaType(contentType); err != nil {
			return false
		}
	}
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// plainMediaType reports whether ct is a media type in lower case without
// parameters or spaces (application/json, as clients send it): what
// mime.ParseMediaType returns of it is ct itself, with no parameters, and
// mime.FormatMediaType writes it as it is. Parsing it was 6 allocations of
// every move (the map of parameters, sorting them to format).
func plainMediaType(ct string) bool {
	slash := strings.IndexByte(ct, '/')
	if slash <= 0 || slash == len(ct)-1 {
		return false
	}
	for i := 0; i < len(ct); i++ {
		switch c := ct[i]; {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', i == slash:
		case strings.IndexByte("!#$&^_.+-", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// validationError turns a kin-openapi error into a coded error whose reason
// names the field at fault and says what is wrong with it in a short phrase
// of the server's own (kin-openapi's sentences are English only).
func validationError(err error) error {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return err
	}
	var re *openapi3filter.RequestError
	if !errors.As(err, &re) {
		return domain.Fail(ValidationFailed, "api.invalid.request")
	}
	switch {
	case re.Parameter != nil:
		return domain.Fail(ValidationFailed, "api.invalid.param", "in", re.Parameter.In, "name", re.Parameter.Name, "reason", schemaReason(re))
	case re.RequestBody != nil && strings.HasPrefix(re.Reason, "header Content-Type has unexpected value"):
		return domain.Fail(UnsupportedMediaType, "api.body.not-json-type")
	case re.RequestBody != nil && errors.Is(re.Err, openapi3filter.ErrInvalidRequired):
		return domain.Fail(ValidationFailed, "api.body.required")
	case re.RequestBody != nil:
		var pe *openapi3filter.ParseError
		if errors.As(re.Err, &pe) {
			return domain.Fail(MalformedJSON, "api.body.invalid-json")
		}
		return domain.Fail(ValidationFailed, "api.invalid.body", "reason", schemaReason(re))
	}
	return domain.Fail(ValidationFailed, "api.invalid.other", "reason", schemaReason(re))
}

// schemaReason describes the innermost schema violation of err with the JSON
// pointer of the value at fault.
func schemaReason(re *openapi3filter.RequestError) i18n.Message {
	se := innermost(re.Err)
	if se == nil {
		return i18n.M("api.schema.unreadable")
	}
	reason := schemaRule(se)
	if ptr := se.JSONPointer(); len(ptr) > 0 {
		return i18n.M("api.schema.at", "pointer", "/"+strings.Join(ptr, "/"), "reason", reason)
	}
	return reason
}

// schemaRule says which rule of the schema a value breaks, by the keyword
// of the schema that failed.
func schemaRule(se *openapi3.SchemaError) i18n.Message {
	s := se.Schema
	num := func(p *float64) string {
		if p == nil {
			return "?"
		}
		return strconv.FormatFloat(*p, 'f', -1, 64)
	}
	// kin-openapi names a missing or unknown property only in its reason.
	if name, ok := quoted(se.Reason); ok && strings.HasPrefix(se.Reason, "property ") {
		switch {
		case strings.HasSuffix(se.Reason, " is missing"):
			return i18n.M("api.schema.required", "name", name)
		case strings.HasSuffix(se.Reason, " is unsupported"):
			return i18n.M("api.schema.unsupported", "name", name)
		}
	}
	switch se.SchemaField {
	case "type":
		if s.Type != nil && len(*s.Type) == 1 {
			return i18n.M("api.schema.type", "type", i18n.M(schemaTypes+(*s.Type)[0]))
		}
	case "enum":
		vals := make([]string, 0, len(s.Enum))
		for _, v := range s.Enum {
			b, _ := json.Marshal(v)
			vals = append(vals, string(b))
		}
		return i18n.M("api.schema.enum", "values", strings.Join(vals, ", "))
	case "minimum":
		return i18n.M("api.schema.minimum", "limit", num(s.Min))
	case "maximum":
		return i18n.M("api.schema.maximum", "limit", num(s.Max))
	case "minLength":
		return i18n.M("api.schema.min-length", "count", int(s.MinLength))
	case "maxLength":
		if s.MaxLength != nil {
			return i18n.M("api.schema.max-length", "count", int(*s.MaxLength))
		}
	case "minItems":
		return i18n.M("api.schema.min-items", "count", int(s.MinItems))
	case "maxItems":
		if s.MaxItems != nil {
			return i18n.M("api.schema.max-items", "count", int(*s.MaxItems))
		}
	case "minProperties":
		return i18n.M("api.schema.min-properties", "count", int(s.MinProps))
	case "maxProperties":
		if s.MaxProps != nil {
			return i18n.M("api.schema.max-properties", "count", int(*s.MaxProps))
		}
	case "pattern":
		return i18n.M("api.schema.pattern", "pattern", s.Pattern)
	case "format":
		return i18n.M("api.schema.format", "format", s.Format)
	case "uniqueItems":
		return i18n.M("api.schema.unique-items")
	case "discriminator":
		if d := s.Discriminator; d != nil && len(d.Mapping) > 0 {
			return i18n.M("api.schema.discriminator", "name", d.PropertyName,
				"values", strings.Join(slices.Sorted(maps.Keys(d.Mapping)), ", "))
		}
	case "nullable":
		return i18n.M("api.schema.null")
	}
	return i18n.M("api.schema.other", "keyword", se.SchemaField)
}

// schemaTypes starts the keys of the JSON types a schema may ask for.
const schemaTypes = "api.schema.type."

// quoted returns the first double-quoted string of s (kin-openapi names the
// property at fault so: property "bots" is unsupported).
func quoted(s string) (string, bool) {
	i := strings.IndexByte(s, '"')
	if i < 0 {
		return "", false
	}
	j := strings.IndexByte(s[i+1:], '"')
	if j < 0 {
		return "", false
	}
	return s[i+1 : i+1+j], true
}

// innermost follows a schema error into the one branch that failed: a oneOf
// resolved by its discriminator fails in exactly one member schema.
func innermost(err error) *openapi3.SchemaError {
	var se *openapi3.SchemaError
	if !errors.As(err, &se) {
		return nil
	}
	for se.Origin != nil {
		var me openapi3.MultiError
		if !errors.As(se.Origin, &me) || len(me) != 1 {
			break
		}
		var inner *openapi3.SchemaError
		if !errors.As(me[0], &inner) {
			break
		}
		se = inner
	}
	return se
}

// observe logs one line per request and counts it in the metrics: method,
// route (the pattern, such as /v1/games/:id/moves), path, status, duration
// and request id.
func observe(log *slog.Logger, m *Metrics) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			err := next(c)
			if err != nil {
				c.Error(err) // answer now, so that the status is known
			}
			d := time.Since(start)
			req := c.Request()
			status := c.Response().Status
			route := c.Path()
			if code, _ := c.Get(problemCodeKey).(string); code == string(RouteNotFound) || route == "" {
				route = unmatchedRoute
			}
			m.observe(c, route, status, d)
			log.LogAttrs(req.Context(), slog.LevelInfo, "request",
				slog.String("method", req.Method),
				slog.String("route", route),
				slog.String("path", req.URL.Path),
				slog.Int("status", status),
				slog.Duration("duration", d),
				slog.String("request_id", c.Response().Header().Get(echo.HeaderXRequestID)),
			)
			return nil
		}
	}
}

// requestID gives every request an id: the client's X-Request-ID when it is
// sane (1 to 64 of A-Z a-z 0-9 . _ : -), a fresh random one otherwise. The
// answer carries it in X-Request-ID, every problem in request_id, and every
// log line of the request in request_id.
func requestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		id := req.Header.Get(echo.HeaderXRequestID)
		if !saneRequestID(id) {
			id = newRequestID()
		}
		c.Response().Header().Set(echo.HeaderXRequestID, id)
		scopeOf(c).id = id
		return next(c)
	}
}

func saneRequestID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == ':', r == '-':
		default:
			return false
		}
	}
	return true
}

func newRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails on supported platforms
	// Encoded into an array, the string is its one allocation (as
	// domain.HashSecret's).
	var out [2 * len(b)]byte
	hex.Encode(out[:], b[:])
	return string(out[:])
}

// withRequestID adds the request id in a log call's context to the line, so
// that whatever a handler logs can be found with the request's access line.
type withRequestID struct{ slog.Handler }

func (h withRequestID) Handle(ctx context.Context, r slog.Record) error {
	if s := scopeIn(ctx); s != nil && s.id != "" {
		id := s.id
		already := false
		r.Attrs(func(a slog.Attr) bool {
			already = a.Key == "request_id"
			return !already
		})
		if !already {
			r.AddAttrs(slog.String("request_id", id))
		}
	}
	return h.Handler.Handle(ctx, r)
}

func (h withRequestID) WithAttrs(as []slog.Attr) slog.Handler {
	return withRequestID{h.Handler.WithAttrs(as)}
}

func (h withRequestID) WithGroup(name string) slog.Handler {
	return withRequestID{h.Handler.WithGroup(name)}
}

// cors lets the browser pages of the allowed origins call the API ("*": any
// origin). Credentials travel in the Authorization header, never in cookies,
// so no origin is ever sent Access-Control-Allow-Credentials. Without
// origins there is no CORS at all: browsers then allow only same-origin
// pages.
func cors(origins []string) echo.MiddlewareFunc {
	if len(origins) == 0 {
		return nil
	}
	return middleware.CORSWithConfig(middleware.CORSConfig{
		AllowOrigins: origins,
		AllowMethods: []string{http.MethodGet, http.MethodHead, http.MethodPost},
		AllowHeaders: []string{echo.HeaderAuthorization, echo.HeaderContentType, "If-Match", "If-None-Match",
			"Idempotency-Key", "Last-Event-ID", echo.HeaderXRequestID, "Prefer"},
		ExposeHeaders: []string{"ETag", echo.HeaderLocation, "Idempotency-Replayed", echo.HeaderXRequestID, "Retry-After",
			"RateLimit", "RateLimit-Policy", "Preference-Applied"},
		MaxAge: 600,
	})
}

// privateCache keeps game answers out of every cache: they are made for the
// credential that asked, and a game's ETag names its version, alike for every
// viewer. A browser that kept Ann's answer and then asked with the host's
// credential would revalidate its copy with If-None-Match (Vary only makes it
// ask), get 304 and show the host Ann's hand. A client that keeps answers
// itself still sends If-None-Match and gets 304.
func privateCache(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Cache-Control", "no-store")
		h.Add("Vary", echo.HeaderAuthorization)
		return next(c)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// kv returns the parameters of m as the name, value pairs domain.Fail takes.
func kv(m i18n.Message) []any {
	out := make([]any, 0, 2*len(m.Params))
	for k, v := range m.Params {
		out = append(out, k, v)
	}
	return out
}

// bodySerializer is Echo's JSON serializer, except that a body which decodes
// itself (json.Unmarshaler: a move, whose bytes the rules decode) is handed
// the bytes readBody kept, which the validator has found to be one JSON
// value, instead of being decoded from the request once more.
type bodySerializer struct{ echo.DefaultJSONSerializer }

func (s bodySerializer) Deserialize(c echo.Context, i any) error {
	if u, ok := i.(json.Unmarshaler); ok {
		if data, ok := requestBody(c); ok {
			if err := u.UnmarshalJSON(bytes.TrimSpace(data)); err != nil {
				return echo.NewHTTPError(http.StatusBadRequest, err.Error()).SetInternal(err)
			}
			return nil
		}
	}
	return s.DefaultJSONSerializer.Deserialize(c, i)
}
