"""The gateway's fetch step: legs return ids and scores, the fused top is hydrated once."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest

from chsr.errors import Unavailable
from chsr.inprocess import InProcessAbort
from chsr.v1 import common_pb2, retriever_pb2
from gateway.budget import Budget
from gateway.pipelines import get_pipeline
from gateway.step import StepRunner
from gateway.stubs import StageStubs

pytestmark = pytest.mark.unit

CORPUS = {f"d{i}": common_pb2.Document(id=f"d{i}", title=f"t{i}", text=f"text {i}") for i in range(6)}


class FakeRetriever:
    def __init__(self, ranking: list[str], fetch_fails: bool = False, known: set[str] | None = None) -> None:
        self.ranking = ranking
        self.fetch_fails = fetch_fails
        self.known = set(CORPUS) if known is None else known
        self.search_requests: list[retriever_pb2.RetrieveRequest] = []
        self.fetch_requests: list[list[str]] = []

    def Retrieve(self, req: retriever_pb2.RetrieveRequest, timeout: float) -> retriever_pb2.RetrieveResponse:
        self.search_requests.append(req)
        out = retriever_pb2.RetrieveResponse()
        for rank, doc_id in enumerate(self.ranking[:req.k], start=1):
            out.candidates.add(doc_id=doc_id, score=1.0 / rank, rank=rank)
        return out

    def GetDocuments(self, req: retriever_pb2.GetDocumentsRequest, timeout: float) -> retriever_pb2.GetDocumentsResponse:
        self.fetch_requests.append(list(req.doc_ids))
        if self.fetch_fails:
            raise InProcessAbort(grpc.StatusCode.UNAVAILABLE, "engine down")
        return retriever_pb2.GetDocumentsResponse(documents=[CORPUS[i] for i in req.doc_ids if i in self.known])


def _runner(sparse: FakeRetriever, dense: FakeRetriever) -> StepRunner:
    stubs = StageStubs(gate=None, fusion=None, rerank=None, servers={"sparse": sparse, "dense": dense})
    return StepRunner(stubs, ThreadPoolExecutor(2))


W3 = common_pb2.LadderStep(step=common_pb2.RELAXATION_STEP_W3_UNFILTERED_LEXICAL, lexical_only=True)
SPARSE = get_pipeline("sparse", 100)


def test_single_leg_asks_for_ids_only_and_fetches_the_top_k() -> None:
    sparse = FakeRetriever(["d3", "d1", "d5", "d0"])
    out = _runner(sparse, FakeRetriever([])).run("q", W3, common_pb2.Scope(), common_pb2.Scope(), SPARSE, 2, Budget(5))
    assert not sparse.search_requests[0].include_documents
    assert sparse.fetch_requests == [["d3", "d1"]]
    assert [(c.doc_id, c.document.text) for c in out.candidates] == [("d3", "text 3"), ("d1", "text 1")]
    assert "fetch" in out.timings


def test_fetch_falls_back_to_the_other_leg() -> None:
    sparse = FakeRetriever(["d2", "d4"], fetch_fails=True)
    dense = FakeRetriever(["d4", "d2"])
    out = _runner(sparse, dense).run("q", W3, common_pb2.Scope(), common_pb2.Scope(), SPARSE, 2, Budget(5))
    assert dense.fetch_requests == [["d2", "d4"]]
    assert [c.document.id for c in out.candidates] == ["d2", "d4"]
    assert out.degraded == []  # the answer is complete; the failed call is counted in backend errors


def test_a_document_deleted_since_the_search_is_dropped_not_returned_empty() -> None:
    sparse = FakeRetriever(["d1", "d2", "d3"], known={"d1", "d3"})
    out = _runner(sparse, FakeRetriever([], known={"d1", "d3"})).run("q", W3, common_pb2.Scope(), common_pb2.Scope(), SPARSE, 3, Budget(5))
    assert [c.doc_id for c in out.candidates] == ["d1", "d3"]


def test_fetch_failing_everywhere_is_unavailable() -> None:
    sparse = FakeRetriever(["d1"], fetch_fails=True)
    dense = FakeRetriever(["d1"], fetch_fails=True)
    with pytest.raises(Unavailable, match="document fetch failed"):
        _runner(sparse, dense).run("q", W3, common_pb2.Scope(), common_pb2.Scope(), SPARSE, 1, Budget(5))


def test_ids_the_first_retriever_lacks_are_asked_of_the_other() -> None:
    """A partial ingest: dense holds a document sparse does not have yet."""
    sparse = FakeRetriever(["d1", "d2"], known={"d1"})
    dense = FakeRetriever(["d2", "d1"])
    out = _runner(sparse, dense).run("q", W3, common_pb2.Scope(), common_pb2.Scope(), SPARSE, 2, Budget(5))
    assert sparse.fetch_requests == [["d1", "d2"]] and dense.fetch_requests == [["d2"]]
    assert [c.document.id for c in out.candidates] == ["d1", "d2"]


class DownRetriever(FakeRetriever):
    def Retrieve(self, req: retriever_pb2.RetrieveRequest, timeout: float) -> retriever_pb2.RetrieveResponse:
        self.search_requests.append(req)
        raise InProcessAbort(grpc.StatusCode.UNAVAILABLE, "engine down")


W0 = common_pb2.LadderStep(step=common_pb2.RELAXATION_STEP_W0_EXACT)
SPARSE_ONLY = get_pipeline("sparse", 4)


def test_a_step_takes_a_list_the_probe_holds_and_calls_a_leg_whose_probe_failed() -> None:
    """Issue 22: the probe at the ladder's depth answers the unfiltered step without a second call; a leg the
    probe could not reach is recorded and called in full by the step."""
    sparse, dense = FakeRetriever(["d3", "d1", "d5", "d0", "d2"]), DownRetriever(["d1"])
    runner = _runner(sparse, dense)
    hits, _, lists = runner.probe("q", ("sparse", "dense"), 2, Budget(5), reuse_depth=4, exact=SPARSE_ONLY.exact,
                                  reuse_legs={"sparse", "dense"})
    assert sparse.search_requests[0].k == 4 and sparse.search_requests[0].include_metadata
    assert [h.doc_id for h in hits] == ["d3", "d1"]          # the gate sees the top 2
    assert lists.failed == ["dense"] and list(lists.lists) == ["sparse"]
    out = runner.run("q", W0, common_pb2.Scope(), common_pb2.Scope(), SPARSE_ONLY, 2, Budget(5), probe=lists)
    assert len(sparse.search_requests) == 1 and out.from_probe == ["sparse"]
    assert [c.doc_id for c in out.candidates] == ["d3", "d1"]
    other_text = runner.run("another query", W0, common_pb2.Scope(), common_pb2.Scope(), SPARSE_ONLY, 2, Budget(5),
                            probe=lists)
    assert len(sparse.search_requests) == 2 and not other_text.from_probe   # another text: retrieved
