"""Run grpcurl (the Go module, pinned in deploy/local/tools.sh) and parse what it printed.

grpcurl prints each response as JSON after "Response contents:" (with ``-v``), the trailers after
"Response trailers received:", and a failed status on stderr as ``ERROR:\\n  Code: X\\n  Message: Y``;
it exits 64 + the status code. A deadline that expires before the connection and reflection are
done is grpcurl's own failure ("context deadline exceeded", exit 1), not a status from the mesh.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

#: grpcurl's status names (Go's codes.Code.String()) by the Python grpc.StatusCode name.
GO_CODE_NAMES = {"OK": "OK", "INVALID_ARGUMENT": "InvalidArgument", "DEADLINE_EXCEEDED": "DeadlineExceeded",
                 "UNAUTHENTICATED": "Unauthenticated", "RESOURCE_EXHAUSTED": "ResourceExhausted",
                 "UNAVAILABLE": "Unavailable", "NOT_FOUND": "NotFound", "UNKNOWN": "Unknown",
                 "INTERNAL": "Internal"}
CALL_TIMEOUT_S = 120


@dataclass
class Reply:
    """What one grpcurl run answered."""

    rc: int
    code: str                       # "OK", a status name such as "InvalidArgument", or "grpcurl-error"
    message: str = ""
    messages: list[dict] = field(default_factory=list)
    trailers: dict[str, str] = field(default_factory=dict)
    stdout: str = ""
    stderr: str = ""

    def describe(self) -> str:
        """The outcome for the report: the code, and the field an INVALID_ARGUMENT named."""
        if self.code == "InvalidArgument":
            return f"InvalidArgument (field {self.trailers.get('chsr-field', '?')})"
        if self.code == "grpcurl-error":
            return f"grpcurl gave up before the call ({self.message[:60]})"
        return self.code


def _json_after(marker: str, text: str) -> list[dict]:
    decoder, out, pos = json.JSONDecoder(), [], 0
    while (i := text.find(marker, pos)) >= 0:
        start = i + len(marker)
        while start < len(text) and text[start].isspace():
            start += 1
        obj, end = decoder.raw_decode(text, start)
        out.append(obj)
        pos = end
    return out


def _trailers(text: str) -> dict[str, str]:
    m = re.search(r"Response trailers received:\n(.*?)(?:\n\n|\nSent |\Z)", text, re.S)
    if not m or m.group(1).strip() == "(empty)":
        return {}
    return dict(line.split(": ", 1) for line in m.group(1).splitlines() if ": " in line)


def parse(proc: subprocess.CompletedProcess) -> Reply:
    err = re.search(r"ERROR:\n\s+Code: (\w+)\n\s+Message: (.*)", proc.stderr)
    if proc.returncode == 0:
        code, message = "OK", ""
    elif err:
        code, message = err.group(1), err.group(2).strip()
    else:
        code, message = "grpcurl-error", proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
    return Reply(rc=proc.returncode, code=code, message=message,
                 messages=_json_after("Response contents:\n", proc.stdout), trailers=_trailers(proc.stdout),
                 stdout=proc.stdout, stderr=proc.stderr)


class Grpcurl:
    """``grpcurl -plaintext -v [flags] ADDR [METHOD]`` with the request on stdin."""

    def __init__(self, binary: Path) -> None:
        self.binary = binary

    def run(self, addr: str, *args: str, data: str | None = None, max_time: float | None = None,
            headers: tuple[str, ...] = (), verbose: bool = True, flags: tuple[str, ...] = ()) -> Reply:
        cmd = [str(self.binary), "-plaintext", *flags]
        if verbose:
            cmd.append("-v")
        if max_time is not None:
            cmd += ["-max-time", f"{max_time:g}"]
        for header in headers:
            cmd += ["-rpc-header", header]
        if data is not None:
            cmd += ["-d", "@"]
        cmd += [addr, *args]
        proc = subprocess.run(cmd, input=data, capture_output=True, text=True, timeout=CALL_TIMEOUT_S)
        return parse(proc)

    def call(self, addr: str, method: str, request: dict | str | None = None, **kwargs: object) -> Reply:
        data = request if isinstance(request, str) or request is None else json.dumps(request)
        return self.run(addr, method, data=data if data is not None else "{}", **kwargs)  # type: ignore[arg-type]

    def plain(self, addr: str, *args: str) -> subprocess.CompletedProcess:
        """Without -v (``list``, ``describe``): stdout as grpcurl prints it."""
        return subprocess.run([str(self.binary), "-plaintext", addr, *args], capture_output=True, text=True,
                              timeout=CALL_TIMEOUT_S)
