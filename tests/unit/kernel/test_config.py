"""Typed settings: closed options are enums validated at start-up; the README documents every field."""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from chsr.config import Backend, QueryEncoder, Settings
from chsr.server import describe_settings_error
from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.unit


def documented_variables() -> set[str]:
    """Every ``CHSR_*`` name in the README's configuration table."""
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"`(CHSR_[A-Z0-9_]+)`", table))


def test_every_setting_is_documented_and_every_documented_variable_is_a_setting():
    fields = {f"CHSR_{name.upper()}" for name in Settings.model_fields}
    documented = documented_variables()
    assert fields - documented == set(), "settings missing from the README table"
    assert documented - fields == set(), "README documents variables no setting reads"


@pytest.mark.parametrize("field,value", [("backend", "engnes"), ("query_encoder", "tensorrt"),
                                         ("dense_index", "annoy"), ("dense_passages", "firstp"),
                                         ("cross_encoder_runtime", "cuda"), ("log_format", "xml")])
def test_a_bad_enum_value_names_the_variable_and_the_valid_values(field, value):
    with pytest.raises(ValidationError) as err:
        Settings(**{field: value})
    message = describe_settings_error(err.value)
    assert message.startswith(f"CHSR_{field.upper()}: Input should be ") and repr(value) in message


def test_enums_compare_as_their_strings_and_parse_from_the_environment(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CHSR_BACKEND", "engines")
    monkeypatch.setenv("CHSR_QUERY_ENCODER", "onnx-int8")
    s = Settings()
    assert s.backend is Backend.ENGINES and s.query_encoder is QueryEncoder.ONNX_INT8 and s.backend == "engines"


def test_writer_identities_are_a_comma_list():
    assert Settings(writer_identities=" gateway, ingest-job ,").writer_identity_list == ["gateway", "ingest-job"]


@pytest.mark.parametrize("field,value,expected", [
    ("es_replicas", "-1", "CHSR_ES_REPLICAS: Input should be greater than or equal to 0 or Input should be 'auto'"),
    ("weaviate_replication_factor", "zero", "CHSR_WEAVIATE_REPLICATION_FACTOR: Input should be a valid integer"),
    ("es_wait_for_active_shards", "most", "or Input should be 'auto' or 'all'"),
])
def test_number_or_word_settings_name_the_variable_once(field, value, expected):
    with pytest.raises(ValidationError) as err:
        Settings(**{field: value})
    message = describe_settings_error(err.value)
    assert expected in message and message.count("CHSR_") == 1


def test_cluster_settings_parse_numbers_and_words(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CHSR_ES_REPLICAS", "2")
    monkeypatch.setenv("CHSR_WEAVIATE_REPLICATION_FACTOR", "auto")
    monkeypatch.setenv("CHSR_WEAVIATE_READ_CONSISTENCY", "QUORUM")
    s = Settings()
    assert s.es_replicas == 2 and s.weaviate_replication_factor == "auto" and s.weaviate_read_consistency == "QUORUM"
