"""CPU used by each mesh process during a run, read from /proc (no psutil needed).

A process's CPU time is ``utime + stime`` of ``/proc/<pid>/stat`` (all its
threads). Processes are found by the TCP port they listen on: the six servers
of a ``chsr up`` mesh sit at the gateway's port plus fixed offsets
(``tools/cli/up_cmd.py``), the engines at their local ports
(docs/ARCHITECTURE.md). Figures are "cores": CPU seconds per wall second
(1.0 = one core busy), so they add up against the machine's core count.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Callable

from tools.cli.up_cmd import OFFSETS

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
ENGINE_PORTS = {"elasticsearch": 19200, "weaviate": 18080, "redis": 16379}


def engine_ports() -> dict[str, int]:
    """The configured engines' ports (``CHSR_ES_URL``, ``CHSR_WEAVIATE_HTTP`` may list several nodes:
    ``elasticsearch-2``, ...; ``CHSR_REDIS_URL``'s port, and the Sentinels'), else the local defaults."""
    from chsr.config import get_settings

    s = get_settings()
    out: dict[str, int] = {}

    def add(name: str, addrs: str) -> None:
        hosts = [a.strip().rstrip("/") for a in addrs.split(",") if a.strip()]
        for i, addr in enumerate(hosts, 1):
            port = addr.rsplit(":", 1)[-1].split("/")[0]
            if port.isdigit():
                out[name if len(hosts) == 1 else f"{name}-{i}"] = int(port)
    add("elasticsearch", s.es_url)
    add("weaviate", s.weaviate_http)
    add("redis", s.redis_url.split("://", 1)[-1].split("/")[0])
    if s.redis_sentinels:
        add("sentinel", s.redis_sentinels)
    return out or dict(ENGINE_PORTS)
LISTEN = "0A"


def cpu_seconds(pid: int) -> float | None:
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2:].split()  # after "pid (comm) "; comm may hold spaces
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime (fields 14, 15 of stat)


def _listening_inodes() -> dict[int, str]:
    """port -> socket inode of every listening TCP socket."""
    out: dict[int, str] = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            if len(parts) > 9 and parts[3] == LISTEN:
                out.setdefault(int(parts[1].rsplit(":", 1)[1], 16), parts[9])
    return out


def pids_by_port(ports: dict[str, int]) -> dict[str, int]:
    """name -> pid of the process listening on each port (those found)."""
    inodes = _listening_inodes()
    wanted = {f"socket:[{inodes[port]}]": name for name, port in ports.items() if port in inodes}
    found: dict[str, int] = {}
    for proc in Path("/proc").iterdir():
        if not wanted or not proc.name.isdigit():
            continue
        try:
            fds = list((proc / "fd").iterdir())
        except OSError:
            continue
        for fd in fds:
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target in wanted:
                found[wanted.pop(target)] = int(proc.name)
                break
    return found


def mesh_ports(gateway: str, engines: bool = True) -> dict[str, int]:
    base = int(gateway.rsplit(":", 1)[1])
    ports = {name: base + offset for name, offset in OFFSETS.items()}
    return ports | (engine_ports() if engines else {})


class CpuMeter:
    """``with CpuMeter(pids) as m: ...`` then ``m.cores`` = {name: cores used over the block}."""

    def __init__(self, pids: dict[str, int]) -> None:
        self._pids = pids
        self.cores: dict[str, float] = {}

    def __enter__(self) -> "CpuMeter":
        self._t0 = time.monotonic()
        self._c0 = {name: cpu_seconds(pid) for name, pid in self._pids.items()}
        return self

    def __exit__(self, *exc: object) -> None:
        wall = max(1e-9, time.monotonic() - self._t0)
        for name, pid in self._pids.items():
            before, after = self._c0.get(name), cpu_seconds(pid)
            if before is not None and after is not None:
                self.cores[name] = round((after - before) / wall, 3)


#: Process names (``pids_by_port`` keys) whose background work after a bulk write (Elasticsearch merges, Weaviate
#: compaction and async replication) would be measured as query cost if a load run started right away.
ENGINE_PREFIXES = ("elasticsearch", "weaviate")


def settle(pids: dict[str, int], idle_cores: float = 0.15, window_s: float = 5.0, max_wait_s: float = 300.0,
           read_cpu: Callable[[int], float | None] = cpu_seconds,
           sleep: Callable[[float], None] = time.sleep) -> dict[str, float]:
    """Wait until the engine processes in ``pids`` together use less than ``idle_cores`` over a ``window_s`` window
    (at most ``max_wait_s``), so a load run measures queries, not an ingest's leftover merges.
    Returns ``waited_s``, the engines' ``cores`` in the last window and ``settled`` (1.0 / 0.0)."""
    engines = [pid for name, pid in pids.items() if name.startswith(ENGINE_PREFIXES)]
    waited, cores = 0.0, 0.0
    while engines:
        before = [read_cpu(pid) or 0.0 for pid in engines]
        sleep(window_s)
        waited += window_s
        cores = sum(max(0.0, (read_cpu(pid) or 0.0) - b) for pid, b in zip(engines, before)) / window_s
        if cores < idle_cores:
            return {"waited_s": waited, "cores": round(cores, 3), "settled": 1.0}
        if waited >= max_wait_s:
            break
    return {"waited_s": waited, "cores": round(cores, 3), "settled": float(not engines)}
