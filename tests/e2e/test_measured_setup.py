"""The load benchmark reports the backend, query encoder and query-vector LRU the mesh says it runs (issue 23, true words)."""

from __future__ import annotations

import pytest

from chsr.config import get_settings
from tools.bench.load import measured_setup

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_the_setup_is_asked_from_the_mesh(mesh):
    setup = measured_setup(mesh.gateway)
    assert setup["backend"] == "embedded"
    assert "embedded-bm25" in setup["backends"] and "embedded-vectors" in setup["backends"]
    assert setup["query_encoder"] in ("onnx-fp32", "onnx-int8", "torch")
    assert setup["query_encoder"] == get_settings().query_encoder.value   # the mesh runs this process's default
    assert setup["query_vector_cache"] == str(get_settings().query_vector_cache)
