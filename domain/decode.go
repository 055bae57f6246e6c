package domain

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
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
		return Errorf(Invalid, "the move has trailing data after its JSON object")
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
			return Errorf(Invalid, "%s must be a whole number written without a decimal point or exponent (such as 0 or 2), not %s", field, te.Value)
		}
		return Errorf(Invalid, "%s has the wrong type: it is a %s, where a move has a %s", field, te.Value, te.Type.Kind())
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return Errorf(Invalid, "the move has a field %s that no %s move has", name, game)
	}
	return Errorf(Invalid, "the move is not valid JSON of a %s move: %v", game, err)
}
