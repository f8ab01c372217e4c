"""Dense backend on Weaviate (v4 client, gRPC): HNSW ``near_vector`` with the gate as a ``where`` filter.

Why it looks like this ("Backends"):

* One collection, ``vectorizer: none`` (vectors come from our MiniLM encoder), cosine distance,
  HNSW ``ef``/``efConstruction``/``maxConnections`` from settings; the defaults (128/200/16) are
  the embedded hnswlib backend's so the two are comparable.
* Object UUID = ``generate_uuid5(doc_id)``: re-ingesting a document overwrites the same object.
  ``content_hash`` is stored so an upsert skips unchanged documents after one fetch.
* Curriculum properties are filterable: strings are ``TEXT`` with ``field`` tokenization (the
  whole value is one case-sensitive token, like an ES keyword), integers are ``INT``. The gate
  becomes ``all_of(any_of(equal(v) for v in values) for each field)``. A property that is null
  is simply not stored, and ``equal`` never matches an absent value, so null never matches.
* Score = ``1 - cosine_distance`` = cosine similarity in [-1, 1], the embedded backend's score.
* ``exact=True``: Weaviate has no per-query flat search. By default the query is a plain HNSW
  search (ef 128; on SciFact exact and HNSW gave identical nDCG@10). ``CHSR_WEAVIATE_EXACT_POOL=N``
  asks for at least N results instead, which raises the effective ``ef`` (HNSW uses
  ``max(ef, limit)``), then keeps the top k: near-exact, at several times the query cost.
  Filtered queries whose allow-list is below ``flatSearchCutoff`` (server default 40000) are
  brute-forced by Weaviate anyway, so on corpora of SciFact size gated queries are exact.
* A chunk's citation and chunking digest are plain properties (``citation_source``,
  ``citation_title``, ``page_start``, ``page_end``, ``heading_path`` (text[]),
  ``citation_question_number``, ``chunking``), stored but neither searched nor filtered; a
  collection made before they existed gets them added on first use. The chunks of one source
  are listed with a ``source`` filter, paged by ``doc_id`` (keyset: Weaviate's cursor does not
  combine with filters).
* The generation lives in a one-object ``<Collection>Meta`` collection, bumped on every change.
  It is a read-modify-write guarded by a process lock: one dense service writes per collection.
* Connection refused / timeouts / gRPC UNAVAILABLE become :class:`BackendUnavailable`; the client
  connects lazily (2 s init timeout, 5 s queries) so the service starts while Weaviate is down.
* On a cluster, replication, consistency levels and endpoint failover follow
  :mod:`services.dense.backends.weaviate_cluster`; :meth:`WeaviateDenseBackend.check` runs at
  start-up and refuses a replication factor the cluster cannot hold.
* Passage mode (``CHSR_DENSE_PASSAGES=maxp``) is embedded-only: this backend stores one
  object per document, and :meth:`from_settings` refuses ``maxp`` rather than index whole-document
  vectors under a setting that promises passages.
"""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence, TypeVar

import grpc
import httpx
import weaviate
import weaviate.connect.v4
from weaviate.classes.config import (ConsistencyLevel, Configure, DataType, Property, ReplicationDeletionStrategy,
                                     Tokenization, VectorDistances)
from weaviate.classes.data import DataObject
from weaviate.classes.init import AdditionalConfig, Timeout
from weaviate.classes.query import Filter, MetadataQuery, Sort
from weaviate.collections import Collection
from weaviate.connect import ConnectionParams
from weaviate.exceptions import (UnexpectedStatusCodeError, WeaviateBaseError, WeaviateInsertManyAllFailedError,
                                 WeaviateQueryError, WeaviateRetryError)
from weaviate.retry import _Retry
from weaviate.util import generate_uuid5

from chsr.config import Consistency, Settings
from chsr.errors import FailedPrecondition
from chsr.documents import METADATA_FIELDS, METADATA_INT, Citation, Doc
from services.retrieval.backend import BackendUnavailable, Hit, ItemFailure, StoredEntry, UpsertResult
from chsr.scope import Scope
from chsr.config import PassageMode
from services.dense.backends.weaviate_cluster import Replication, endpoints, resolve_factor

log = logging.getLogger(__name__)
T = TypeVar("T")

BATCH_SIZE = 200      # objects per insert_many call (fixed-size batches; ~0.5 MB with 384-d vectors)
FETCH_CHUNK = 500
EXACT_POOL = 0  # set CHSR_WEAVIATE_EXACT_POOL (e.g. 1000) to widen the HNSW walk for exact=True
GENERATION_UUID = generate_uuid5("chsr-generation")
#: Citation fields: property name -> (Citation attribute, data type).
CITATION_PROPS = {"citation_source": ("source", DataType.TEXT), "citation_title": ("title", DataType.TEXT),
                  "page_start": ("page_start", DataType.INT), "page_end": ("page_end", DataType.INT),
                  "heading_path": ("heading_path", DataType.TEXT_ARRAY),
                  "citation_question_number": ("question_number", DataType.INT)}
RETURN_PROPS = ["doc_id", "title", "text", *METADATA_FIELDS, *CITATION_PROPS, "chunking"]
METADATA_PROPS = ["doc_id", *METADATA_FIELDS]   # the gate's probe: curriculum fields, no text
ENTRIES_PAGE = 1000
_UNAVAILABLE_MARKERS = ("UNAVAILABLE", "DEADLINE_EXCEEDED", "Connection refused", "failed to connect", "timed out")
# Per-object write errors that mean "not enough replicas took it", not "this object is bad".
_REPLICA_MARKERS = ("consistency level", "replica", "broadcast", "coordinator", "connection refused", "UNAVAILABLE")
_LEVELS = {Consistency.ONE: ConsistencyLevel.ONE, Consistency.QUORUM: ConsistencyLevel.QUORUM,
           Consistency.ALL: ConsistencyLevel.ALL}


class _FailFast(_Retry):
    """weaviate-client answers a gRPC UNAVAILABLE by sleeping 1 + 2 + 4 + 8 + 16 s and retrying the same
    node, far past any search deadline (measured: every dense call for 11 s after a node was killed
    ran out of its 1.2 s share). Here UNAVAILABLE is raised at once, so the backend fails over to the
    next node (or reports the leg unavailable) within the request's budget."""

    def with_exponential_backoff(self, count, error, f, *args, **kwargs):  # type: ignore[no-untyped-def,override]
        try:
            return f(*args, **kwargs)
        except grpc.RpcError as exc:
            if exc.code() != grpc.StatusCode.UNAVAILABLE:  # type: ignore[attr-defined]
                raise
            raise WeaviateRetryError(f"UNAVAILABLE: {exc}", count) from exc


weaviate.connect.v4._Retry = _FailFast  # type: ignore[misc]  # the client's sync connection looks it up per call


def _host_port(addr: str) -> tuple[str, int]:
    host, _, port = addr.rpartition(":")
    return host or "127.0.0.1", int(port)


class WeaviateDenseBackend:
    name = "weaviate-hnsw"
    passage_mode = PassageMode.OFF  # one object per document; see from_settings

    def __init__(self, http_addr: str, grpc_addr: str, collection: str, dim: int, *,
                 ef: int = 128, ef_construction: int = 200, max_connections: int = 16,
                 query_timeout_s: float = 5.0, exact_pool: int = EXACT_POOL,
                 replication: Replication = Replication()) -> None:
        self._clients = [_client(http, grpc, query_timeout_s) for http, grpc in endpoints(http_addr, grpc_addr)]
        self._current = 0   # index of the node this process talks to; moves on when it is unreachable
        self._pinned = threading.local()  # the node one call's attempt is on (``_failover``), per thread
        self._replication = replication
        self._factor = 0    # the collection's replication factor, read at start-up
        self._http_addr, self._collection_name, self._meta_name = http_addr, collection, f"{collection}Meta"
        self._dim, self._ef, self._ef_construction, self._max_connections = dim, ef, ef_construction, max_connections
        self._exact_pool = exact_pool
        self._ready = False
        self._lock = threading.RLock()

    @classmethod
    def from_settings(cls, settings: Settings, dim: int) -> "WeaviateDenseBackend":
        """HNSW values from ``CHSR_WEAVIATE_EF``, ``..._EF_CONSTRUCTION`` and ``..._MAX_CONNECTIONS``.
        Raises ``ValueError`` for ``CHSR_DENSE_PASSAGES`` other than ``off`` (embedded backend only)."""
        if settings.dense_passages is not PassageMode.OFF:
            raise ValueError("CHSR_DENSE_PASSAGES=maxp is implemented by the embedded dense backend only; the "
                             "Weaviate backend (CHSR_BACKEND=engines) stores one object per document. Unset "
                             "CHSR_DENSE_PASSAGES or use CHSR_BACKEND=embedded.")
        return cls(settings.weaviate_http, settings.weaviate_grpc, settings.weaviate_collection, dim,
                   ef=settings.weaviate_ef,
                   ef_construction=settings.weaviate_ef_construction,
                   max_connections=settings.weaviate_max_connections,
                   exact_pool=settings.weaviate_exact_pool, replication=Replication.from_settings(settings))

    @property
    def _node(self) -> int:
        """The node this thread's call talks to: the one its ``_failover`` attempt is on, else the current one."""
        node = getattr(self._pinned, "node", None)
        return self._current if node is None else node

    @property
    def _client(self) -> weaviate.WeaviateClient:
        return self._clients[self._node]

    def _failover(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` on the current node; when it is unreachable, once more on each other node, in order.

        Each call walks the nodes from where it started, whatever other threads do meanwhile, so it tries
        every node exactly once; the shared pointer moves off a node only while it still points at it (a
        burst of calls failing on one dead node moves it once, not once per call, which could cycle it
        back onto the dead node under load)."""
        if getattr(self._pinned, "node", None) is not None:  # called from inside another call's attempt
            return fn()
        start, count = self._current, len(self._clients)
        try:
            for attempt in range(count):
                node = (start + attempt) % count
                self._pinned.node = node
                try:
                    return fn()
                except BackendUnavailable:
                    if attempt == count - 1:
                        raise
                    with self._lock:
                        if self._current == node:
                            self._current = (node + 1) % count
                    log.warning("weaviate node unreachable, trying the next", extra={"node": (node + 1) % count})
        finally:
            self._pinned.node = None
        raise AssertionError("unreachable")

    def check(self) -> None:
        """Start-up check: the replication factor fits the cluster (FailedPrecondition if not); the
        collection is created with it. An unreachable cluster is BackendUnavailable (lazy retry)."""
        self._failover(lambda: self._guarded("check", self._coll))

    # ---- plumbing ------------------------------------------------------------
    @contextmanager
    def _guard(self, what: str) -> Iterator[None]:
        try:
            yield
        except (httpx.TransportError, WeaviateQueryError, UnexpectedStatusCodeError, WeaviateBaseError) as exc:
            if _is_unavailable(exc):
                raise BackendUnavailable(f"weaviate {what}: {type(exc).__name__}: {str(exc)[:300]}") from exc
            raise

    def _guarded(self, what: str, fn: Callable[[], T]) -> T:
        with self._guard(what):
            return fn()

    def _coll(self, level: Consistency | None = None) -> Collection:
        """The collection at the read level (or ``level``), connecting and creating it (and the meta
        collection) on first use."""
        with self._lock:
            if not self._client.is_connected():
                self._client.connect()
            if not self._ready:
                self._create_if_missing()
                self._ready = True
        coll = self._client.collections.get(self._collection_name)
        return coll.with_consistency_level(_LEVELS[level or self._replication.read])

    def _nodes(self) -> tuple[int, int]:
        """(nodes the cluster knows, nodes HEALTHY) from ``/v1/cluster/statistics``: its Raft
        configuration lists every member, down or not (``/v1/nodes`` answers 500 while one is down)."""
        http = endpoints(self._http_addr, self._http_addr)[self._node][0]
        resp = httpx.get(f"http://{http}/v1/cluster/statistics", timeout=5)
        if resp.status_code >= 500:
            raise BackendUnavailable(f"weaviate cluster statistics: HTTP {resp.status_code} {resp.text[:200]}")
        resp.raise_for_status()
        stats = resp.json()["statistics"]
        members = {m["id"] for s in stats for m in s.get("raft", {}).get("latestConfiguration", [])}
        healthy = sum(1 for s in stats if s.get("status") == "HEALTHY")
        return max(len(members), len(stats)), healthy

    def _create_if_missing(self) -> None:
        cols = self._client.collections
        known, healthy = self._nodes()
        factor = resolve_factor(self._replication.factor, known)
        problems = self._replication.problems(factor, known)
        if problems:
            raise FailedPrecondition(f"weaviate {self._http_addr}: {'; '.join(problems)}")
        replication = Configure.replication(factor=factor, async_enabled=factor > 1,
                                            deletion_strategy=ReplicationDeletionStrategy.TIME_BASED_RESOLUTION)
        if not cols.exists(self._collection_name):
            hnsw = Configure.VectorIndex.hnsw(distance_metric=VectorDistances.COSINE, ef=self._ef,
                                              ef_construction=self._ef_construction,
                                              max_connections=self._max_connections)
            _create(cols, name=self._collection_name, properties=_properties(), replication_config=replication,
                    vector_config=Configure.Vectors.self_provided(vector_index_config=hnsw))
        else:  # made before citations were stored: add what is missing
            coll = cols.get(self._collection_name)
            have = {p.name for p in coll.config.get().properties}
            for prop in _stored_properties():
                if prop.name not in have:
                    coll.config.add_property(prop)
        if not cols.exists(self._meta_name):
            _create(cols, name=self._meta_name, properties=[Property(name="generation", data_type=DataType.INT)],
                    replication_config=replication, vector_config=Configure.Vectors.self_provided())
        self._factor = int(cols.get(self._collection_name).config.get().replication_config.factor)
        if self._factor != factor:
            log.warning("weaviate collection keeps the replication factor it was created with",
                        extra={"collection": self._collection_name, "factor": self._factor, "configured": factor})
        shortfall = self._replication.shortfall(self._factor, healthy)
        if shortfall:
            log.warning("weaviate cluster degraded at start-up", extra={"reason": shortfall})
        log.info("weaviate collection ready", extra={"collection": self._collection_name, "factor": self._factor})

    def _bump_generation(self) -> None:
        with self._lock:
            level = _LEVELS[self._replication.write]
            meta = self._client.collections.get(self._meta_name).with_consistency_level(level)
            new = self._generation(self._replication.write) + 1
            resp = meta.data.insert_many([DataObject(properties={"generation": new}, uuid=GENERATION_UUID)])
            if resp.errors:
                raise BackendUnavailable(f"weaviate generation bump: {str(resp.errors[0].message)[:300]}")

    # ---- writes --------------------------------------------------------------
    def upsert(self, docs: Sequence[Doc], vectors: Any = None) -> UpsertResult:
        if vectors is None or len(vectors) != len(docs):
            raise ValueError("dense upsert needs one vector per document")
        return self._failover(lambda: self._upsert(docs, vectors))

    def _upsert(self, docs: Sequence[Doc], vectors: Any) -> UpsertResult:
        result = UpsertResult()
        with self._guard("upsert"):
            coll = self._coll(self._replication.write)
            known = self._hashes(coll, [d.id for d in docs])
            changed = [i for i, d in enumerate(docs) if known.get(d.id) != d.content_hash()]
            result.unchanged = len(docs) - len(changed)
            for start in range(0, len(changed), BATCH_SIZE):
                batch = changed[start:start + BATCH_SIZE]
                self._insert(coll, [docs[i] for i in batch], [vectors[i] for i in batch], result)
            if result.indexed:
                self._bump_generation()
        return result

    def _insert(self, coll: Collection, docs: list[Doc], vectors: list[Any], result: UpsertResult) -> None:
        objects, sent = [], []
        for doc, vec in zip(docs, vectors):
            values = [float(x) for x in vec]
            if len(values) != self._dim:
                message = f"expected {self._dim} dimensions, got {len(values)}"
                result.errors.append(ItemFailure(doc.id, "vector", message))
                continue
            objects.append(DataObject(properties=_to_properties(doc), uuid=generate_uuid5(doc.id), vector=values))
            sent.append(doc)
        if not objects:
            return
        try:
            resp = coll.data.insert_many(objects)
            failed = {i: e.message for i, e in resp.errors.items()}
        except WeaviateInsertManyAllFailedError as exc:
            failed = {i: str(exc)[:400] for i in range(len(sent))}
        short = [sent[i].id for i, msg in failed.items() if any(m in str(msg) for m in _REPLICA_MARKERS)]
        if short:  # too few replicas acknowledged: the batch is not durable, retry it (never half-acked)
            raise BackendUnavailable(f"weaviate upsert: {len(short)} objects not acknowledged at "
                                     f"{self._replication.write.value}: {str(next(iter(failed.values())))[:300]}")
        for i, doc in enumerate(sent):
            if i in failed:
                result.errors.append(ItemFailure(doc.id, "document", str(failed[i])[:400]))
            else:
                result.indexed += 1

    def _hashes(self, coll: Collection, ids: list[str]) -> dict[str, str]:
        out: dict[str, str] = {}
        for start in range(0, len(ids), FETCH_CHUNK):
            uuids = [generate_uuid5(i) for i in ids[start:start + FETCH_CHUNK]]
            resp = coll.query.fetch_objects(filters=Filter.by_id().contains_any(uuids), limit=len(uuids),
                                            return_properties=["doc_id", "content_hash"])
            out.update({o.properties["doc_id"]: o.properties.get("content_hash") or "" for o in resp.objects})
        return out

    def delete(self, ids: Sequence[str]) -> int:
        if not ids:
            return 0
        deleted = 0
        with self._guard("delete"):
            coll = self._coll()
            for start in range(0, len(ids), FETCH_CHUNK):
                uuids = [generate_uuid5(i) for i in ids[start:start + FETCH_CHUNK]]
                deleted += coll.data.delete_many(where=Filter.by_id().contains_any(uuids)).successful
            if deleted:
                self._bump_generation()
        return deleted

    # ---- queries -------------------------------------------------------------
    def search(self, vector: Sequence[float], flt: Scope, k: int, exact: bool = False,
               with_docs: bool = True, metadata_only: bool = False) -> list[Hit]:
        if k <= 0:
            return []
        props = METADATA_PROPS if metadata_only else RETURN_PROPS if with_docs else ["doc_id"]
        return self._failover(lambda: self._search(vector, flt, k, exact, props))

    def _search(self, vector: Sequence[float], flt: Scope, k: int, exact: bool, props: list[str]) -> list[Hit]:
        with_docs = props != ["doc_id"]
        with self._guard("search"):
            resp = self._coll().query.near_vector(
                near_vector=[float(x) for x in vector], limit=max(k, self._exact_pool) if exact else k,
                filters=scope_filter(flt), return_metadata=MetadataQuery(distance=True),
                return_properties=props)
        hits = [Hit(doc_id=o.properties["doc_id"], score=1.0 - float(o.metadata.distance),
                    doc=_from_properties(o.properties) if with_docs else None) for o in resp.objects]
        return sorted(hits, key=lambda h: -h.score)[:k]

    def get(self, ids: Sequence[str]) -> list[Doc]:
        return self._failover(lambda: self._get(ids))

    def _get(self, ids: Sequence[str]) -> list[Doc]:
        found: dict[str, Doc] = {}
        with self._guard("get"):
            coll = self._coll()
            unique = list(dict.fromkeys(ids))
            for start in range(0, len(unique), FETCH_CHUNK):
                uuids = [generate_uuid5(i) for i in unique[start:start + FETCH_CHUNK]]
                resp = coll.query.fetch_objects(filters=Filter.by_id().contains_any(uuids), limit=len(uuids),
                                                return_properties=RETURN_PROPS)
                found.update({o.properties["doc_id"]: _from_properties(o.properties) for o in resp.objects})
        return [found[i] for i in dict.fromkeys(ids) if i in found]

    def count(self) -> int:
        def count() -> int:
            with self._guard("count"):
                return int(self._coll().aggregate.over_all(total_count=True).total_count or 0)
        return self._failover(count)

    def ids(self) -> Iterator[str]:
        """All ids via the cursor iterator (ordered by UUID, not by insertion)."""
        with self._guard("ids"):
            iterator = iter(self._coll().iterator(return_properties=["doc_id"]))
        while True:
            with self._guard("ids"):
                obj = next(iterator, None)
            if obj is None:
                return
            yield obj.properties["doc_id"]

    def entries(self, source: str = "") -> Iterator[StoredEntry]:
        """Id, content hash and source of every object, or of ``source``'s (keyset-paged by doc_id)."""
        props = ["doc_id", "content_hash", "source"]
        if not source:
            with self._guard("entries"):
                iterator = iter(self._coll().iterator(return_properties=props))
            while True:
                with self._guard("entries"):
                    obj = next(iterator, None)
                if obj is None:
                    return
                yield _entry(obj.properties)
        last = ""
        while True:
            flt = Filter.by_property("source").equal(source)
            if last:
                flt = flt & Filter.by_property("doc_id").greater_than(last)
            with self._guard("entries"):
                resp = self._coll().query.fetch_objects(filters=flt, limit=ENTRIES_PAGE, return_properties=props,
                                                        sort=Sort.by_property("doc_id", ascending=True))
            for obj in resp.objects:
                yield _entry(obj.properties)
            if len(resp.objects) < ENTRIES_PAGE:
                return
            last = resp.objects[-1].properties["doc_id"]

    def generation(self) -> int:
        return self._failover(lambda: self._generation(self._replication.read))

    def _generation(self, level: Consistency) -> int:
        with self._guard("generation"):
            self._coll()
            meta = self._client.collections.get(self._meta_name).with_consistency_level(_LEVELS[level])
            obj = meta.query.fetch_object_by_id(GENERATION_UUID)
        return int(obj.properties.get("generation") or 0) if obj is not None else 0

    def details(self) -> dict[str, str]:
        return {"engine": "weaviate", "url": self._http_addr, "collection": self._collection_name,
                "index": "hnsw", "dim": str(self._dim), "similarity": "cosine (1 - cosine distance)",
                "ef": str(self._ef), "ef_construction": str(self._ef_construction),
                "max_connections": str(self._max_connections), "exact": f"near-exact: limit>={self._exact_pool}" if self._exact_pool else "hnsw (ef)",
                "replication_factor": str(self._factor or "?"), "write_consistency": self._replication.write.value,
                "read_consistency": self._replication.read.value, "nodes": str(len(self._clients))}

    def drop(self) -> None:
        """Delete the collection and its meta collection (tests only)."""
        def drop() -> None:
            with self._guard("drop"):
                if not self._client.is_connected():
                    self._client.connect()
                self._client.collections.delete([self._collection_name, self._meta_name])
        self._failover(drop)
        self._ready = False

    def close(self) -> None:
        for client in self._clients:
            client.close()


def _client(http_addr: str, grpc_addr: str, query_timeout_s: float) -> weaviate.WeaviateClient:
    (http_host, http_port), (grpc_host, grpc_port) = _host_port(http_addr), _host_port(grpc_addr)
    # skip_init_checks: the init checks call pypi.org for a version warning; the server version is
    # still read from /v1/meta on connect, and gRPC failures surface on first use.
    return weaviate.WeaviateClient(
        connection_params=ConnectionParams.from_params(http_host, http_port, False, grpc_host, grpc_port, False),
        additional_config=AdditionalConfig(timeout=Timeout(init=2, query=query_timeout_s, insert=60)),
        skip_init_checks=True)


def scope_filter(flt: Scope) -> Any:
    """AND over constrained fields of OR over their values; ``None`` when unconstrained."""
    clauses = []
    for name, values in flt.items():
        equals = [Filter.by_property(name).equal(v) for v in values]
        clauses.append(equals[0] if len(equals) == 1 else Filter.any_of(equals))
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else Filter.all_of(clauses)


def _properties() -> list[Property]:
    def keyword(name: str) -> Property:
        return Property(name=name, data_type=DataType.TEXT, tokenization=Tokenization.FIELD,
                        index_filterable=True, index_searchable=False)
    props = [keyword("doc_id"),
             Property(name="title", data_type=DataType.TEXT, tokenization=Tokenization.WORD, index_filterable=False),
             Property(name="text", data_type=DataType.TEXT, tokenization=Tokenization.WORD, index_filterable=False),
             Property(name="content_hash", data_type=DataType.TEXT, tokenization=Tokenization.FIELD,
                      index_filterable=False, index_searchable=False)]
    for name in METADATA_FIELDS:
        props.append(Property(name=name, data_type=DataType.INT, index_filterable=True) if name in METADATA_INT
                     else keyword(name))
    return props + _stored_properties()


def _stored_properties() -> list[Property]:
    """Citation fields and the chunking digest: stored, neither searched nor filtered."""
    def stored(name: str, kind: DataType) -> Property:
        text = kind in (DataType.TEXT, DataType.TEXT_ARRAY)
        return Property(name=name, data_type=kind, index_filterable=False, index_range_filters=False,
                        **({"index_searchable": False, "tokenization": Tokenization.FIELD} if text else {}))
    return [stored(name, kind) for name, (_, kind) in CITATION_PROPS.items()] + [stored("chunking", DataType.TEXT)]


def _entry(props: dict[str, Any]) -> StoredEntry:
    return StoredEntry(props["doc_id"], props.get("content_hash") or "", props.get("source") or "")


def _create(cols: Any, **kwargs: Any) -> None:
    try:
        cols.create(**kwargs)
    except UnexpectedStatusCodeError as exc:  # another process created it first
        if "already exists" not in str(exc):
            raise


def _is_unavailable(exc: Exception) -> bool:
    if isinstance(exc, httpx.TransportError):
        return True
    if isinstance(exc, UnexpectedStatusCodeError):
        return exc.status_code in (502, 503, 504)
    if type(exc).__name__ in ("WeaviateConnectionError", "WeaviateTimeoutError", "WeaviateGRPCUnavailableError",
                              "WeaviateStartUpError", "WeaviateClosedClientError", "WeaviateRetryError"):
        return True
    return any(marker in str(exc) for marker in _UNAVAILABLE_MARKERS)


def _to_properties(doc: Doc) -> dict[str, Any]:
    props: dict[str, Any] = {"doc_id": doc.id, "title": doc.title, "text": doc.text,
                             "content_hash": doc.content_hash()}
    props.update({k: v for k, v in doc.metadata.items() if k in METADATA_FIELDS and v is not None})
    if doc.citation is not None:
        cited = doc.citation.to_dict()
        props.update({name: cited[attr] for name, (attr, _) in CITATION_PROPS.items() if cited[attr] is not None})
    if doc.chunking:
        props["chunking"] = doc.chunking
    return props


def _from_properties(props: dict[str, Any]) -> Doc:
    citation = None
    if props.get("citation_source") is not None or props.get("citation_title") is not None:
        citation = Citation.from_dict({attr: props.get(name) for name, (attr, _) in CITATION_PROPS.items()}
                                      | {"source": props.get("citation_source") or "",
                                         "title": props.get("citation_title") or ""})
    return Doc(id=props["doc_id"], text=props.get("text") or "", title=props.get("title") or "",
               metadata={name: props.get(name) for name in METADATA_FIELDS}, citation=citation,
               chunking=props.get("chunking") or "")
