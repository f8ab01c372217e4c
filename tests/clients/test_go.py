"""The Go client (tests/clients/go) under ``go test``, against the running mesh (issue 10).

The Go code is generated here from protos/ by ``buf generate`` (buf.gen.yaml: protoc-gen-go and
protoc-gen-go-grpc, all three pinned and cached by deploy/local/tools.sh) into
tests/clients/go/gen/, which is not committed: a generation takes well under a second, so the Go
stubs can never drift from the protos. ``go test -json`` reports every subtest; each one becomes
a row of the outcome table, and any failure (or skip) fails this test with Go's output.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.clients.conftest import ClientMesh
from tests.clients.report import REPO_ROOT
from tests.clients.tools import TOOLS_SH, go_binary, go_tool

pytestmark = [pytest.mark.clients, pytest.mark.slow]

GO_MODULE = REPO_ROOT / "tests" / "clients" / "go"
#: Cold: the module download and the compile of grpc + protobuf (about a minute on 2 cores); warm: seconds.
GO_TEST_TIMEOUT_S = 900
CLIENT = "go"


def tools_path() -> str:
    """PATH with the pinned buf plugins first (buf.gen.yaml names them as local plugins)."""
    for tool in ("protoc-gen-go", "protoc-gen-go-grpc"):
        go_tool(tool)
    bindir = subprocess.run(["bash", str(TOOLS_SH), "bindir"], capture_output=True, text=True, check=True).stdout.strip()
    return f"{bindir}:{os.environ.get('PATH', '')}"


def generate(buf: Path, path: str) -> None:
    out = subprocess.run([str(buf), "generate"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300,
                         env=os.environ | {"PATH": path})
    assert out.returncode == 0, f"buf generate failed:\n{out.stdout}{out.stderr}"
    generated = sorted(p.name for p in (GO_MODULE / "gen" / "chsr" / "v1").glob("*.go"))
    assert "gateway.pb.go" in generated and "gateway_grpc.pb.go" in generated, generated


@pytest.fixture(scope="module")
def go_env() -> dict[str, str]:
    go_binary()
    path = tools_path()
    generate(go_tool("buf"), path)
    return {"PATH": path, "GOTOOLCHAIN": os.environ.get("GOTOOLCHAIN", "local"), "GOFLAGS": "-mod=readonly"}


# (test-name regex, RPC, case) -> the outcome table's row for a Go (sub)test
ROWS: list[tuple[str, str, str]] = [
    (r"TestSearch/(\w+)/(\w+)$", "GatewayService/Search", r"pipeline \1, \2"),
    (r"TestSearchTinyDeadline$", "GatewayService/Search", "1 ms deadline"),
    (r"TestSearchInvalidArgument/(\w+)$", "GatewayService/Search", r"\1 (with and without deadlines)"),
    (r"TestIngestWithProgress$", "GatewayService/IngestWithProgress", "3 batches, token, an ack per batch"),
    (r"TestIngestWithProgress/Delete_with_token$", "GatewayService/Delete", "token"),
    (r"TestWritesWithoutTokenAreUnauthenticated/(\w+)/(\w+)$", r"GatewayService/\1", r"\2"),
    (r"TestDeleteInvalidArgument$", "GatewayService/Delete", "no ids"),
    (r"TestHealth/(Check|Watch)/(\w+)/(.*)$", r"\2: Health/\1", r"\3"),
    (r"TestMessageOverSizeLimit/(\w+)$", r"GatewayService/\1", "message over CHSR_MAX_MESSAGE_BYTES"),
    (r"TestReadsWithAndWithoutDeadline/(\w+)$", r"GatewayService/\1", "no deadline, 10 s, 10 min: same answer"),
    (r"TestTinyDeadline/(\w+)$", r"GatewayService/\1", "1 ms deadline"),
    (r"TestReadmeExample$", "GatewayService/Search", "README example"),
]
#: Go tests log the status each call ended with (mesh_test.go: outcome()).
OUTCOME = re.compile(r"chsr-outcome: (.+)$")


def row(test: str) -> tuple[str, str] | None:
    for pattern, rpc, case in ROWS:
        m = re.match(pattern, test)
        if m:
            return m.expand(rpc), m.expand(case).replace("_", " ")
    return None


def test_go_client_under_go_test(client_mesh: ClientMesh, go_env: dict[str, str]) -> None:
    env = os.environ | go_env | {
        "CHSR_TEST_GATEWAY": client_mesh.gateway, "CHSR_TEST_TOKEN": client_mesh.token,
        "CHSR_TEST_MAX_MESSAGE_BYTES": str(client_mesh.max_message_bytes),
        "CHSR_TEST_SERVERS": ",".join(f"{k}={v}" for k, v in client_mesh.servers.items()),
    }
    proc = subprocess.run(["go", "test", "-count=1", "-json", "./..."], cwd=GO_MODULE, env=env, capture_output=True,
                          text=True, timeout=GO_TEST_TIMEOUT_S)
    results: dict[str, str] = {}
    logged: dict[str, list[str]] = {}
    output: list[str] = []
    for line in proc.stdout.splitlines():
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            output.append(line)
            continue
        if event.get("Output"):
            output.append(event["Output"].rstrip("\n"))
            m = OUTCOME.search(event["Output"].strip())
            if m and event.get("Test"):
                logged.setdefault(event["Test"], []).append(m.group(1))
        if event.get("Test") and event.get("Action") in ("pass", "fail", "skip"):
            results[event["Test"]] = event["Action"]
    leaves = [t for t in results if not any(o.startswith(t + "/") for o in results)]
    for test in sorted(leaves):
        mapped = row(test)
        if mapped is None:
            continue
        seen = set(logged.get(test, []))
        # "InvalidArgument (field [k])" says more than the "InvalidArgument" logged with it
        codes = sorted(c for c in seen if not any(o != c and o.startswith(c) for o in seen)) or ["OK"]
        outcome = "; ".join(codes) if results[test] == "pass" else f"FAILED ({'; '.join(codes)})"
        client_mesh.record(CLIENT, mapped[0], mapped[1], outcome, results[test] == "pass")
    text = "\n".join(output)
    assert proc.returncode == 0, f"go test failed (exit {proc.returncode}):\n{text[-6000:]}\n{proc.stderr[-3000:]}"
    skipped = [t for t, a in results.items() if a == "skip"]
    assert not skipped, f"go tests skipped: {skipped}\n{text[-3000:]}"
    unmapped = [t for t in leaves if row(t) is None]
    assert not unmapped, f"Go tests without a row in the outcome table (add one to ROWS): {unmapped}"
    assert len(leaves) >= 40, f"only {len(leaves)} Go tests ran:\n{text[-3000:]}"
