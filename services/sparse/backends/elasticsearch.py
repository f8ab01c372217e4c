"""Sparse backend on Elasticsearch: BM25 with the gate pushed down as ``bool.filter``.

Why it looks like this ("Backends"):

* One index per corpus, created through an index template so the mapping is declared
  once: curriculum fields are ``keyword``/``integer`` (exact, case-sensitive, like the
  embedded mask), ``_id`` is the document id, and ``content_hash`` (stored, not indexed)
  lets an upsert skip unchanged documents after one ``mget``.
* Scoring: BM25 over ``terms``, the document's ``Doc.full_text`` cut by the kernel's
  :func:`chsr.text.tokenize` (Snowball English stems, CJK unigrams + bigrams) and indexed
  with the ``whitespace`` analyzer; the query is cut by the same function. Both backends
  therefore score the same tokens, and the gate's evidence probe sees the same hits on either
  (docs/decisions/one-tokenizer.md). k1/b are index ``similarity`` settings; defaults
  1.2/0.75 are the embedded backend's (and Lucene's) defaults. ``title`` and ``text`` keep
  the best English analyzer the distribution carries (:func:`choose_analyzer`) for ad-hoc
  queries by other tools; the mesh does not search them.
* Each document stores the tokenizer's name (``tokenizer``, :data:`chsr.text.TOKENIZER`). A
  document indexed under another name (or before ``terms`` existed) counts as changed, so
  its next upsert rewrites its terms; an index made before ``terms`` gets the field added
  on first use and logs that its documents need one re-ingest.
* Gating is pre-retrieval: each constrained field becomes one ``terms`` clause in
  ``bool.filter``; a document without the field never matches (null never matches).
* A chunk's citation (``citation.*``) and chunking digest are stored, not indexed; an index
  made before they existed gets them added to its mapping on first use (``put_mapping``: a
  strict mapping takes new fields, never changed ones). ``source`` is a keyword, so the chunks
  of one ingested file are listed by a ``term`` query.
* The index generation is the ``_version`` of one document in ``<index>-meta``: ES bumps
  it atomically on every write, so no scripting module is needed (the integ-test-zip has
  no painless).
* Every transport failure (refused, timeout) and 429/5xx becomes :class:`BackendUnavailable`,
  and the request timeout is short (5 s; ingest calls get 60 s) so a stopped engine fails fast.
* On a cluster (``CHSR_ES_URL`` lists several nodes; the client fails over between them) the
  index layout and the write quorum come from :mod:`services.sparse.backends.es_cluster`: shards,
  replicas, refresh interval and translog durability are settings, a write is acknowledged only
  when a majority of its copies took it, and a layout the cluster cannot hold stops the server at
  start-up (:meth:`ElasticsearchSparseBackend.check`).
"""

from __future__ import annotations

import logging
import re
import threading
from contextlib import contextmanager
from typing import Any, Iterator, Sequence

from elastic_transport import TransportError
from elasticsearch import ApiError, Elasticsearch, NotFoundError

from chsr.config import Settings
from chsr.errors import FailedPrecondition
from chsr.documents import METADATA_FIELDS, METADATA_INT, Citation, Doc
from services.retrieval.backend import BackendUnavailable, Hit, ItemFailure, StoredEntry, UpsertResult
from services.sparse.backends.es_cluster import IndexLayout, allocation_reason, copies_acknowledged
from services.sparse.lexical_models import CorpusSnapshot
from chsr.scope import Scope
from chsr.text import TOKENIZER, tokenize

log = logging.getLogger(__name__)

GENERATION_DOC = "generation"
BULK_CHUNK = 500          # documents per _bulk request (~1-2 MB for SciFact-sized chunks)
MGET_CHUNK = 1000
IDS_PAGE = 1000
UNAVAILABLE_STATUS = {429, 502, 503, 504}
#: Ids and scores only, the legs' default: no hit count, no stored fields (``_id`` and ``_source`` are
#: stored fields; the id comes from the ``doc_id`` keyword's doc values) and a response trimmed to what
#: is read. Measured on 100k chunks, gated queries, depth 100: ES CPU 5.2 -> 2.8 ms per query
#: (benchmarks/fast-defaults).
IDS_AND_SCORES: dict[str, Any] = {"track_total_hits": False, "source": False, "stored_fields": "_none_",
                                  "docvalue_fields": ["doc_id"], "filter_path": "hits.hits.fields.doc_id,hits.hits._score"}
#: The gate's probe wants each hit's curriculum fields only: read from doc values (keyword / integer), so
#: no stored ``_source`` (title, text) is decompressed and parsed.
IDS_SCORES_AND_METADATA: dict[str, Any] = IDS_AND_SCORES | {
    "docvalue_fields": ["doc_id", *METADATA_FIELDS], "filter_path": "hits.hits.fields,hits.hits._score"}
#: Stored fields a read never returns (bookkeeping and the derived terms).
SOURCE_EXCLUDES = ["content_hash", "terms", "tokenizer"]
ALLOCATION_TIMEOUT = "30s"   # how long start-up waits for an index's primaries to be allocated
WRITE_TIMEOUT = "30s"        # how long a write waits for its required copies to be active
_FIELD_IN_REASON = re.compile(r"failed to parse field \[([^\]]+)\]")


class ElasticsearchSparseBackend:
    name = "elasticsearch-bm25"

    def __init__(self, url: str, index: str, *, k1: float = 1.2, b: float = 0.75,
                 request_timeout_s: float = 5.0, bulk_timeout_s: float = 60.0,
                 layout: IndexLayout = IndexLayout(), allocation_timeout: str = ALLOCATION_TIMEOUT,
                 search_preference: str = "_local") -> None:
        hosts = [u.strip() for u in url.split(",") if u.strip()]
        # Several nodes: a refused or reset connection is retried once on each other node.
        self._es = Elasticsearch(hosts, request_timeout=request_timeout_s, max_retries=max(1, len(hosts) - 1),
                                 retry_on_timeout=False)
        self._bulk_es = self._es.options(request_timeout=bulk_timeout_s)
        self._url, self._index, self._meta = url, index, f"{index}-meta"
        self._k1, self._b = k1, b
        self._layout = layout
        # ``preference`` of every search: ``_local`` reads the reached node's own copy (no forwarding hop on a cluster)
        self._search_options: dict[str, Any] = {"preference": search_preference} if search_preference else {}
        self._allocation_timeout = allocation_timeout
        self._data_nodes = 1
        self._suspect: set[str] = set()  # ids whose last write reached too few copies: rewrite, never skip
        self._analyzer = ""
        self._ready = False
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Settings) -> "ElasticsearchSparseBackend":
        """BM25 k1/b and the query timeout from ``CHSR_ES_BM25_K1``, ``CHSR_ES_BM25_B``, ``CHSR_ES_TIMEOUT_S``."""
        return cls(settings.es_url, settings.es_index,
                   k1=settings.es_bm25_k1, b=settings.es_bm25_b,
                   request_timeout_s=settings.es_timeout_s, layout=IndexLayout.from_settings(settings),
                   search_preference=settings.es_search_preference)

    def check(self) -> None:
        """Start-up check: the layout fits the cluster and the index's shards are allocated.

        Raises :class:`FailedPrecondition` (the server exits naming the settings) when more copies
        are required than there are data nodes or a shard cannot be allocated; an unreachable
        cluster is :class:`BackendUnavailable` (the server starts and retries lazily)."""
        self._ensure()

    # ---- plumbing ------------------------------------------------------------
    @contextmanager
    def _guard(self, what: str) -> Iterator[None]:
        try:
            yield
        except TransportError as exc:
            raise BackendUnavailable(f"elasticsearch {what}: {type(exc).__name__}: {exc}") from exc
        except ApiError as exc:
            if exc.error == "index_not_found_exception":  # deleted behind our back: recreate next call
                self._ready = False
                raise BackendUnavailable(f"elasticsearch {what}: index {self._index} is missing") from exc
            if exc.status_code in UNAVAILABLE_STATUS:
                raise BackendUnavailable(f"elasticsearch {what}: HTTP {exc.status_code} {exc.error}") from exc
            raise

    def _ensure(self) -> None:
        """Create template, index and meta index once per process (idempotent, lazy so that a
        service can start while the engine is still down)."""
        if self._ready:
            return
        with self._lock, self._guard("create index"):
            if self._ready:
                return
            es = self._bulk_es  # index creation may take seconds on a busy node
            self._data_nodes = int(es.cluster.health()["number_of_data_nodes"])
            problems = self._layout.problems(self._data_nodes, self._known_nodes())
            if problems:
                raise FailedPrecondition(f"elasticsearch {self._url}: {'; '.join(problems)}")
            if self._layout.shortfall(self._data_nodes):
                log.warning("elasticsearch cluster degraded at start-up",
                            extra={"index": self._index, "reason": self._layout.shortfall(self._data_nodes)})
            self._analyzer, analysis = choose_analyzer(es)
            es.indices.put_index_template(
                name=f"{self._index}-template", index_patterns=[self._index], priority=500,
                template={"settings": self._index_settings(analysis), "mappings": self._mappings()})
            for index, body in ((self._index, {}), (self._meta, {"mappings": {"dynamic": False}})):
                if not es.indices.exists(index=index):
                    try:
                        es.indices.create(index=index, settings=self._layout.index_settings(), **body)
                    except ApiError as exc:
                        if exc.error != "resource_already_exists_exception":
                            raise
                else:
                    self._converge(index)
                self._wait_allocated(index)
            self._add_later_fields(es)
            self._ready = True
            log.info("elasticsearch index ready", extra={"index": self._index, "analyzer": self._analyzer,
                                                          **self._layout.describe(self._data_nodes)})

    def _add_later_fields(self, es: Elasticsearch) -> None:
        """Fields added after the first release (citations, kernel terms) put into an older index's
        mapping; a strict mapping takes new fields, never changed ones."""
        had = es.indices.get_mapping(index=self._index)[self._index]["mappings"].get("properties", {})
        es.indices.put_mapping(index=self._index, properties=_citation_properties() | _terms_properties())
        if "terms" not in had and es.count(index=self._index)["count"]:
            log.warning("elasticsearch index predates kernel terms: its documents are not found until they "
                        "are ingested again", extra={"index": self._index})

    def _known_nodes(self) -> int:
        """Nodes in the cluster's voting configuration (a node that is down still counts)."""
        state = self._bulk_es.cluster.state(
            metric="metadata", filter_path="metadata.cluster_coordination.last_committed_config")
        return len(state.get("metadata", {}).get("cluster_coordination", {}).get("last_committed_config", []))

    def _converge(self, index: str) -> None:
        """Apply the configured dynamic settings (replicas, refresh, durability) to an existing index;
        a different shard count cannot change in place and is logged."""
        current = self._bulk_es.indices.get_settings(index=index, flat_settings=True)[index]["settings"]
        wanted = self._layout.dynamic_settings()
        flat = {"index.refresh_interval": wanted["refresh_interval"],
                "index.translog.durability": wanted["translog"]["durability"],
                "index.auto_expand_replicas": wanted["auto_expand_replicas"]}
        if "number_of_replicas" in wanted:
            flat["index.number_of_replicas"] = str(wanted["number_of_replicas"])
        changed = {k: v for k, v in flat.items() if current.get(k, "false" if k.endswith("expand_replicas") else None) != v}
        if changed:
            self._bulk_es.indices.put_settings(index=index, settings=changed)
            log.info("elasticsearch index settings updated", extra={"index": index, "settings": changed})
        shards = current.get("index.number_of_shards")
        if shards is not None and int(shards) != self._layout.shards and index == self._index:
            log.warning("elasticsearch index keeps its shard count (reindex to change it)",
                        extra={"index": index, "shards": shards, "configured": self._layout.shards})

    def _wait_allocated(self, index: str) -> None:
        """Every primary allocated within :data:`ALLOCATION_TIMEOUT`, else FailedPrecondition quoting why."""
        health = self._bulk_es.options(ignore_status=408).cluster.health(
            index=index, wait_for_status="yellow", timeout=self._allocation_timeout)
        if health["status"] != "red" and not health.get("timed_out"):
            return
        try:
            explain = self._bulk_es.cluster.allocation_explain(index=index, shard=0, primary=True)
            reason = allocation_reason(dict(explain))
        except ApiError as exc:
            reason = str(exc.message)[:300]
        raise FailedPrecondition(f"elasticsearch index {index}: shards not allocated within {self._allocation_timeout} "
                                 f"(health {health['status']}, {health['unassigned_shards']} unassigned): {reason}")

    def _index_settings(self, analysis: dict[str, Any]) -> dict[str, Any]:
        return {**self._layout.index_settings(), "analysis": analysis,
                "similarity": {"default": {"type": "BM25", "k1": self._k1, "b": self._b}}}

    @staticmethod
    def _mappings() -> dict[str, Any]:
        props: dict[str, Any] = {
            "doc_id": {"type": "keyword"},
            "title": {"type": "text", "analyzer": "chsr_text"},
            "text": {"type": "text", "analyzer": "chsr_text"},
            "content_hash": {"type": "keyword", "index": False, "doc_values": False},
        }
        for name in METADATA_FIELDS:
            props[name] = {"type": "integer"} if name in METADATA_INT else {"type": "keyword"}
        props.update(_citation_properties())
        props.update(_terms_properties())
        return {"dynamic": "strict", "properties": props}

    def _bump_generation(self) -> int:
        need = self._required_copies()
        resp = self._bulk_es.index(index=self._meta, id=GENERATION_DOC, document={"index": self._index},
                                   wait_for_active_shards=str(need), timeout=WRITE_TIMEOUT)
        return int(resp["_version"])

    def _required_copies(self) -> int:
        """Copies a write must reach now (a majority of the copies the live data nodes can hold)."""
        self._data_nodes = int(self._bulk_es.cluster.health()["number_of_data_nodes"])
        return self._layout.required_copies(self._data_nodes)

    # ---- writes --------------------------------------------------------------
    def upsert(self, docs: Sequence[Doc]) -> UpsertResult:
        self._ensure()
        result = UpsertResult()
        with self._guard("upsert"):
            known = self._hashes([d.id for d in docs])
            changed = [d for d in docs if known.get(d.id) != d.content_hash() or d.id in self._suspect]
            result.unchanged = len(docs) - len(changed)
            need = self._required_copies() if changed else 1
            for start in range(0, len(changed), BULK_CHUNK):
                self._bulk_index(changed[start:start + BULK_CHUNK], result, need)
            if result.indexed:
                self._bulk_es.indices.refresh(index=self._index)
                self._bump_generation()
        return result

    def _hashes(self, ids: list[str]) -> dict[str, str]:
        out: dict[str, str] = {}
        for start in range(0, len(ids), MGET_CHUNK):
            chunk = ids[start:start + MGET_CHUNK]
            resp = self._bulk_es.mget(index=self._index, ids=chunk, source=["content_hash", "tokenizer"])
            for d in resp["docs"]:
                if d.get("found"):  # terms cut by another tokenizer are stale: the document counts as changed
                    current = d["_source"].get("tokenizer") == TOKENIZER
                    out[d["_id"]] = d["_source"].get("content_hash", "") if current else ""
        return out

    def _bulk_index(self, docs: list[Doc], result: UpsertResult, need: int = 1) -> None:
        """One ``_bulk`` that starts once ``need`` copies are active; an item that ``need`` copies did
        not acknowledge fails the whole call (BackendUnavailable: the batch is retried, and those ids
        are rewritten rather than skipped as unchanged)."""
        ops: list[dict[str, Any]] = []
        for d in docs:
            ops.append({"index": {"_index": self._index, "_id": d.id}})
            ops.append(_to_source(d))
        resp = self._bulk_es.bulk(operations=ops, wait_for_active_shards=str(need), timeout=WRITE_TIMEOUT)
        short: list[str] = []
        for doc, item in zip(docs, resp["items"]):
            outcome = item["index"]
            if outcome.get("error"):
                if outcome.get("status") in UNAVAILABLE_STATUS or outcome["error"].get("type") in (
                        "unavailable_shards_exception", "no_shard_available_action_exception"):
                    short.append(doc.id)
                else:
                    result.errors.append(_item_failure(doc.id, outcome["error"]))
            elif copies_acknowledged(outcome) < need:
                short.append(doc.id)
            else:
                result.indexed += 1
                self._suspect.discard(doc.id)
        if short:
            self._suspect.update(short)
            raise BackendUnavailable(f"elasticsearch upsert: {len(short)} documents were not acknowledged by "
                                     f"{need} copies (not durable); retry the batch")

    def delete(self, ids: Sequence[str]) -> int:
        if not ids:
            return 0
        self._ensure()
        deleted = 0
        with self._guard("delete"):
            for start in range(0, len(ids), BULK_CHUNK):
                ops = [{"delete": {"_index": self._index, "_id": i}} for i in ids[start:start + BULK_CHUNK]]
                resp = self._bulk_es.bulk(operations=ops, wait_for_active_shards=str(self._required_copies()),
                                          timeout=WRITE_TIMEOUT)
                deleted += sum(1 for item in resp["items"] if item["delete"].get("result") == "deleted")
            if deleted:
                self._bulk_es.indices.refresh(index=self._index)
                self._bump_generation()
        return deleted

    # ---- queries -------------------------------------------------------------
    def search(self, query: str, flt: Scope, k: int, with_docs: bool = True,
               metadata_only: bool = False) -> list[Hit]:
        if k <= 0 or not query.strip():
            return []
        self._ensure()
        terms = tokenize(query)
        if not terms:
            return []
        body = {"bool": {"must": [{"match": {"terms": {"query": " ".join(terms)}}}],
                         "filter": scope_filter(flt)}}
        with self._guard("search"):
            if metadata_only:
                resp = self._es.search(index=self._index, query=body, size=k, **IDS_SCORES_AND_METADATA,
                                       **self._search_options)
                return [Hit(doc_id=h["fields"]["doc_id"][0], score=float(h["_score"]), doc=_from_doc_values(h["fields"]))
                        for h in resp.get("hits", {}).get("hits", [])]
            if with_docs:
                resp = self._es.search(index=self._index, query=body, size=k, track_total_hits=False,
                                       source_excludes=SOURCE_EXCLUDES, **self._search_options)
            else:
                resp = self._es.search(index=self._index, query=body, size=k, **IDS_AND_SCORES, **self._search_options)
                return [Hit(doc_id=h["fields"]["doc_id"][0], score=float(h["_score"]))
                        for h in resp.get("hits", {}).get("hits", [])]
        return [Hit(doc_id=h["_id"], score=float(h["_score"]), doc=_from_source(h["_id"], h["_source"]))
                for h in resp["hits"]["hits"]]

    def get(self, ids: Sequence[str]) -> list[Doc]:
        if not ids:
            return []
        self._ensure()
        found: dict[str, Doc] = {}
        with self._guard("get"):
            for start in range(0, len(ids), MGET_CHUNK):
                resp = self._es.mget(index=self._index, ids=list(ids[start:start + MGET_CHUNK]),
                                     source_excludes=SOURCE_EXCLUDES)
                found.update({d["_id"]: _from_source(d["_id"], d["_source"]) for d in resp["docs"] if d.get("found")})
        return [found[i] for i in dict.fromkeys(ids) if i in found]

    def count(self) -> int:
        self._ensure()
        with self._guard("count"):
            return int(self._es.count(index=self._index)["count"])

    def _scan(self, what: str, es: Any = None, **params: Any) -> Iterator[dict[str, Any]]:
        """Every hit of a search, in ``doc_id`` order, paged with ``search_after`` on the ``doc_id``
        keyword (sorting on ``_id`` needs fielddata, which ES 8 disables)."""
        es = es or self._es
        after: list[Any] | None = None
        while True:
            with self._guard(what):
                resp = es.search(index=self._index, size=IDS_PAGE, track_total_hits=False,
                                 sort=[{"doc_id": "asc"}], search_after=after, **params)
            hits = resp["hits"]["hits"]
            yield from hits
            if len(hits) < IDS_PAGE:
                return
            after = hits[-1]["sort"]

    def ids(self) -> Iterator[str]:
        """All ids, sorted."""
        self._ensure()
        for h in self._scan("ids", source=False):
            yield h["_id"]

    def entries(self, source: str = "") -> Iterator[StoredEntry]:
        """Id, content hash and source of every document (or of ``source``'s), in id order."""
        self._ensure()
        query = {"term": {"source": source}} if source else {"match_all": {}}
        for h in self._scan("entries", query=query, source=["content_hash", "source"]):
            src = h.get("_source") or {}
            yield StoredEntry(h["_id"], src.get("content_hash") or "", src.get("source") or "")

    def snapshot(self) -> CorpusSnapshot:
        """Every stored document, in id order (the TF-IDF and PPMI models are computed in the sparse
        server over these; docs/decisions.md). The generation is read first: a write during the scan
        makes the next search take a new snapshot."""
        generation = self.generation()
        hits = self._scan("snapshot", self._bulk_es, source_excludes=SOURCE_EXCLUDES)
        return CorpusSnapshot(generation, [_from_source(h["_id"], h["_source"]) for h in hits])

    def generation(self) -> int:
        self._ensure()
        with self._guard("generation"):
            try:
                return int(self._es.get(index=self._meta, id=GENERATION_DOC, source=False)["_version"])
            except NotFoundError:
                return 0

    def details(self) -> dict[str, str]:
        return {"engine": "elasticsearch", "url": self._url, "index": self._index, "analyzer": self._analyzer,
                "tokenizer": TOKENIZER, "k1": str(self._k1), "b": str(self._b), "query": "match(terms) + bool.filter",
                **self._layout.describe(self._data_nodes)}

    def drop(self) -> None:
        """Delete the index, its meta index and template (tests and ``chsr reset`` only)."""
        with self._guard("drop"):
            self._es.indices.delete(index=[self._index, self._meta], ignore_unavailable=True)
            self._es.options(ignore_status=404).indices.delete_index_template(name=f"{self._index}-template")
        self._ready = False

    def close(self) -> None:
        self._es.close()


#: Analyzer chains, best first. ``english`` is the stock analyzer of full distributions (Porter-style
#: Snowball stemmer, possessives, stop words). The integ-test-zip we provision has no analysis-common
#: module (no stemmer/snowball/kstem), but core Lucene keeps ``hunspell``; with the en_US dictionary
#: that deploy/local installs it gives dictionary stemming (cats->cat, gases->gas). The last
#: resort is lowercase + English stop words. All use the standard tokenizer, which splits CJK
#: ideographs into single characters, so CJK text stays searchable. They analyse ``title`` and ``text``
#: only, for other tools' ad-hoc queries; the mesh's BM25 runs over the kernel-tokenized ``terms``.
ANALYZERS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("english", {"analyzer": {"chsr_text": {"type": "english"}}}),
    ("standard+stop+hunspell_en_US", {
        "filter": {"chsr_stop": {"type": "stop", "stopwords": "_english_"},
                   "chsr_hunspell": {"type": "hunspell", "locale": "en_US", "dedup": True, "longest_only": True}},
        "analyzer": {"chsr_text": {"type": "custom", "tokenizer": "standard",
                                   "filter": ["lowercase", "chsr_stop", "chsr_hunspell"]}}}),
    ("standard+stop", {
        "filter": {"chsr_stop": {"type": "stop", "stopwords": "_english_"}},
        "analyzer": {"chsr_text": {"type": "custom", "tokenizer": "standard", "filter": ["lowercase", "chsr_stop"]}}}),
)


def choose_analyzer(es: Elasticsearch) -> tuple[str, dict[str, Any]]:
    """The first chain of :data:`ANALYZERS` the server accepts (probed with ``_analyze``)."""
    for name, analysis in ANALYZERS:
        spec = analysis["analyzer"]["chsr_text"]
        try:
            if spec["type"] == "custom":
                filters = [analysis["filter"].get(f, f) for f in spec["filter"]]
                es.indices.analyze(tokenizer=spec["tokenizer"], filter=filters, text="cats")
            else:
                es.indices.analyze(analyzer=spec["type"], text="cats")
            return name, analysis
        except ApiError as exc:
            log.info("analyzer unavailable", extra={"analyzer": name, "reason": str(exc.message)[:200]})
    raise RuntimeError("no usable analyzer")  # standard+stop only needs core modules


def scope_filter(flt: Scope) -> list[dict[str, Any]]:
    """One ``terms`` clause per constrained field, ANDed by ``bool.filter``."""
    return [{"terms": {name: list(values)}} for name, values in flt.items()]


def _citation_properties() -> dict[str, Any]:
    """Stored, never searched: ``index: false`` (and no doc values for strings)."""
    def stored(kind: str) -> dict[str, Any]:
        return {"type": kind, "index": False} | ({"doc_values": False} if kind == "keyword" else {})
    citation = {name: stored("integer") for name in ("page_start", "page_end", "question_number")}
    citation |= {name: stored("keyword") for name in ("source", "title", "heading_path")}
    return {"citation": {"type": "object", "properties": citation}, "chunking": stored("keyword")}


def _terms_properties() -> dict[str, Any]:
    """``terms``: the kernel tokenizer's output, space-joined, split again on whitespace only (the
    ``whitespace`` analyzer is in every distribution, the integ-test zip included); ``tokenizer``:
    stored, not indexed."""
    return {"terms": {"type": "text", "analyzer": "whitespace"},
            "tokenizer": {"type": "keyword", "index": False, "doc_values": False}}


def _to_source(doc: Doc) -> dict[str, Any]:
    src: dict[str, Any] = {"doc_id": doc.id, "title": doc.title, "text": doc.text,
                           "terms": " ".join(tokenize(doc.full_text)), "tokenizer": TOKENIZER,
                           "content_hash": doc.content_hash()}
    src.update({k: v for k, v in doc.metadata.items() if k in METADATA_FIELDS and v is not None})
    if doc.citation is not None:
        src["citation"] = {k: v for k, v in doc.citation.to_dict().items() if v is not None}
    if doc.chunking:
        src["chunking"] = doc.chunking
    return src


def _from_doc_values(fields: dict[str, list[Any]]) -> Doc:
    """A hit's id and curriculum fields (no text) from its doc values."""
    return Doc(id=fields["doc_id"][0], text="",
               metadata={name: fields[name][0] if fields.get(name) else None for name in METADATA_FIELDS})


def _from_source(doc_id: str, src: dict[str, Any]) -> Doc:
    return Doc(id=doc_id, text=src.get("text", ""), title=src.get("title", ""),
               metadata={name: src.get(name) for name in METADATA_FIELDS},
               citation=Citation.from_dict(src.get("citation")), chunking=src.get("chunking") or "")


def _item_failure(doc_id: str, error: dict[str, Any]) -> ItemFailure:
    reason = str(error.get("reason", error))
    caused = error.get("caused_by", {}).get("reason")
    match = _FIELD_IN_REASON.search(reason)
    field = match.group(1) if match else "document"
    if field in METADATA_FIELDS:
        field = f"metadata.{field}"
    message = f"{error.get('type', 'error')}: {reason}" + (f" ({caused})" if caused else "")
    return ItemFailure(doc_id=doc_id, field=field, message=message.split("\n", 1)[0][:400])
