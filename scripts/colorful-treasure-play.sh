#!/usr/bin/env bash
# scripts/colorful-treasure-play.sh MODE PLAYERS OPTIONS: create a Colorful Treasure game on the server at $B
# (default localhost:8080) and play it to the end with curl and jq, every move the host's pick from the
# legal moves of the seat on turn; print the ranking and, for a digital game, verify its record.
set -eu
B=${B:-localhost:8080}
PLAYERS=$(jq -nc --argjson n $2 '[{name:"Ann"},{name:"Ben"},{name:"Cat"},{name:"Dan"}][:$n]')
curl -s -X POST $B/v1/games -H 'Content-Type: application/json' \
  -d "{\"ruleset\":\"colorful-treasure\",\"mode\":\"$1\",\"players\":$PLAYERS,\"options\":$3}" > ct.json
GAME=$(jq -r .game.id ct.json); HOST=$(jq -r .credentials.host ct.json)
while [ "$(curl -s $B/v1/games/$GAME | jq .ended)" = false ]; do
  SEAT=$(curl -s $B/v1/games/$GAME | jq .state.turn)
  MOVE=$(curl -s "$B/v1/games/$GAME/legal-moves?seat=$SEAT" -H "Authorization: Bearer $HOST" | jq -c '
    {seat} + if .phase == "reveal" then   # cards of different columns where it can; a physical table reports what each may show
      ([.flip.cells | group_by(.column)[][0]] as $spread | (if ($spread | length) >= .flip.count then $spread else .flip.cells end)[:.flip.count]) as $pick
      | {type:"flip", cards:($pick | map({column,row}))}
      + (if $pick[0].shows then {shows:[$pick | to_entries[] | .value.shows[.key] // .value.shows[0]]} else {} end)
    elif (.collect | length) > 0 then {type:"collect", take:.collect[-1]}
    elif (.rob | length) > 0 then {type:"rob"} + .rob[0]
    elif (.claim | length) > 0 then {type:"ct_claim", token:.claim[0]}
    else {type:"ct_end"} end')
  curl -s -X POST $B/v1/games/$GAME/moves -H "Authorization: Bearer $HOST" -H 'Content-Type: application/json' -d "$MOVE" | jq -e .seq > /dev/null || { echo "refused: $MOVE"; break; }
done
curl -s $B/v1/games/$GAME/score | jq -c '[.ranking[] | {rank, name, total}]'
if [ "$1" = digital ]; then
  curl -s $B/v1/games/$GAME/record > ct-record.json
  curl -s -X POST $B/v1/records/verify -H 'Content-Type: application/json' -d @ct-record.json | jq -c '{valid, moves_replayed}'
fi
