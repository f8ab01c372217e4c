"""The ingest manifest: YAML or CSV mapping paths and globs to curriculum fields.

Highest-precedence source of document metadata (issue 11: manifest > document > file
name). Forms accepted::

    # YAML, list form (patterns relative to the ingest root; later entries win)
    files:
      - path: "papers/2019/*.pdf"
        exam_board: MAA AMC
        year: 2019
      - path: papers/2019/amc10a.pdf
        paper: AMC 10A

    # YAML, mapping form
    "papers/2019/*.pdf": {year: 2019}

    # CSV: a header row with ``path`` and field columns; empty cells are "not given"
    path,subject,level,year
    worksheets/*.docx,physics,grade_12,

A literal path beats a glob; among entries of the same kind, the later one wins. An
unknown field, or a literal path that names no file of the request, is a per-file error
(``check_manifest``), never a silent drop.
"""

from __future__ import annotations

import csv
import fnmatch
import io
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, Iterable, Mapping

from services.ingest.errors import FileErrorReason, IngestFileError

FIELDS = ("subject", "level", "year", "session", "paper", "exam_board", "language", "content_type", "title")
INT_FIELDS = ("year",)
_GLOB = set("*?[")


@dataclass(frozen=True)
class ManifestEntry:
    pattern: str
    fields: Mapping[str, Any]
    unknown: tuple[str, ...] = ()
    position: int = 0

    @property
    def is_glob(self) -> bool:
        return bool(_GLOB & set(self.pattern))

    def matches(self, name: str) -> bool:
        name = name.replace("\\", "/")
        name = name[2:] if name.startswith("./") else name
        if not self.is_glob:
            return name == self.pattern or PurePosixPath(name).as_posix().endswith("/" + self.pattern)
        return fnmatch.fnmatchcase(name, self.pattern) or ("/" not in self.pattern and
                                                           fnmatch.fnmatchcase(PurePosixPath(name).name, self.pattern))


@dataclass
class Manifest:
    entries: list[ManifestEntry] = field(default_factory=list)
    source: str = "manifest"

    def entries_for(self, name: str) -> list[ManifestEntry]:
        hits = [e for e in self.entries if e.matches(name)]
        return sorted(hits, key=lambda e: (not e.is_glob, e.position))  # globs first, literals last (they win)

    def fields_for(self, name: str) -> dict[str, Any]:
        merged: dict[str, Any] = {}
        for entry in self.entries_for(name):
            merged.update(entry.fields)
        return merged

    def error_for(self, name: str) -> IngestFileError | None:
        """The per-file error an entry that covers ``name`` causes (an unknown field)."""
        for entry in self.entries_for(name):
            if entry.unknown:
                return IngestFileError(name, FileErrorReason.MANIFEST_UNKNOWN_FIELD,
                                       f"{self.source}: entry {entry.pattern!r} has unknown field(s) "
                                       f"{list(entry.unknown)}; valid: {list(FIELDS)}")
        return None


def parse_manifest(text: str, *, fmt: str, source: str = "manifest") -> Manifest:
    """``fmt`` is ``yaml`` or ``csv``; a malformed file raises :class:`IngestFileError` naming it."""
    try:
        raw = _read_yaml(text) if fmt == "yaml" else _read_csv(text)
    except IngestFileError:
        raise
    except Exception as exc:
        raise IngestFileError(source, FileErrorReason.MANIFEST_INVALID, f"cannot read it as {fmt}: {exc}") from exc
    entries = []
    for position, (pattern, values) in enumerate(raw):
        if not isinstance(pattern, str) or not pattern.strip():
            raise IngestFileError(source, FileErrorReason.MANIFEST_INVALID, f"entry {position + 1} has no path")
        fields, unknown = _check_fields(source, pattern, values)
        pattern = pattern.strip()
        entries.append(ManifestEntry(pattern[2:] if pattern.startswith("./") else pattern, fields, unknown, position))
    return Manifest(entries, source)


def load_manifest(path: str) -> Manifest:
    fmt = "csv" if path.lower().endswith(".csv") else "yaml"
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise IngestFileError(path, FileErrorReason.MANIFEST_INVALID, f"cannot open it: {exc}") from exc
    return parse_manifest(text, fmt=fmt, source=path)


def check_manifest(manifest: Manifest, names: Iterable[str]) -> list[IngestFileError]:
    """Errors for literal manifest paths that name no file of this request."""
    names = list(names)
    errors = []
    for entry in manifest.entries:
        if not entry.is_glob and not any(entry.matches(n) for n in names):
            errors.append(IngestFileError(entry.pattern, FileErrorReason.MANIFEST_MISSING_FILE,
                                          f"{manifest.source} names this file, but it is not among the files given"))
    return errors


def _read_yaml(text: str) -> list[tuple[Any, Mapping[str, Any]]]:
    import yaml

    data = yaml.safe_load(text) or {}
    if isinstance(data, Mapping) and "files" in data:
        data = data["files"]
    if isinstance(data, list):
        out = []
        for item in data:
            if not isinstance(item, Mapping):
                raise ValueError(f"list entries must be mappings, got {item!r}")
            values = {k: v for k, v in item.items() if k != "path"}
            out.append((item.get("path"), values))
        return out
    if isinstance(data, Mapping):
        for pattern, values in data.items():
            if not isinstance(values, Mapping):
                raise ValueError(f"entry {pattern!r} must map to fields, got {values!r}")
        return list(data.items())
    raise ValueError("expected a list of entries or a mapping of paths to fields")


def _read_csv(text: str) -> list[tuple[Any, Mapping[str, Any]]]:
    reader = csv.DictReader(io.StringIO(text))
    if not reader.fieldnames or "path" not in reader.fieldnames:
        raise ValueError("the header row must have a 'path' column")
    return [(row.get("path"), {k: v for k, v in row.items() if k != "path" and k is not None and v not in ("", None)})
            for row in reader]


def _check_fields(source: str, pattern: str, values: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
    fields: dict[str, Any] = {}
    unknown = tuple(sorted(str(k) for k in values if k not in FIELDS))
    for name in FIELDS:
        value = values.get(name)
        if value is None or value == "":
            continue
        if name in INT_FIELDS:
            try:
                value = int(value)
            except (TypeError, ValueError) as exc:
                raise IngestFileError(source, FileErrorReason.MANIFEST_INVALID,
                                      f"entry {pattern!r}: {name} must be an integer, got {value!r}") from exc
        elif not isinstance(value, str):
            value = str(value)
        fields[name] = value
    return fields, unknown
