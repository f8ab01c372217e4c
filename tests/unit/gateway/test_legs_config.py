"""Which legs a mesh runs is configuration (CHSR_LEGS): servers, stubs, pipelines and `chsr up` follow."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from chsr.config import Settings
from chsr.errors import FailedPrecondition
from chsr.stages import KNOWN_LEGS
from gateway.pipelines import PIPELINES
from gateway.step import StepRunner
from gateway.stubs import StageStubs
from tools.cli.up_cmd import enabled_services

pytestmark = pytest.mark.unit


def stubs_for(legs: str) -> StageStubs:
    s = Settings(legs=legs)
    return StageStubs(gate=None, fusion=None, rerank=None, servers={name: object() for name in s.retrieval_servers},
                      legs={leg: KNOWN_LEGS[leg] for leg in s.enabled_legs})


def test_default_legs_and_their_servers():
    s = Settings()
    assert s.enabled_legs == ("sparse", "dense", "tfidf", "ppmi", "graph")
    assert s.retrieval_servers == ("sparse", "dense", "graph")
    assert Settings(legs="sparse, tfidf,sparse").retrieval_servers == ("sparse",)


def test_unknown_leg_names_the_valid_ones():
    with pytest.raises(ValidationError, match="unknown leg"):
        Settings(legs="sparse,bm26")


def test_a_mesh_without_the_graph_starts_no_graph_server():
    assert "graph" in enabled_services("sparse,dense,graph")
    assert enabled_services("sparse,dense,tfidf,ppmi") == ("gate", "sparse", "dense", "fusion", "rerank", "ingest", "gateway")


def test_a_pipeline_naming_a_leg_that_is_not_enabled_is_a_failed_precondition():
    stubs = stubs_for("sparse,dense,tfidf,ppmi")
    runner = StepRunner(stubs, executor=None)  # type: ignore[arg-type]
    with pytest.raises(FailedPrecondition, match="pipeline 'kg_rrf' needs leg 'graph'.*CHSR_LEGS"):
        runner.check_legs(PIPELINES["kg_rrf"])
    runner.check_legs(PIPELINES["ppmi_rrf"])          # served: no error
    assert "graph" in stubs.unavailable_reason("graph")


def test_specter2_is_unavailable_whatever_the_configuration():
    stubs = stubs_for(",".join(KNOWN_LEGS))
    assert "SPECTER2" in stubs.unavailable_reason("specter2")
    with pytest.raises(FailedPrecondition, match="SPECTER2"):
        stubs.leg("specter2")


def test_every_pipeline_names_known_legs():
    for p in PIPELINES.values():
        assert all(leg in KNOWN_LEGS or leg == "specter2" for leg in p.legs), p.name
