"""Keep the catalogue (``chsr.catalogue``) in step with the index and the gate in step with it.

One background thread per gateway:

1. **Sync by listing.** It lists one retrieval server's ids with their content hashes (``ListIds``
   with details), drops the ids that are gone and fetches (``GetDocuments``) only the ids that are
   new or whose hash changed — so it follows every write path (JSONL ingest, files, deletes by id or
   source) and writes by other gateway replicas, at the cost of one listing when something changed.
2. **When.** Right after this gateway's own writes (:meth:`CatalogueSync.request_sync`), and whenever
   the server's index generation (``Stats``) moved since the last look (polled every
   ``CHSR_CATALOGUE_POLL_S``).
3. **Push.** Once the listing has settled (no write since the last look, or this gateway's own write
   just finished), the whole catalogue goes to the gate (``GateService.UpdateCatalogue``), which
   rebuilds its corpus layer. A gate replica that answers with another version
   (``GateResponse.catalogue_version``, :meth:`CatalogueSync.note_gate_version`) gets it again.

Failures (a server or the gate down) are logged and retried at the next poll; searches never wait
for the catalogue — the gate keeps the layer it has.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

import grpc

from chsr.catalogue import Catalogue
from chsr.documents import Doc
from chsr.versions import VersionIndex
from chsr.v1 import retriever_pb2
from gateway.stubs import StageStubs

log = logging.getLogger(__name__)
LIST_PAGE = 5000
FETCH_BATCH = 1000
CALL_TIMEOUT_S = 60.0


class CatalogueSync:
    def __init__(self, stubs: StageStubs, server: str, poll_s: float, versions: VersionIndex | None = None) -> None:
        self.catalogue = Catalogue()
        self.versions = versions   # the items' versions in other languages, read from the same documents
        self._stubs = stubs
        self._server_name = server
        self._poll_s = poll_s
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._own_write = False
        self._resend = False
        self._generation: int | None = None
        self._pushed: str | None = None
        self._lock = threading.Lock()          # one sync / push at a time
        self.synced = threading.Event()        # set after the first push (tests, readiness logs)
        self._thread: threading.Thread | None = None

    # ---- signals from the request path --------------------------------------------------------
    def request_sync(self) -> None:
        """After a write by this gateway: list, and push without waiting for the next poll."""
        self._own_write = True
        self._wake.set()

    def note_gate_version(self, version: str) -> None:
        """A gate answered with catalogue ``version``; an older one gets the catalogue again."""
        pushed = self._pushed
        if pushed is not None and version != pushed:
            self._resend = True
            self._wake.set()

    @property
    def version(self) -> str:
        return self._pushed or ""

    # ---- the loop -------------------------------------------------------------------------------
    def start(self) -> "CatalogueSync":
        self._thread = threading.Thread(target=self._run, name="catalogue-sync", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()

    def _run(self) -> None:
        first = True
        while not self._stop.is_set():
            try:
                self.step(force=first)
                first = False
            except grpc.RpcError as exc:
                log.warning("catalogue sync failed; retried at the next poll",
                            extra={"code": exc.code().name, "details": exc.details()})
            self._wake.wait(self._poll_s)
            self._wake.clear()

    def step(self, force: bool = False) -> None:
        """One look: sync when the index moved, push when it has settled (or this gateway wrote)."""
        with self._lock:
            own, self._own_write = self._own_write, False
            generation = self._server_generation()
            moved = force or own or generation != self._generation
            if moved:
                self.sync()
                self._generation = generation
            settled = own or force or not moved
            if (settled and self.catalogue.version != self._pushed) or self._resend:
                self._resend = False
                self.push()

    # ---- the work ------------------------------------------------------------------------------
    def sync(self) -> tuple[int, int]:
        """Bring the catalogue in line with the server's listing; returns (fetched, dropped)."""
        stub = self._server()
        listed: dict[str, str] = {}
        req = retriever_pb2.ListIdsRequest(page_size=LIST_PAGE, include_details=True)
        for page in stub.ListIds(req, timeout=CALL_TIMEOUT_S):
            listed.update(zip(page.doc_ids, page.content_hashes))
        gone = self.catalogue.doc_ids() - listed.keys()
        for doc_id in gone:
            self.catalogue.delete(doc_id)
            if self.versions is not None:
                self.versions.delete(doc_id)
        changed = [i for i, h in listed.items() if self.catalogue.content_hash(i) != h]
        for start in range(0, len(changed), FETCH_BATCH):
            ids = changed[start:start + FETCH_BATCH]
            resp = stub.GetDocuments(retriever_pb2.GetDocumentsRequest(doc_ids=ids), timeout=CALL_TIMEOUT_S)
            for msg in resp.documents:
                doc = Doc.from_proto(msg)
                self.catalogue.upsert(msg.id, doc.metadata, listed.get(msg.id, ""))
                if self.versions is not None:
                    self.versions.upsert(msg.id, doc.full_text, doc.metadata)
        if self.versions is not None and self.versions.stale:
            self.versions.rebuild()
        if changed or gone:
            log.info("catalogue synced", extra={"fetched": len(changed), "dropped": len(gone),
                                                "documents": len(self.catalogue), "version": self.catalogue.version})
        return len(changed), len(gone)

    def push(self) -> None:
        request = self.catalogue.to_request()
        resp = self._stubs.gate.UpdateCatalogue(request, timeout=CALL_TIMEOUT_S, metadata=self._stubs.write_metadata)
        self._pushed = resp.version
        self.synced.set()
        log.info("catalogue sent to the gate", extra={"version": resp.version, "entries": resp.entries,
                                                       "documents": resp.documents})

    def _server(self) -> Any:
        return self._stubs.server(self._server_name)

    def _server_generation(self) -> int:
        return int(self._server().Stats(retriever_pb2.StatsRequest(), timeout=CALL_TIMEOUT_S).generation)
