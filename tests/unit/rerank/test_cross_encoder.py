"""CrossEncoderScorer: local paths only, lazy loading, serialised inference."""

import threading
import time

import numpy as np
import pytest

from services.rerank.cross_encoder import CrossEncoderScorer, CrossEncoderUnavailable, check_model_dir

pytestmark = pytest.mark.unit


def test_missing_or_non_local_paths_are_refused(tmp_path):
    with pytest.raises(CrossEncoderUnavailable, match="train-reranker"):
        check_model_dir("")
    with pytest.raises(CrossEncoderUnavailable, match="no config.json"):
        check_model_dir("cross-encoder/ms-marco-MiniLM-L6-v2")
    (tmp_path / "config.json").write_text("{}")
    assert check_model_dir(tmp_path) == tmp_path


def test_empty_input_does_not_load_the_model():
    scorer = CrossEncoderScorer(None)
    assert scorer.score("q", []).size == 0
    with pytest.raises(CrossEncoderUnavailable):
        scorer.score("q", ["text"])


class _SlowModel:
    """Records whether two predict calls ever overlap."""

    def __init__(self) -> None:
        self.active = 0
        self.overlapped = False

    def predict(self, pairs, **_):  # type: ignore[no-untyped-def]
        self.active += 1
        self.overlapped |= self.active > 1
        time.sleep(0.01)
        self.active -= 1
        return np.array([float(len(d)) for _, d in pairs])


def test_inference_is_serialised_across_threads():
    scorer = CrossEncoderScorer("unused")
    scorer._model = model = _SlowModel()
    results: list[np.ndarray] = []
    threads = [threading.Thread(target=lambda: results.append(scorer.score("q", ["ab", "abc"]))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not model.overlapped and len(results) == 8
    assert results[0].tolist() == [2.0, 3.0]


def test_unknown_runtime_names_the_setting(tmp_path):
    from pydantic import ValidationError

    from chsr.config import Settings
    from services.rerank.servicer import RerankServicer

    with pytest.raises(ValidationError, match="cross_encoder_runtime") as err:
        Settings(cross_encoder_runtime="tensorrt")
    assert "'torch' or 'onnx-int8'" in str(err.value)
    with pytest.raises(ValueError, match="cache_dir"):
        RerankServicer(runtime="onnx-int8")
    RerankServicer(runtime="onnx-int8", cache_dir=tmp_path)


def test_model_fingerprint_changes_when_weights_change(tmp_path):
    from services.inference.model_files import model_fingerprint

    (tmp_path / "config.json").write_text("{}")
    (tmp_path / "model.safetensors").write_bytes(b"a")
    before = model_fingerprint(tmp_path, with_mtimes=True)
    assert model_fingerprint(tmp_path, with_mtimes=True) == before
    (tmp_path / "model.safetensors").write_bytes(b"ab")
    assert model_fingerprint(tmp_path, with_mtimes=True) != before
