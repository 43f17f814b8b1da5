#!/usr/bin/env bash
# README stays true (issue 36, item 2): its table of functions is generated from
# doc/deck-api.md (scripts/api-table), so the two cannot disagree; a change to deck-api.md
# without regenerating is caught here.
source "$(dirname "$0")/../lib.sh"
out=$("$MB_ROOT/scripts/api-table" --check 2>&1); rc=$?
check "README's 'Functions at a glance' is doc/deck-api.md's table (scripts/api-table --check)" test $rc -eq 0
[ $rc -eq 0 ] || echo "$out" | head -10 | sed 's/^/# /'
# the check must see a difference: a copy of the tree whose deck-api.md says otherwise
mkdir -p "$TMP/t/doc" "$TMP/t/scripts"
cp "$MB_ROOT/README.md" "$TMP/t/" && cp "$MB_ROOT/scripts/api-table" "$TMP/t/scripts/"
sed 's/^| `RT_SPLIT(...)` | not supported |/| `RT_SPLIT(...)` | supported |/' "$MB_ROOT/doc/deck-api.md" >"$TMP/t/doc/deck-api.md"
out=$("$TMP/t/scripts/api-table" --check 2>&1); rc=$?
check "... and a deck-api.md that says RT_SPLIT is supported makes the check fail, naming the row" \
  bash -c '[ '$rc' -eq 1 ] && grep -q "doc/deck-api.md has, README.md does not: | .RT_SPLIT. | supported |" <<<"$0"' "$out"
check "README names no function the deck layer lacks (MESH2TRI was listed)" bash -c '! grep -q "MESH2TRI" "$0/README.md"' "$MB_ROOT"
