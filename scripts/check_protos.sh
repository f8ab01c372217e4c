#!/usr/bin/env bash
# Regenerates the stubs in a temp dir and diffs them with the checked-in ones.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
want=$(sed -n 's/^grpcio-tools==//p' constraints.txt)
have=$($PY -c "from importlib.metadata import version; print(version('grpcio-tools'))")
if [ -n "$want" ] && [ "$want" != "$have" ]; then
  echo "grpcio-tools $have is installed but the stubs are pinned to $want (constraints.txt); install with -c constraints.txt" >&2
  exit 1
fi
$PY -m grpc_tools.protoc -I protos --python_out="$tmp" --pyi_out="$tmp" --grpc_python_out="$tmp" protos/chsr/v1/*.proto
status=0
for f in "$tmp"/chsr/v1/*.py "$tmp"/chsr/v1/*.pyi; do
  name=$(basename "$f")
  if ! diff -q "$f" "chsr/v1/$name" >/dev/null 2>&1; then
    echo "stale generated stub: chsr/v1/$name (run: make protos)" >&2
    status=1
  fi
done
for f in chsr/v1/*_pb2*.py chsr/v1/*_pb2*.pyi; do
  if [ ! -e "$tmp/chsr/v1/$(basename "$f")" ]; then
    echo "stale generated stub: $f has no .proto any more (remove it)" >&2
    status=1
  fi
done
exit $status
