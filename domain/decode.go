package domain

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"

	"github.com/treasury-games/treasury/domain/i18n"
)

// DecodeMove decodes a move of game (its title, "Silver & Gold") from b into
// m: one JSON object, no field the move does not have, nothing after it. A
// move that does not decode is an Invalid error in a player's words rather
// than encoding/json's ("cannot unmarshal number 0.0 into Go struct field
// Move.seat of type int"). Every game's DecodeMove is this.
func DecodeMove(b []byte, game string, m any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(m); err != nil {
		return moveDecodeError(game, err)
	}
	if dec.More() {
		return Fail(Invalid, "table.move.trailing")
	}
	return nil
}

func moveDecodeError(game string, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			field = "move"
		}
		switch te.Type.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			return Fail(Invalid, "table.move.not-whole", "field", field, "value", jsonValue(te.Value))
		}
		return Fail(Invalid, "table.move.wrong-type", "field", field, "got", jsonValue(te.Value), "want", jsonKind(te.Type.Kind()))
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return Fail(Invalid, "table.move.unknown-field", "field", name, "game", game)
	}
	return Fail(Invalid, "table.move.not-json", "game", game, "error", err.Error())
}

// jsonValue names what encoding/json found ("string", "number 1.5") as a
// term: the kind of JSON value, with the number as written.
func jsonValue(v string) i18n.Message {
	kind, literal, _ := strings.Cut(v, " ")
	switch kind {
	case "number":
		if literal != "" {
			return i18n.M("table.json.number-value", "value", literal)
		}
		return i18n.M("table.json.number")
	case "string":
		return i18n.M("table.json.string")
	case "bool":
		return i18n.M("table.json.bool")
	case "array":
		return i18n.M("table.json.array")
	case "object":
		return i18n.M("table.json.object")
	}
	return i18n.M("table.json.value", "value", v)
}

// jsonKind names the kind of Go value a move's field holds as a term.
func jsonKind(k reflect.Kind) i18n.Message {
	switch k {
	case reflect.String:
		return i18n.M("table.json.string")
	case reflect.Bool:
		return i18n.M("table.json.bool")
	case reflect.Slice, reflect.Array:
		return i18n.M("table.json.array")
	case reflect.Map, reflect.Struct:
		return i18n.M("table.json.object")
	case reflect.Float32, reflect.Float64:
		return i18n.M("table.json.number")
	}
	return i18n.M("table.json.value", "value", k.String())
}
