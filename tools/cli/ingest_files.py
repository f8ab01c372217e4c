"""`chsr ingest PATH...` for files: which files, under which names, with a bar each and a table at the end.

Paths may be files, folders (walked recursively; files with a known extension only, hidden
ones skipped) and globs (quoted, so the shell leaves them; ``**`` recurses). A file's *name*,
which becomes its chunks' source and ids, is its path relative to what was named: the folder
for a folder, the glob's fixed prefix for a glob, the file's own folder for a file (``--root``
overrides all three). The same file ingested under the same name again is an update.
"""

from __future__ import annotations

import glob
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from tqdm import tqdm

from chsr.v1 import gateway_pb2, ingest_pb2

#: Extensions a folder walk picks up (a file named explicitly is sent whatever its extension).
KNOWN_EXTENSIONS = frozenset({".pdf", ".docx", ".md", ".markdown", ".html", ".htm", ".xhtml", ".txt", ".text"})
_GLOB_CHARS = set("*?[")


@dataclass(frozen=True)
class LocalFile:
    name: str      # relative to the ingest root, forward slashes
    path: Path


class PathError(ValueError):
    """A path argument that names nothing."""


def _relative(path: Path, root: Path) -> str:
    return Path(os.path.relpath(path.resolve(), root.resolve())).as_posix()


def expand(paths: Iterable[str], root: Path | None = None) -> tuple[list[LocalFile], list[Path]]:
    """The files to send (in a stable order) and the folder entries skipped for their extension."""
    files: dict[Path, LocalFile] = {}
    skipped: list[Path] = []

    def add(path: Path, base: Path) -> None:
        resolved = path.resolve()
        if resolved not in files:
            files[resolved] = LocalFile(_relative(path, root or base), path)

    for arg in paths:
        if _GLOB_CHARS & set(arg):
            prefix = re.split(r"[*?\[]", arg, maxsplit=1)[0]
            base = Path(prefix) if prefix.endswith(("/", os.sep)) else Path(prefix).parent
            hits = sorted(Path(p) for p in glob.glob(arg, recursive=True) if Path(p).is_file())
            if not hits:
                raise PathError(f"{arg}: the pattern matches no file")
            for hit in hits:
                add(hit, base)
            continue
        path = Path(arg)
        if path.is_dir():
            found = []
            for dirpath, dirnames, filenames in os.walk(path):
                dirnames[:] = [d for d in dirnames if not d.startswith(".")]
                found += [Path(dirpath) / name for name in filenames if not name.startswith(".")]
            for file in sorted(found, key=lambda f: f.relative_to(path).as_posix()):
                if file.suffix.lower() in KNOWN_EXTENSIONS:
                    add(file, path)
                else:
                    skipped.append(file)
        elif path.is_file():
            add(path, path.parent)
        else:
            raise PathError(f"{arg}: no such file or folder")
    return list(files.values()), skipped


class FileBars:
    """One tqdm bar per file, fed by the gateway's progress events (bytes received, parsed, stored)."""

    def __init__(self, sizes: dict[str, int], enabled: bool = True) -> None:
        self._sizes = sizes
        self._bars: dict[str, tqdm] = {}
        self._enabled = enabled

    def _bar(self, name: str) -> tqdm:
        if name not in self._bars:
            self._bars[name] = tqdm(total=self._sizes.get(name) or None, unit="B", unit_scale=True, desc=name[-40:],
                                    file=sys.stderr, leave=True, disable=not self._enabled)
        return self._bars[name]

    def progress(self, p: ingest_pb2.FileProgress) -> None:
        bar = self._bar(p.file)
        if p.stage == ingest_pb2.FILE_STAGE_RECEIVING:
            bar.update(p.bytes - bar.n)
        elif p.stage == ingest_pb2.FILE_STAGE_PARSED:
            bar.set_postfix_str(f"parsed, {p.chunks} chunks; writing")
        elif p.stage == ingest_pb2.FILE_STAGE_STORED:
            bar.set_postfix_str(f"stored, {p.chunks} chunks")

    def done(self, result: gateway_pb2.FileResult) -> None:
        bar = self._bars.pop(result.file, None)
        if bar is None:  # refused before any byte was counted (or a manifest entry)
            bar = self._bar(result.file)
            self._bars.pop(result.file, None)
        if result.HasField("error"):
            bar.set_postfix_str(f"FAILED: {reason_name(result.error.reason)}")
        else:
            bar.set_postfix_str(f"{result.written} written, {result.unchanged} unchanged, {result.deleted} deleted")
        if bar.total:
            bar.update(bar.total - bar.n)
        bar.close()

    def close(self) -> None:
        for bar in self._bars.values():
            bar.close()


def reason_name(reason: int) -> str:
    return ingest_pb2.FileErrorReason.Name(reason).removeprefix("FILE_ERROR_REASON_").lower()


def summary_table(results: list[gateway_pb2.FileResult], summary: gateway_pb2.IngestFilesSummary | None) -> str:
    """A plain-text table: one row per file, then the totals and each failure's reason."""
    rows = [("file", "status", "chunks", "written", "unchanged", "deleted", "pages", "fields (source)")]
    for r in results:
        if r.HasField("error"):
            status = reason_name(r.error.reason)
        else:
            status = "unchanged" if not (r.written or r.deleted) else "ok"
        fields = ", ".join(f"{f.field}={f.value} ({f.source})" for f in r.fields if f.field != "language")
        rows.append((r.file, status, str(r.chunks), str(r.written), str(r.unchanged), str(r.deleted),
                     str(r.pages or ""), fields[:90] + ("…" if len(fields) > 90 else "")))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    lines = ["  ".join(cell.ljust(w) if i in (0, 1) else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
             + "  " + row[-1] for row in rows]
    lines.insert(1, "-" * min(160, sum(widths) + 2 * len(widths) + 16))
    if summary is not None:
        lines.append(f"{summary.files} files, {summary.failed} failed; chunks {summary.chunks}, written "
                     f"{summary.written}, unchanged {summary.unchanged}, deleted {summary.deleted}; "
                     f"generation {summary.generation}")
    for r in results:
        if r.HasField("error"):
            lines.append(f"error: {r.error.file}: {reason_name(r.error.reason)}: {r.error.detail}")
        elif r.unresolved:
            lines.append(f"note: {r.file}: unresolved {', '.join(r.unresolved)}")
        for w in r.warnings:
            lines.append(f"warning: {r.file}: {w}")
    return "\n".join(lines)


def results_of(events: Iterator[gateway_pb2.IngestFilesResponse], bars: FileBars
               ) -> tuple[list[gateway_pb2.FileResult], gateway_pb2.IngestFilesSummary | None]:
    results: list[gateway_pb2.FileResult] = []
    summary = None
    try:
        for event in events:
            kind = event.WhichOneof("event")
            if kind == "progress":
                bars.progress(event.progress)
            elif kind == "file":
                bars.done(event.file)
                results.append(event.file)
            elif kind == "summary":
                summary = event.summary
    finally:
        bars.close()
    return results, summary
