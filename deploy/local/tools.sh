#!/usr/bin/env bash
# Ops tool binaries for tests/ops, built from the Go module proxy and cached
# under ${CHSR_LOCAL_DIR:-$HOME/.cache/chsr-local}/bin/<tool>/<version>/.
#
#   deploy/local/tools.sh install [kustomize]   build (once) and print the binary path
#   deploy/local/tools.sh path kustomize        print the cached binary path (exit 1 if absent)
#
# kustomize: the kustomize CLI module at a pinned release. v5.8.2 is the newest release whose
# go.mod accepts Go 1.26 (v5.8.3 declares go 1.27.0 and would need GOTOOLCHAIN).
# The Kubernetes schema validator is the PyPI package kubernetes-validate (schemas bundled,
# offline), installed into .venv with the Python dependencies, so no validator binary is needed.
set -euo pipefail
# shellcheck source=lib.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

CHSR_KUSTOMIZE_VERSION="${CHSR_KUSTOMIZE_VERSION:-v5.8.2}"
CHSR_ENGINE=tools

kustomize_bin() { printf '%s\n' "$CHSR_BIN_DIR/kustomize/$CHSR_KUSTOMIZE_VERSION/kustomize"; }

install_kustomize() {
  local bin dir
  bin="$(kustomize_bin)"
  dir="$(dirname "$bin")"
  if [ -x "$bin" ]; then printf '%s\n' "$bin"; return 0; fi
  chsr_lock kustomize
  if [ ! -x "$bin" ]; then
    chsr_go_env
    chsr_log "building kustomize $CHSR_KUSTOMIZE_VERSION (go install, cached in $dir)"
    mkdir -p "$dir"
    GOBIN="$dir" go install "sigs.k8s.io/kustomize/kustomize/v5@$CHSR_KUSTOMIZE_VERSION" >&2
    [ -x "$bin" ] || chsr_die "go install finished but $bin is missing"
  fi
  printf '%s\n' "$bin"
}

cmd="${1:-install}"
tool="${2:-kustomize}"
[ "$tool" = kustomize ] || chsr_die "unknown tool '$tool' (known: kustomize)"
case "$cmd" in
  install) install_kustomize ;;
  path) bin="$(kustomize_bin)"; [ -x "$bin" ] || exit 1; printf '%s\n' "$bin" ;;
  *) chsr_die "usage: $0 {install|path} kustomize" ;;
esac
