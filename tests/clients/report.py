"""The RPC x client outcome table of the client-compatibility suite (issue 10 asks for it).

Every test of ``tests/clients`` records what each call actually answered; at the end of the
session an RPC x client matrix is printed in pytest's terminal summary, and the matrix plus one
line per (backend, client, RPC, case) is written as Markdown to ``$CHSR_CLIENTS_REPORT`` (default
``out/clients-report.md``, ignored by git), so a reviewer sees every combination that ran, not
just "passed".
"""

from __future__ import annotations

import os
import threading
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Outcome:
    backend: str   # "embedded" or "engines"
    client: str    # "grpcurl", "go", "grpc-health-probe", "python-stub", "python-aio-stub", ...
    rpc: str       # "GatewayService/Search", "Health/Check", ...
    case: str      # "no deadline", "1 ms deadline", "missing token", ...
    outcome: str   # what it answered: "OK", "DEADLINE_EXCEEDED", "INVALID_ARGUMENT (field k)", ...
    passed: bool   # whether that is what the contract says


_lock = threading.Lock()
_outcomes: list[Outcome] = []


def record(backend: str, client: str, rpc: str, case: str, outcome: str, passed: bool = True) -> None:
    with _lock:
        _outcomes.append(Outcome(backend, client, rpc, case, outcome, passed))


def outcomes() -> list[Outcome]:
    with _lock:
        return list(_outcomes)


def markdown(rows: list[Outcome]) -> str:
    """One line per (backend, client, rpc, case); repeated runs of a combination are merged."""
    merged: dict[tuple[str, str, str, str], list[Outcome]] = defaultdict(list)
    for row in rows:
        merged[(row.backend, row.client, row.rpc, row.case)].append(row)
    lines = ["| backend | client | RPC | case | outcome | ok |", "|---|---|---|---|---|---|"]
    for (backend, client, rpc, case), group in sorted(merged.items()):
        answers = sorted({g.outcome for g in group})
        ok = "yes" if all(g.passed for g in group) else "**NO**"
        lines.append(f"| {backend} | {client} | {rpc} | {case} | {'; '.join(answers)} | {ok} |")
    combos = {(r.backend, r.client, r.rpc) for r in rows}
    failed = sum(1 for group in merged.values() if not all(g.passed for g in group))
    lines.append("")
    lines.append(f"{len(merged)} combinations ({len(combos)} backend x client x RPC), "
                 f"{len(rows)} calls recorded, {failed} not as the contract says.")
    return "\n".join(lines) + "\n"


def matrix(rows: list[Outcome]) -> str:
    """RPC x client, one cell per pair: the outcomes seen over every case and backend, with counts
    of (backend, case) combinations, e.g. ``OK 12, DEADLINE_EXCEEDED 2``."""
    clients = sorted({r.client for r in rows})
    rpcs = sorted({r.rpc for r in rows})
    cells: dict[tuple[str, str], dict[str, set[tuple[str, str]]]] = defaultdict(lambda: defaultdict(set))
    bad: set[tuple[str, str]] = set()
    for r in rows:
        kind = r.outcome.split(" (")[0] if not r.outcome.startswith("INTERNAL from grpc.aio") else "aio-race"
        cells[(r.rpc, r.client)][kind].add((r.backend, r.case))
        if not r.passed:
            bad.add((r.rpc, r.client))
    lines = ["| RPC | " + " | ".join(clients) + " |", "|---|" + "---|" * len(clients)]
    for rpc in rpcs:
        out = []
        for client in clients:
            seen = cells.get((rpc, client))
            if not seen:
                out.append("")
                continue
            text = ", ".join(f"{k} {len(v)}" for k, v in sorted(seen.items()))
            out.append(("**NOT AS SPECIFIED** " if (rpc, client) in bad else "") + text)
        lines.append(f"| {rpc} | " + " | ".join(out) + " |")
    return "\n".join(lines) + "\n"


def write_report(rows: list[Outcome]) -> Path | None:
    if not rows:
        return None
    path = Path(os.environ.get("CHSR_CLIENTS_REPORT", REPO_ROOT / "out" / "clients-report.md"))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# Client-compatibility suite: every RPC x client combination run\n\n"
                    "## RPC x client (outcome: number of backend x case combinations)\n\n" + matrix(rows)
                    + "\n## Every combination\n\n" + markdown(rows))
    return path
