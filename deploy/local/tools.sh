#!/usr/bin/env bash
# Go tool binaries for the tests (tests/ops, tests/clients, scripts/check_api.sh), built from
# the Go module proxy and cached under ${CHSR_LOCAL_DIR:-$HOME/.cache/chsr-local}/bin/<tool>/<version>/.
#
#   deploy/local/tools.sh install [TOOL...]   build (once) and print each binary's path (no TOOL: all)
#   deploy/local/tools.sh path TOOL           print the cached binary path (exit 1 if absent)
#   deploy/local/tools.sh bindir              print a PATH fragment holding every cached tool
#   deploy/local/tools.sh list                print "tool version package" for every tool
#
# A cached binary is never rebuilt, so a repeat run costs milliseconds; a pin change builds
# into a new <version>/ folder. Versions are pinned (override with CHSR_<TOOL>_VERSION):
#
# kustomize: the kustomize CLI module at a pinned release. v5.8.2 is the newest release whose
# go.mod accepts Go 1.26 (v5.8.3 declares go 1.27.0 and would need GOTOOLCHAIN).
# The Kubernetes schema validator is the PyPI package kubernetes-validate (schemas bundled,
# offline), installed into .venv with the Python dependencies, so no validator binary is needed.
#
# kube-score v1.20.0 (github.com/zegl/kube-score, go 1.23.0): the only release the Go proxy lists;
# tests/ops/test_kube_score.py scores every rendered overlay with it (no CRITICAL allowed).
#
# promtool: the Go module's (github.com/prometheus/prometheus, CHSR_PROM_MODULE_VERSION in versions.env,
# v0.316.0 = Prometheus 3.16.0; built with only the Kubernetes, file and http service discoveries: tool_tags).
# Debian's prometheus package, which deploy/local/prometheus.sh runs, is built without Kubernetes service
# discovery, so its promtool rejects kubernetes_sd_configs in deploy/prometheus/prometheus-k8s.yml; tests/ops
# check the configs and rules with this one (their promtool fixture asks this script for it, waiting while a
# background build holds its lock).
#
# The rest serve the client-compatibility suite (tests/clients) and the API check (issue 10);
# each is the newest release the Go proxy serves whose go.mod (and its dependencies') accepts
# the installed Go 1.26 without GOTOOLCHAIN:
set -euo pipefail
CHSR_KUSTOMIZE_VERSION="${CHSR_KUSTOMIZE_VERSION:-v5.8.2}"
CHSR_KUBE_SCORE_VERSION="${CHSR_KUBE_SCORE_VERSION:-v1.20.0}"
# grpcurl v1.9.4: newest release (go 1.25.0); grpcurl calls the mesh through server reflection.
CHSR_GRPCURL_VERSION="${CHSR_GRPCURL_VERSION:-v1.9.4}"
# buf v1.75.0: newest release. Installed from Buf's own release binary on the npm registry
# (@bufbuild/buf-linux-<arch>, ~1 s; CHSR_BUF_FROM_NPM=0 to skip), else built from its Go module
# (2-4 min; its go.mod says go 1.26.7, so it needs Go >= 1.26.7, 1.26.8 here).
CHSR_BUF_VERSION="${CHSR_BUF_VERSION:-v1.75.0}"
# grpc-health-probe v0.4.63: newest release; go.mod says go 1.26.0 (its `toolchain go1.27.4`
# line is only a preference: with GOTOOLCHAIN=local the installed 1.26 builds it).
CHSR_GRPC_HEALTH_PROBE_VERSION="${CHSR_GRPC_HEALTH_PROBE_VERSION:-v0.4.63}"
# protoc-gen-go v1.36.12 (google.golang.org/protobuf, go 1.23): the same version the Go test
# module (tests/clients/go/go.mod) links, so generated code and runtime match.
CHSR_PROTOC_GEN_GO_VERSION="${CHSR_PROTOC_GEN_GO_VERSION:-v1.36.12}"
# protoc-gen-go-grpc v1.6.2: newest release of its own module (go 1.25.0); its generated code
# needs google.golang.org/grpc >= 1.64 (the test module pins v1.85.0).
CHSR_PROTOC_GEN_GO_GRPC_VERSION="${CHSR_PROTOC_GEN_GO_GRPC_VERSION:-v1.6.2}"
# shellcheck source=lib.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"
CHSR_ENGINE=tools

TOOLS=(kustomize kube-score promtool grpcurl buf grpc-health-probe protoc-gen-go protoc-gen-go-grpc)

# tool_package TOOL: the package `go install` builds (pkg@version).
tool_package() {
  case "$1" in
    kustomize) echo "sigs.k8s.io/kustomize/kustomize/v5" ;;
    kube-score) echo "github.com/zegl/kube-score/cmd/kube-score" ;;
    promtool) echo "github.com/prometheus/prometheus/cmd/promtool" ;;
    grpcurl) echo "github.com/fullstorydev/grpcurl/cmd/grpcurl" ;;
    buf) echo "github.com/bufbuild/buf/cmd/buf" ;;
    grpc-health-probe) echo "github.com/grpc-ecosystem/grpc-health-probe" ;;
    protoc-gen-go) echo "google.golang.org/protobuf/cmd/protoc-gen-go" ;;
    protoc-gen-go-grpc) echo "google.golang.org/grpc/cmd/protoc-gen-go-grpc" ;;
    *) chsr_die "unknown tool '$1' (known: ${TOOLS[*]})" ;;
  esac
}

tool_version() {
  case "$1" in
    kustomize) echo "$CHSR_KUSTOMIZE_VERSION" ;;
    kube-score) echo "$CHSR_KUBE_SCORE_VERSION" ;;
    promtool) echo "${CHSR_PROMTOOL_VERSION:-$CHSR_PROM_MODULE_VERSION}" ;;
    grpcurl) echo "$CHSR_GRPCURL_VERSION" ;;
    buf) echo "$CHSR_BUF_VERSION" ;;
    grpc-health-probe) echo "$CHSR_GRPC_HEALTH_PROBE_VERSION" ;;
    protoc-gen-go) echo "$CHSR_PROTOC_GEN_GO_VERSION" ;;
    protoc-gen-go-grpc) echo "$CHSR_PROTOC_GEN_GO_GRPC_VERSION" ;;
    *) chsr_die "unknown tool '$1' (known: ${TOOLS[*]})" ;;
  esac
}

# tool_tags TOOL: Go build tags. promtool: Prometheus's own switches (plugins/plugin_*.go) drop every service
# discovery but the minimum (file, http) and Kubernetes, the only one deploy/prometheus uses: the AWS, Azure,
# GCE, ... SDKs are not compiled (cold build alone 103 s instead of 240 s on 2 cores).
tool_tags() {
  case "$1" in
    promtool) echo "${CHSR_PROMTOOL_TAGS-remove_all_sd,enable_kubernetes_sd}" ;;
    *) echo "" ;;
  esac
}

tool_bin() { printf '%s\n' "$CHSR_BIN_DIR/$1/$(tool_version "$1")/$1"; }

# buf's own release binary, as Buf publishes it on the npm registry (@bufbuild/buf-linux-<arch>, the same
# version as the Go module pin; npm checks the tarball's sha512): seconds instead of a 2-4 min Go build.
install_buf_from_npm() {
  local version="${1#v}" dir="$2" arch tmp start=$SECONDS
  command -v npm >/dev/null || return 1
  case "$(uname -m)" in x86_64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) return 1 ;; esac
  tmp="$(mktemp -d)"
  if (cd "$tmp" && npm pack --silent "@bufbuild/buf-linux-$arch@$version" >/dev/null 2>&1 &&
      tar xzf "bufbuild-buf-linux-$arch-$version.tgz" package/bin/buf) &&
      [ "$("$tmp/package/bin/buf" --version 2>/dev/null)" = "$version" ]; then
    mkdir -p "$dir" && install -m 0755 "$tmp/package/bin/buf" "$dir/buf"
    chsr_log "installed buf $version from the npm registry in $((SECONDS - start))s"
  fi
  rm -rf "$tmp"
  [ -x "$dir/buf" ]
}

install_tool() {
  local tool="$1" bin dir pkg version start tags
  bin="$(tool_bin "$tool")"
  if [ -x "$bin" ]; then printf '%s\n' "$bin"; return 0; fi
  dir="$(dirname "$bin")"
  pkg="$(tool_package "$tool")"
  version="$(tool_version "$tool")"
  chsr_lock "$tool"
  if [ ! -x "$bin" ] && [ "$tool" = buf ] && [ "${CHSR_BUF_FROM_NPM:-1}" = 1 ]; then
    install_buf_from_npm "$version" "$dir" || chsr_log "buf from npm failed; building it from its Go module"
  fi
  if [ ! -x "$bin" ]; then
    chsr_go_env
    chsr_log "building $tool $version (go install $pkg, cached in $dir)"
    start=$SECONDS
    mkdir -p "$dir"
    # The binary is named after the package's last element. GOTOOLCHAIN=local (unless set): the pins
    # build with the installed Go, and a pin that needs a newer one fails here instead of downloading it.
    tags="$(tool_tags "$tool")"
    GOTOOLCHAIN="${GOTOOLCHAIN:-local}" GOBIN="$dir" go install ${tags:+-tags "$tags"} "$pkg@$version" >&2
    [ -x "$bin" ] || chsr_die "go install finished but $bin is missing"
    chsr_log "built $tool $version in $((SECONDS - start))s"
  fi
  exec {CHSR_LOCK_FD}>&-
  printf '%s\n' "$bin"
}

usage() { chsr_die "usage: $0 {install [TOOL...]|path TOOL|bindir|list} (tools: ${TOOLS[*]})"; }

cmd="${1:-install}"
[ $# -gt 0 ] && shift
case "$cmd" in
  install)
    [ $# -gt 0 ] || set -- "${TOOLS[@]}"
    for tool in "$@"; do install_tool "$tool"; done
    ;;
  path)
    [ $# -eq 1 ] || usage
    bin="$(tool_bin "$1")"
    [ -x "$bin" ] || exit 1
    printf '%s\n' "$bin"
    ;;
  bindir)
    dirs=()
    for tool in "${TOOLS[@]}"; do dirs+=("$(dirname "$(tool_bin "$tool")")"); done
    (IFS=:; printf '%s\n' "${dirs[*]}")
    ;;
  list)
    for tool in "${TOOLS[@]}"; do printf '%s %s %s\n' "$tool" "$(tool_version "$tool")" "$(tool_package "$tool")"; done
    ;;
  *) usage ;;
esac
