#!/usr/bin/env bash
# Installed size of each server's image contents, measured without a Docker engine: the server's
# extra (exactly what the Dockerfile installs for --build-arg SERVICE=<name>) is installed into a
# fresh venv from the pip cache, and the venv is measured. The python:3.11-slim base layer
# (~125 MB) comes on top of every image.
#   bash scripts/measure_image_sizes.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-benchmarks/image-sizes}
PY=${PY:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$OUT"
rows=""
for service in gateway gate sparse fusion dense rerank; do
  case "$service" in dense|rerank) extras="$service,onnx" ;; *) extras="$service" ;; esac
  "$PY" -m venv "$work/$service"
  "$work/$service/bin/pip" install -q --disable-pip-version-check -c constraints.txt ".[${extras}]"
  mb=$(du -sm "$work/$service" | cut -f1)
  torch=$("$work/$service/bin/python" -c "import importlib.util as u; print('yes' if u.find_spec('torch') else 'no')")
  pkgs=$("$work/$service/bin/pip" list --format=freeze 2>/dev/null | wc -l)
  rows+="| \`$service\` | \`.[${extras}]\` | $mb | $pkgs | $torch |"$'\n'
  rm -rf "$work/$service"
done
{
  echo "# Installed size per server image (venv contents, MB)"
  echo
  echo "Measured $(date -u +%Y-%m-%d) on $(uname -m), Python $("$PY" -c 'import platform; print(platform.python_version())'),"
  echo "by \`bash scripts/measure_image_sizes.sh\`: each server's extra installed with \`-c constraints.txt\` into a"
  echo "fresh venv (what the Dockerfile installs for that server), then \`du -sm\`. Add ~125 MB for the"
  echo "python:3.11-slim base layer. torch from PyPI brings its CUDA libraries; a CPU-only torch index"
  echo "(\`--build-arg PIP_EXTRA_INDEX_URL=...\`) would shrink the dense and rerank images, not reachable here."
  echo
  echo "| image | extras | installed MB | packages | torch |"
  echo "|---|---|---:|---:|---|"
  printf '%s' "$rows"
} > "$OUT/README.md"
cat "$OUT/README.md"
