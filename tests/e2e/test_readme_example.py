"""The README's first example, as a newcomer runs it on the demo mesh (embedded default): the English
original of the named question first, its French, German and Spanish versions after it, labelled."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from chsr.client import GatewayClient
from tests.conftest import REPO_ROOT

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

README_QUERY = "Northfield 2019 physics paper 1 question 3"
ORIGINAL = "demo:nfb_phys_2019_p1_q3"


def test_readme_names_this_example() -> None:
    assert f'chsr search "{README_QUERY}" -p E' in (REPO_ROOT / "README.md").read_text()


def test_english_query_gets_the_english_original_first_and_translations_labelled(mesh) -> None:  # type: ignore[no-untyped-def]
    resp = GatewayClient(mesh.gateway).search(README_QUERY, pipeline="E", no_cache=True)
    assert resp.query_language.code == "en" and not resp.query_language.requested
    assert resp.results[0].doc_id == ORIGINAL, [r.doc_id for r in resp.results]
    assert not resp.results[0].notes
    versions = [r for r in resp.results if r.doc_id.startswith(ORIGINAL + ":") and r.metadata.language != "en"]
    assert {r.metadata.language for r in versions} == {"fr", "de", "es"}
    for r in versions:
        assert r.notes == [f"language: {r.metadata.language} version of {ORIGINAL} (the query is in en)"]


def test_a_requested_language_version_comes_first(mesh) -> None:  # type: ignore[no-untyped-def]
    resp = GatewayClient(mesh.gateway).search("the German version of Northfield 2019 physics paper 1 question 3",
                                              pipeline="E", no_cache=True)
    assert resp.query_language.code == "de" and resp.query_language.requested
    assert resp.results[0].doc_id == ORIGINAL + ":de", [r.doc_id for r in resp.results]
    english = next(r for r in resp.results if r.doc_id == ORIGINAL)
    assert english.notes == [f"language: en version of {ORIGINAL}:de (the query asks for de)"]


def test_the_cli_prints_the_original_first(mesh) -> None:  # type: ignore[no-untyped-def]
    chsr = str(Path(sys.executable).with_name("chsr"))
    out = subprocess.run([chsr, "search", README_QUERY, "-p", "E", "--gateway", mesh.gateway, "--json"],
                         capture_output=True, text=True, timeout=120, cwd=REPO_ROOT)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["results"][0]["docId"] == ORIGINAL
