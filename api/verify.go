package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/treasury-games/treasury/api/models"
	"github.com/treasury-games/treasury/api/oapi"
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// RecordBodyLimit is the largest game record POST /v1/records/verify takes
// when the general body limit is smaller. The record of a whole 4-player
// game, catalog included, is some 30 to 40 KB as the server writes it and
// twice that pretty-printed; a limit meant for moves would refuse it.
const RecordBodyLimit = 256 << 10

// recordsVerifyRoute is the path of the operation that takes whole records.
const recordsVerifyRoute = "/v1/records/verify"

// bodyLimits refuses bodies over limit bytes, or over RecordBodyLimit (when
// that is larger) for records to verify, or over GroupImportBodyLimit for
// groups to import.
func bodyLimits(limit int64) echo.MiddlewareFunc {
	general, records, imports := limitBody(limit), limitBody(max(limit, RecordBodyLimit)), limitBody(max(limit, GroupImportBodyLimit))
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		g, r, i := general(next), records(next), imports(next)
		return func(c echo.Context) error {
			switch c.Path() {
			case recordsVerifyRoute:
				return r(c)
			case groupsImportRoute:
				return i(c)
			}
			return g(c)
		}
	}
}

// rulesetOr is the ruleset a request names, or else the server's default
// one, or else the only ruleset it plays.
func (s *Server) rulesetOr(named *string) string {
	if named != nil {
		return *named
	}
	if names := s.games.Rulesets(); s.defaultRuleset == "" && len(names) == 1 {
		return names[0]
	}
	return s.defaultRuleset
}

// VerifyScoreSheet scores a paper score sheet and lists its mistakes.
func (s *Server) VerifyScoreSheet(_ context.Context, r oapi.VerifyScoreSheetRequestObject) (oapi.VerifyScoreSheetResponseObject, error) {
	sheet, err := r.Body.MarshalJSON() // the bytes of the body, as read
	if err != nil {
		return nil, err
	}
	ruleset, err := r.Body.Discriminator()
	if err != nil {
		return nil, err
	}
	if r.Params.Ruleset != nil && *r.Params.Ruleset != ruleset {
		return nil, domain.Fail(domain.Invalid, "api.sheet.ruleset-mismatch", "sheet", ruleset, "ruleset", *r.Params.Ruleset)
	}
	res, err := s.games.VerifySheet(ruleset, bytes.TrimSpace(sheet))
	if err != nil {
		return nil, err
	}
	return oapi.VerifyScoreSheet200JSONResponse(union[models.SheetResult](res)), nil
}

// GetGameRecord returns the record of a game. Anyone may read it: while the
// game runs it holds what the move log shows the caller, and everything once
// the game has ended.
func (s *Server) GetGameRecord(ctx context.Context, r oapi.GetGameRecordRequestObject) (oapi.GetGameRecordResponseObject, error) {
	a, err := s.actor(ctx, r.Id)
	if err != nil {
		return nil, err
	}
	rec, err := s.games.Record(ctx, r.Id, domain.ViewerOf(a))
	if err != nil {
		return nil, err
	}
	return encoded(rec)
}

// VerifyRecord replays a game record. A record that breaks a rule is a
// successful verification that says so; only a body that cannot be read as
// a record is an error.
func (s *Server) VerifyRecord(_ context.Context, r oapi.VerifyRecordRequestObject) (oapi.VerifyRecordResponseObject, error) {
	rec, err := DecodeRecord(*r.Body)
	if err != nil {
		return nil, err
	}
	return encoded(s.games.VerifyRecord(rec))
}

// DecodeRecord reads a game record: one JSON object with the fields of
// domain.Record and no others. Anything else is an Invalid error.
func DecodeRecord(b []byte) (domain.Record, error) {
	var rec domain.Record
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return domain.Record{}, domain.Fail(domain.Invalid, "api.record.not-record", "why", jsonWhy(err))
	}
	if dec.More() {
		return domain.Record{}, domain.Fail(domain.Invalid, "api.record.not-record", "why", i18n.M("api.json.more-after"))
	}
	if rec.Format == "" {
		return domain.Record{}, domain.Fail(domain.Invalid, "api.record.not-record", "why", i18n.M("api.record.no-format", "format", domain.RecordFormat))
	}
	return rec, nil
}

// jsonBody is a 200 answer whose body the domain encoded. The generated
// answers of object schemas typed json.RawMessage are defined types over
// []byte, which encoding/json would write as base64.
type jsonBody []byte

func encoded(v any) (jsonBody, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil // as the generated JSON answers end
}

func (b jsonBody) write(w http.ResponseWriter) error {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(b)
	return err
}

// VisitGetGameRecordResponse writes the record.
func (b jsonBody) VisitGetGameRecordResponse(w http.ResponseWriter) error { return b.write(w) }

// VisitVerifyRecordResponse writes the verdict.
func (b jsonBody) VisitVerifyRecordResponse(w http.ResponseWriter) error { return b.write(w) }

// jsonWhy says why encoding/json could not decode a document into a Go
// value, in a short phrase of the server's own: the member at fault, when
// the decoder names it.
func jsonWhy(err error) i18n.Message {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te) && te.Field != "":
		return i18n.M("api.json.type", "field", te.Field, "value", te.Value)
	case errors.As(err, &te):
		return i18n.M("api.json.type-top", "value", te.Value)
	case errors.As(err, &se):
		return i18n.M("api.json.syntax", "offset", int(se.Offset))
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return i18n.M("api.json.unknown-field", "name", strings.Trim(name, `"`))
	}
	return i18n.M("api.json.other")
}
