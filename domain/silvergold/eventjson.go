package silvergold

import (
	"encoding/json"
	"strconv"

	"github.com/treasury-games/treasury/domain"
)

// Every accepted move ends its events with a status event, and a crossing
// (most of a game's moves) tells a crossed one: encoding/json took 2.7% of
// the server's CPU in a load run encoding them (issue 27). They are written
// directly, and so are the small events of a turn's end (0.8% more through
// json.Marshal); TestAwaitingPlain holds every event of bot games in both
// modes to json.Marshal.

// appendEvent appends the data of e encoded exactly as json.Marshal(e.data)
// encodes it.
func appendEvent(b []byte, e event) []byte {
	switch d := e.data.(type) {
	case *statusEvent:
		return d.appendJSON(b)
	case crossEvent:
		return d.appendJSON(b)
	case seatEvent:
		return append(appendInt(append(b, `{"seat":`...), d.Seat), '}')
	case cardEvent:
		b = appendInt(append(b, `{"seat":`...), d.Seat)
		b = appendString(append(b, `,"card":`...), d.Card)
		return append(appendNonEmpty(b, `,"from":`, d.From), '}')
	case cardsEvent:
		b = appendInt(append(b, `{"seat":`...), d.Seat)
		return append(appendStrings(append(b, `,"cards":`...), d.Cards), '}')
	case displayEvent:
		return append(appendString(append(b, `{"card":`...), d.Card), '}')
	case cupEvent:
		b = appendInt(append(b, `{"seat":`...), d.Seat)
		return append(appendInt(append(b, `,"value":`...), d.Value), '}')
	case countEvent:
		b = appendInt(append(b, `{"seat":`...), d.Seat)
		return append(appendInt(append(b, `,"count":`...), d.Count), '}')
	case turnEvent:
		b = appendInt(append(b, `{"round":`...), d.Round)
		b = appendInt(append(b, `,"turn":`...), d.Turn)
		b = appendInt(append(b, `,"start_player":`...), d.StartPlayer)
		if d.Expedition != nil {
			b = appendExpedition(append(b, `,"expedition":`...), d.Expedition)
		}
		return append(b, '}')
	}
	out, _ := json.Marshal(e.data) // the final score: plain structs of plain values
	return append(b, out...)
}

func (st *statusEvent) appendJSON(b []byte) []byte {
	b = append(b, `{"phase":`...)
	b = appendString(b, string(st.Phase))
	b = append(b, `,"round":`...)
	b = appendInt(b, st.Round)
	b = append(b, `,"turn":`...)
	b = appendInt(b, st.Turn)
	b = append(b, `,"start_player":`...)
	b = appendInt(b, st.StartPlayer)
	b = append(b, `,"expedition":`...)
	b = appendExpedition(b, st.Expedition)
	b = append(b, `,"revealed_this_round":`...)
	b = appendStrings(b, st.Revealed)
	b = append(b, `,"deck_size":`...)
	b = appendInt(b, st.DeckSize)
	b = append(b, `,"resolving":`...)
	b = appendIntPtr(b, st.Resolving)
	b = append(b, `,"awaiting":`...)
	b = appendList(b, st.Awaiting, appendAwaited)
	b = append(b, `,"on_turn":`...)
	b = appendIntPtr(b, st.OnTurn)
	b = append(b, `,"turn_number":`...)
	b = appendInt(b, st.TurnNumber)
	return append(b, '}')
}

// appendExpedition writes e as json.Marshal does, null when nil.
func appendExpedition(b []byte, e *Expedition) []byte {
	if e == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"code":`...)
	b = appendString(b, e.Code)
	b = append(b, `,"name":`...)
	b = appendString(b, e.Name)
	b = append(b, `,"name_message":`...)
	b = domain.AppendMessage(b, &e.NameMessage)
	b = append(b, `,"boxes":`...)
	b = appendPositions(b, e.Boxes)
	return append(b, '}')
}

func appendIntPtr(b []byte, n *int) []byte {
	if n == nil {
		return append(b, "null"...)
	}
	return appendInt(b, *n)
}

func appendAwaited(b []byte, a Awaited) []byte { return domain.AppendAwait(b, domain.Await(a)) }

func (e *crossEvent) appendJSON(b []byte) []byte {
	b = append(b, `{"seat":`...)
	b = appendInt(b, e.Seat)
	b = append(b, `,"replaced":`...)
	b = strconv.AppendBool(b, e.Replaced)
	b = append(b, `,"boxes":`...)
	b = appendList(b, e.Boxes, appendCrossedBox)
	b = append(b, `,"red_crosses":`...)
	b = appendInt(b, e.RedCrosses)
	b = append(b, `,"coins_gained":`...)
	b = appendInt(b, e.CoinsGained)
	b = append(b, `,"coins":`...)
	b = appendInt(b, e.Coins)
	b = append(b, `,"palms_gained":`...)
	b = appendInts(b, e.PalmsGained)
	b = append(b, `,"palms":`...)
	b = appendInts(b, e.Palms)
	b = append(b, `,"coin_rows_completed":`...)
	b = appendInt(b, e.Rows)
	b = append(b, `,"cards":`...)
	b = appendList(b, e.Cards, appendCardCrossed)
	return append(b, '}')
}

func appendCrossedBox(b []byte, c CrossedBox) []byte {
	b = append(b, `{"card":`...)
	b = appendString(b, c.Card)
	b = append(b, `,"box":`...)
	b = appendPos(b, c.Box)
	b = append(b, `,"symbol":`...)
	b = appendString(b, c.Symbol)
	b = append(b, `,"extra":`...)
	b = strconv.AppendBool(b, c.Extra)
	return append(b, '}')
}

func appendCardCrossed(b []byte, c CardCrossed) []byte {
	b = append(b, `{"card":`...)
	b = appendString(b, c.Card)
	b = append(b, `,"crossed":`...)
	b = appendPositions(b, c.Crossed)
	b = append(b, `,"boxes_left":`...)
	b = appendInt(b, c.Left)
	return append(b, '}')
}
