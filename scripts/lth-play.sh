#!/usr/bin/env bash
# lth-play.sh: plays the Lucky Treasure Hunter game in game.json (the answer to POST /v1/games) to the
# end over HTTP with curl and jq; every seat stops a steal after a failed roll. TREASURY_URL: the server.
B=${TREASURY_URL:-localhost:8080}
GAME=$(jq -r .game.id game.json); HOST=$(jq -r .credentials.host game.json)
while [ "$(curl -s $B/v1/games/$GAME | jq .ended)" = false ]; do
  TABLE=$(curl -s $B/v1/games/$GAME/legal-moves -H "Authorization: Bearer $HOST" | jq -c '.moves[0] // empty')
  if [ -n "$TABLE" ]; then   # a physical table reports what it turned up or rolled
    CRED=$HOST
    case $(echo "$TABLE" | jq -r .type) in
      lth_middle) MOVE='{"type":"lth_middle","cards":["ruby","gold","ruby"]}' ;;
      roll) FACES=$(for _ in $(seq "$(echo "$TABLE" | jq .dice)"); do
              [ $((RANDOM % 2)) = 0 ] && echo pirate || echo blank; done | jq -R . | jq -sc .)
            MOVE="{\"type\":\"roll\",\"faces\":$FACES}" ;;
    esac
  else                       # the seat on turn plays with its own credential
    SEAT=$(curl -s $B/v1/games/$GAME | jq .state.turn)
    CRED=$(jq -r ".credentials.seats[$SEAT]" game.json)
    MOVE=$(curl -s $B/v1/games/$GAME/legal-moves -H "Authorization: Bearer $CRED" | jq -c '
      .moves | (map(select(.type == "stop"))[0] // max_by(.chance // .chance_without_cards // 0)) |
      {type, seat} + if .type == "place" then {treasure, count}
        elif .type == "steal" then {set} + (if .owner then {owner} else {} end)
        elif .type == "reroll" then {dice} else {} end')
  fi
  curl -s -X POST $B/v1/games/$GAME/moves -H "Authorization: Bearer $CRED" \
    -H 'Content-Type: application/json' -d "$MOVE" | jq -r 'select(.code) | .detail'
done
