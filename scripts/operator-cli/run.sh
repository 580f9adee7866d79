#!/usr/bin/env bash
# Runs the operator's CLI (built by build.sh) through its list, get and delete commands on all
# five collections of a sandbox, with every list filter it offers. Point the binary at the
# recording proxy (record.ts) to capture the requests it sends; each command's own output goes
# to stderr. A list command that gets 200 still fails to parse the interface's bare array: that
# is the interface's choice (spec/DECISIONS.md, "Where the operator's tools differ").
# Usage: scripts/operator-cli/run.sh <tff binary> <sandbox base URL ending in /api> <token that writes>
set -uo pipefail
tff=${1:?tff binary}
api=${2:?sandbox base URL ending in /api}
export FF_ACCESS_TOKEN=${3:?a token with the write grant}

first_id() { # the id of the first item of a collection, read with the interface's own parameters
  curl -sf -H "Authorization: Bearer $FF_ACCESS_TOKEN" "$api/$1?size=1" | node -e \
    'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const a=JSON.parse(s);console.log(a[0]?.id??"")})'
}
run() { echo "\$ tff $*" >&2; "$tff" "$@" >&2 </dev/null; }

filters=(--search=museum --markers='!old,new' --keywords=jazz,kunst --types=2.3.1 --categories=c-1
  --wf-status=approved --published=true --deleted --owner=editor@amsterdam.example
  --userorganisation=amsterdam-marketing --trcid=trc-x --externalid=feed-1 --lang=en
  --updated-since=2026-01-01 --sort=created --asc --size=50 --page=1)
for collection in events locations routes venues eventgroups; do
  run "$collection" list
  run "$collection" list "${filters[@]}"
  for sort in modified created title wfstatus; do run "$collection" list --sort=$sort; done
done
run events list --date-from=2026-01-01 --date-to=2026-12-31 --location-id=x --city=Amsterdam \
  --geo=52.37,4.89 --geo-distance=5km
for collection in events locations routes venues eventgroups; do
  id=$(first_id "$collection")
  run "$collection" get "$id"
  run "$collection" get "$id" --json
  run "$collection" delete "$id" --force
done
