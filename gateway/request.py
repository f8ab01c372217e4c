"""A search request, validated once and resolved into what the query flow needs.

Every check names the field (``chsr.limits``); the pipeline is looked up here and
nowhere else; the hints are converted to a :class:`~chsr.scope.Scope` once.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from chsr.query_reading import read_query
from chsr.config import Settings
from chsr.limits import check_k, check_query, check_scope
from chsr.scope import Scope
from chsr.v1 import gateway_pb2
from gateway.pipelines import PipelineConfig, get_pipeline


@dataclass(frozen=True)
class SearchPlan:
    request: gateway_pb2.SearchRequest
    pipeline: PipelineConfig
    hints: Scope

    @cached_property
    def query(self) -> str:
        """The text the gate, the probe and the legs search: traditional Chinese read as simplified and spelled-out
        years and item numbers as digits (``chsr.query_reading``); the request itself keeps what the client sent."""
        return read_query(self.request.query)

    @property
    def k(self) -> int:
        return self.request.k


def plan_search(request: gateway_pb2.SearchRequest, settings: Settings) -> SearchPlan:
    """Validate ``request`` (InvalidArgument naming the field) and resolve its pipeline."""
    check_query(request.query, settings.max_query_chars)
    check_k(request.k, settings.max_k)
    pipeline = get_pipeline(request.pipeline or settings.default_pipeline, settings.candidate_depth)
    hints = Scope.from_proto(request.hints)
    check_scope(hints, "hints")
    return SearchPlan(request=request, pipeline=pipeline, hints=hints)
