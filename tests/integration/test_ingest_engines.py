"""Files through the mesh on the real engines (Elasticsearch + Weaviate + Redis): citations stored and
returned by both, unchanged files cost nothing, a changed file's stale chunks go from both, a source
is deleted from both, verify covers it; and indexes made before citations existed are upgraded.

Skips (with the reason) when an engine is down, unless CHSR_REQUIRE_ENGINES=1 (CI), which fails.
Each run uses its own index, collection and Redis database and drops them afterwards.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Iterator

import grpc
import pytest

from chsr.client import GatewayClient
from chsr.documents import Citation, Doc
from chsr.scope import Scope
from chsr.v1 import gateway_pb2, retriever_pb2, retriever_pb2_grpc
from tests.conftest import Mesh, start_mesh
from tests.faults.harness import MESH_ENV, drop_engine_data, require_engines
from tests.ingest_docs import QUESTIONS_2019, TEXTBOOK_MD, exam_typst, mark_scheme_docx, typst_pdf

pytestmark = [pytest.mark.integration, pytest.mark.elasticsearch, pytest.mark.weaviate, pytest.mark.slow]

RUN = uuid.uuid4().hex[:8]
ENV = {"CHSR_ES_INDEX": f"chsr-files-{RUN}", "CHSR_WEAVIATE_COLLECTION": f"ChsrFiles{RUN}",
       "CHSR_REDIS_URL": "redis://127.0.0.1:16379/5"}
PAPER = "papers/northfield_physics_2019.pdf"


@pytest.fixture(scope="module")
def engines_mesh(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mesh]:
    require_engines()
    m = start_mesh(tmp_path_factory.mktemp("files-engines"), backend="engines", extra_env=ENV | MESH_ENV)
    try:
        yield m
    finally:
        m.supervisor.stop_all()  # type: ignore[attr-defined]
        drop_engine_data(ENV["CHSR_ES_INDEX"], ENV["CHSR_WEAVIATE_COLLECTION"])


def held(mesh: Mesh, source: str) -> dict[str, dict[str, str]]:
    out = {}
    for name in ("sparse", "dense"):
        stub = retriever_pb2_grpc.RetrieverServiceStub(grpc.insecure_channel(mesh.layout.addr(name)))  # type: ignore[attr-defined]
        req = retriever_pb2.ListIdsRequest(source=source, include_details=True)
        out[name] = {i: h for page in stub.ListIds(req, timeout=60) for i, h in zip(page.doc_ids, page.content_hashes)}
    return out


def stored(mesh: Mesh, server: str, ids: list[str]) -> list[Doc]:
    stub = retriever_pb2_grpc.RetrieverServiceStub(grpc.insecure_channel(mesh.layout.addr(server)))  # type: ignore[attr-defined]
    return [Doc.from_proto(d) for d in stub.GetDocuments(retriever_pb2.GetDocumentsRequest(doc_ids=ids), timeout=30).documents]


def files_of(events) -> dict[str, gateway_pb2.FileResult]:  # type: ignore[no-untyped-def]
    return {e.file.file: e.file for e in events if e.WhichOneof("event") == "file"}


def test_files_update_and_delete_across_elasticsearch_and_weaviate(engines_mesh: Mesh, tmp_path: Path) -> None:
    client = GatewayClient(engines_mesh.gateway, timeout=60)
    pdf = typst_pdf(exam_typst(), tmp_path)
    got = files_of(client.ingest_files([(PAPER, pdf), ("papers/ms.docx", mark_scheme_docx()),
                                        ("books/forces.md", TEXTBOOK_MD.encode())], timeout=600))
    assert all(not r.HasField("error") for r in got.values()), got
    first = held(engines_mesh, PAPER)
    assert first["sparse"] == first["dense"] and len(first["sparse"]) >= 4
    q2 = next(i for i in first["sparse"] if i.endswith(":q2"))
    es_doc, = stored(engines_mesh, "sparse", [q2])
    wv_doc, = stored(engines_mesh, "dense", [q2])
    assert es_doc.citation == wv_doc.citation and es_doc.citation.page_start == 2
    assert es_doc.citation.question_number == 2 and es_doc.citation.source == PAPER and es_doc.chunking
    resp = client.search("a ball is dropped from 2.5 m; speed just before it lands", k=3, pipeline="E", no_cache=True)
    assert resp.results[0].citation.source == PAPER and resp.results[0].citation.page_start == 2

    again = files_of(client.ingest_files([(PAPER, pdf)], timeout=600))[PAPER]
    assert again.written == 0 and again.unchanged == again.chunks

    edited = typst_pdf(exam_typst(questions=QUESTIONS_2019[:2]), tmp_path)
    changed = files_of(client.ingest_files([(PAPER, edited)], timeout=600))[PAPER]
    assert not changed.HasField("error") and changed.deleted == 2
    after = held(engines_mesh, PAPER)
    assert after["sparse"] == after["dense"] and set(after["sparse"]) == set(changed.chunk_ids)
    assert client.verify().consistent

    resp = client.delete_sources([PAPER])
    assert resp.sources[0].deleted == len(after["sparse"])
    assert held(engines_mesh, PAPER) == {"sparse": {}, "dense": {}}
    report = client.verify()
    assert report.consistent and not report.inconsistent_sources


def test_verify_names_a_source_whose_chunks_differ(engines_mesh: Mesh) -> None:
    """A chunk changed in Elasticsearch only (a write that reached one backend) is named by verify."""
    client = GatewayClient(engines_mesh.gateway, timeout=60)
    source = "books/forces.md"
    ids = sorted(held(engines_mesh, source)["sparse"])
    doc, = stored(engines_mesh, "sparse", ids[:1])
    sparse = retriever_pb2_grpc.RetrieverServiceStub(grpc.insecure_channel(engines_mesh.layout.addr("sparse")))  # type: ignore[attr-defined]
    tampered = Doc(id=doc.id, text=doc.text + " (edited)", title=doc.title, metadata=doc.metadata,
                   citation=doc.citation, chunking=doc.chunking)
    sparse.Upsert(retriever_pb2.UpsertRequest(documents=[tampered.to_proto()]), timeout=60)
    report = client.verify(source=source)
    assert not report.consistent and list(report.inconsistent_sources) == [source]
    assert all(list(b.differing) == [doc.id] for b in report.backends)
    sparse.Upsert(retriever_pb2.UpsertRequest(documents=[doc.to_proto()]), timeout=60)
    assert client.verify(source=source).consistent


def test_indexes_made_before_citations_are_upgraded(tmp_path: Path) -> None:
    require_engines()
    from weaviate.classes.config import Configure

    from services.dense.backends import weaviate as wv
    from services.sparse.backends.elasticsearch import ElasticsearchSparseBackend

    index, collection = f"chsr-old-{RUN}", f"ChsrOld{RUN}"
    cited = Doc(id="f:q1", text="A question about forces.", metadata={"source": "p.pdf"},
                citation=Citation(source="p.pdf", title="P", page_start=1, page_end=1, heading_path=("A",)),
                chunking="digest")
    es = ElasticsearchSparseBackend("http://127.0.0.1:19200", index)
    dense = wv.WeaviateDenseBackend("127.0.0.1:18080", "127.0.0.1:15051", collection, 3)
    try:
        # the mapping and properties as they were before citations existed
        old = ElasticsearchSparseBackend._mappings()
        for name in ("citation", "chunking", "terms", "tokenizer"):
            old["properties"].pop(name)
        for name in ("title", "text"):
            old["properties"][name] = {"type": "text"}
        es._es.indices.create(index=index, mappings=old, settings={"number_of_shards": 1, "number_of_replicas": 0})
        es._es.index(index=index, id="old", document={"doc_id": "old", "text": "old", "content_hash": "h"}, refresh=True)
        dense._client.connect()
        stored_props = {p.name for p in wv._stored_properties()}
        dense._client.collections.create(name=collection, vector_config=Configure.Vectors.self_provided(),
                                         properties=[p for p in wv._properties() if p.name not in stored_props])
        def kept(docs: list[Doc]) -> tuple:  # type: ignore[type-arg]
            (doc,) = docs
            return doc.citation, doc.chunking, doc.metadata["source"]

        assert es.upsert([cited]).indexed == 1 and es.get(["old"])[0].text == "old"
        assert kept(es.get(["f:q1"])) == (cited.citation, "digest", "p.pdf")
        assert [h.doc_id for h in es.search("forces", Scope(), 5)] == ["f:q1"]
        # a document indexed before kernel terms has none: same content, yet its next upsert rewrites it
        stale = Doc(id="old", text="old")
        es._es.index(index=index, id="old", refresh=True,
                     document={"doc_id": "old", "text": "old", "content_hash": stale.content_hash()})
        assert es.search("old", Scope(), 5) == []
        assert es.upsert([stale]).indexed == 1 and [h.doc_id for h in es.search("old", Scope(), 5)] == ["old"]
        assert es.upsert([stale]).indexed == 0
        assert dense.upsert([cited], [[1.0, 0.0, 0.0]]).indexed == 1
        assert kept(dense.get(["f:q1"])) == (cited.citation, "digest", "p.pdf")
        assert [e.doc_id for e in es.entries("p.pdf")] == ["f:q1"] == [e.doc_id for e in dense.entries("p.pdf")]
    finally:
        es.drop()
        dense.drop()
        es.close()
        dense.close()
