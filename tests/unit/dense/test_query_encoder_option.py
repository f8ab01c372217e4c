"""CHSR_QUERY_ENCODER: onnx-fp32 (default) equals torch, onnx-int8 is close (issue 7 and 13 levers)."""

from __future__ import annotations

import numpy as np
import pytest

from chsr.config import Settings
from services.inference.model_files import default_model_path
from services.dense.encoder import Encoder
from services.dense.onnx_encoder import onnx_available
from services.dense.server import query_encoder

pytestmark = [pytest.mark.unit, pytest.mark.slow]


@pytest.fixture(scope="module")
def encoder(tmp_path_factory):
    return Encoder(default_model_path(), tmp_path_factory.mktemp("emb"))


def test_unknown_encoder_is_named(encoder):
    with pytest.raises(ValueError, match="query_encoder"):
        query_encoder(Settings(query_encoder="tpu"), encoder)


@pytest.mark.skipif(not onnx_available(), reason="onnxruntime/onnx not installed (pip install -e '.[onnx]')")
def test_onnx_int8_matches_torch(encoder, tmp_path):
    encode = query_encoder(Settings(query_encoder="onnx-int8", cache_dir=tmp_path), encoder)
    queries = ["what is the half-life of carbon-14", "Newton's second law", "二次函数的图像", "photosynthèse"]
    onnx_vecs = encode(queries)
    torch_vecs = encoder.encode_queries(queries)
    cosines = (onnx_vecs * torch_vecs).sum(axis=1)
    assert onnx_vecs.shape == torch_vecs.shape
    assert np.all(cosines > 0.97), cosines


@pytest.mark.skipif(not onnx_available(), reason="onnxruntime/onnx not installed (pip install -e '.[onnx]')")
def test_onnx_fp32_is_the_default_and_equals_torch(encoder, tmp_path):
    assert Settings().query_encoder == "onnx-fp32"
    encode = query_encoder(Settings(cache_dir=tmp_path), encoder)
    queries = ["what is the half-life of carbon-14", "Newton's second law", "二次函数的图像", "photosynthèse"]
    assert np.max(np.abs(encode(queries) - encoder.encode_queries(queries))) < 1e-5
    assert query_encoder(Settings(query_encoder="torch"), encoder) == encoder.encode_queries
