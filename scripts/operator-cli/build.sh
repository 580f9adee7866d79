#!/usr/bin/env bash
# Builds the operator's command-line client (TheFeedFactory/tff-cli, Go) from its source with only
# its base URL changed, so that it talks to a sandbox or mock of ours. Needs Debian's Go 1.19 and
# the two dependencies from Debian's packages:
#   apt-get install -y golang-go golang-github-alecthomas-kong-dev golang-github-joho-godotenv-dev
# Usage: scripts/operator-cli/build.sh <tff-cli source: a clone or a git dir> <base URL> <output binary>
#   e.g. scripts/operator-cli/build.sh ~/src/tff-cli http://127.0.0.1:8080/api /tmp/tff
set -euo pipefail
source_dir=${1:?tff-cli source folder (a clone, or a bare git directory)}
base_url=${2:?base URL ending in /api, e.g. http://127.0.0.1:8080/api}
output=${3:?path of the binary to write}
gocode=/usr/share/gocode/src/github.com

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if git -C "$source_dir" rev-parse --is-bare-repository 2>/dev/null | grep -q true; then
  git -C "$source_dir" archive HEAD | tar -x -C "$work"
else
  cp -r "$source_dir"/. "$work"
fi
cd "$work"

# Debian ships Go 1.19 and older releases of kong and godotenv than go.mod asks for.
sed -i -E 's/^go [0-9.]+$/go 1.19/' go.mod
cat >>go.mod <<MOD
replace github.com/alecthomas/kong => $gocode/alecthomas/kong
replace github.com/joho/godotenv => $gocode/joho/godotenv
MOD
rm -f go.sum
# The only change to its code: the base URL constant.
sed -i -E "s#^const baseURL = \".*\"#const baseURL = \"$base_url\"#" internal/api/client.go
grep -q "const baseURL = \"$base_url\"" internal/api/client.go || {
  echo "build.sh: the base URL constant was not found in internal/api/client.go" >&2
  exit 1
}
GOFLAGS=-mod=mod GOPROXY=off GOCACHE="$work/.cache" go build -o "$output" .
echo "built $output (base URL $base_url)"
