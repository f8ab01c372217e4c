#!/usr/bin/env bash
# The proto contract (docs/API.md): `buf lint` (STANDARD + COMMENTS, buf.yaml) and
# `buf breaking` (FILE) against the committed baseline of the v1 API, so a wire- or
# source-incompatible change to protos/ fails the README's test command and CI.
#
#   scripts/check_api.sh                    lint + breaking (buf built once by deploy/local/tools.sh)
#   scripts/check_api.sh --update-baseline  the same, then rewrite protos/baseline/v1.binpb from protos/
#
# The baseline only moves forward by compatible steps: --update-baseline refuses unless the
# current protos pass `buf breaking` against the old baseline. A change that cannot pass goes
# to a new package (chsr.v2), never into an edited baseline.
set -euo pipefail
cd "$(dirname "$0")/.."

BASELINE=protos/baseline/v1.binpb
update=0
case "${1:-}" in
  "") ;;
  --update-baseline) update=1 ;;
  *) echo "usage: $0 [--update-baseline]" >&2; exit 2 ;;
esac

BUF="${CHSR_BUF_BIN:-$(deploy/local/tools.sh install buf)}"

echo "buf lint (buf.yaml: STANDARD + COMMENTS)"
"$BUF" lint

[ -f "$BASELINE" ] || { echo "missing $BASELINE (the v1 baseline; see docs/API.md)" >&2; exit 1; }
echo "buf breaking --against $BASELINE (FILE)"
"$BUF" breaking --against "$BASELINE"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$BUF" build --exclude-source-info -o "$tmp/current.binpb"
if [ "$update" = 1 ]; then
  cp "$tmp/current.binpb" "$BASELINE"
  echo "updated $BASELINE (commit it with the change it records)"
elif ! cmp -s "$tmp/current.binpb" "$BASELINE"; then
  # Compatible additions since the baseline: fine, but not yet protected against later edits.
  echo "note: protos/ has compatible additions the baseline does not record yet;" \
       "run scripts/check_api.sh --update-baseline when they are released" >&2
fi
echo "API check passed"
