"""MaxP long-document dense encoding (issue 4): splitting, scoring, gating, persistence, mode changes.

Uses the real bundled MiniLM (``services.inference.model_files.default_model_path()``) on a tiny synthetic corpus whose
relevant text sits past word-piece 256, where a whole-document vector cannot see it.
"""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from chsr.documents import Doc
from chsr.scope import Scope
from services.dense.backends.embedded import EmbeddedDenseBackend, PassageModeMismatch
from chsr.config import PassageMode
from services.dense.passages import parse_passage_mode, token_windows

pytestmark = pytest.mark.unit

GEOLOGY = [
    "The cliffs along the bay expose layers of sandstone and shale deposited in a shallow sea.",
    "Wave action undercuts the softer shale, so blocks of sandstone collapse onto the beach each winter.",
    "Our survey measured the dip of each bed with a compass clinometer at forty stations.",
    "Pebbles on the upper beach are mostly flint derived from the chalk further east.",
    "Groynes built in the last century trap sediment and starve the beaches down the coast.",
    "Tidal range in the estuary reaches six metres during spring tides.",
    "Salt marsh vegetation stabilises the mudflats behind the shingle spit.",
    "Longshore drift moves sand from west to east at several thousand cubic metres per year.",
]
FIN = ("Separately, the station aquarium studied zebrafish caudal fin regeneration after amputation. "
       "Regeneration of the zebrafish fin requires the transcription factor msxb, which is expressed in the "
       "blastema within a day of amputation. Morpholino knockdown of msxb blocked fin regeneration and "
       "reduced blastema cell proliferation. Zebrafish fin rays regrew fully within two weeks in controls.")
TOPICS = {
    "astro": ("physics", "Jupiter's moons orbit the planet in resonance, and telescopes track their eclipses. "),
    "cook": ("home_economics", "Bread dough rises as yeast ferments sugar and releases carbon dioxide gas. "),
    "econ": ("economics", "Inflation erodes the purchasing power of savings when wages lag behind prices. "),
    "cat": ("chemistry", "A catalyst lowers the activation energy of a reaction without being consumed. "),
}
QUERY = "which transcription factor is required for zebrafish fin regeneration"


def _meta(subject: str) -> dict:
    return {"subject": subject, "level": "college"}


def _corpus() -> list[Doc]:
    geology = " ".join(GEOLOGY * 3)  # ~55 words per pass: ~330 word-pieces before the fin text
    docs = [Doc("long-fin", f"{geology} {FIN}", "Survey notes from a coastal field station", _meta("biology")),
            Doc("short-zf", "Zebrafish are small freshwater fish kept in many laboratories.", "Zebrafish",
                _meta("biology")),
            Doc("short-tf", "Transcription factors bind DNA and switch genes on or off.", "Gene regulation",
                _meta("chemistry"))]
    for name, (subject, sentence) in TOPICS.items():
        docs.append(Doc(f"long-{name}", sentence * 24, f"Notes on {name}", _meta(subject)))
    return docs


DOCS = _corpus()


@pytest.fixture(scope="module")
def encoder(tmp_path_factory):
    from services.inference.model_files import default_model_path
    from services.dense.encoder import Encoder

    return Encoder(default_model_path(), tmp_path_factory.mktemp("emb"))


@pytest.fixture(scope="module")
def blocks(encoder):
    out, computed = encoder.encode_passages(DOCS)
    assert computed == sum(len(b) for b in out)  # fresh cache: everything computed once
    return out


@pytest.fixture(scope="module")
def query(encoder):
    return encoder.encode_queries([QUERY])[0]


def _backend(tmp_path, encoder, mode: str, index: str = "exact", **kw) -> EmbeddedDenseBackend:
    return EmbeddedDenseBackend(tmp_path, encoder.dim, index=index, passages=mode, **kw)


def _whole(encoder):
    return encoder.encode_documents([d.full_text for d in DOCS])[0]


# ---- splitting ----------------------------------------------------------------------------------
def test_token_windows_hand_computed():
    # words: 0 | 1 1 | 2 | 3 3 3 | 4 | 5 | 6  -> spans never start or end inside a word
    assert token_windows([0, 1, 1, 2, 3, 3, 3, 4, 5, 6], size=4, overlap=1) == [(0, 4), (3, 7), (7, 10)]
    # one word longer than the window is cut (nothing else fits)
    assert token_windows([0, 0, 0, 0, 0, 0, 1], size=3, overlap=1) == [(0, 3), (3, 6), (6, 7)]
    assert token_windows([0, 1], size=4, overlap=1) == [(0, 2)]


def test_passage_mode_parsing():
    assert parse_passage_mode("MaxP") is PassageMode.MAXP and parse_passage_mode("off") is PassageMode.OFF
    with pytest.raises(ValueError, match="off, maxp"):
        parse_passage_mode("firstp")


def test_passages_fit_the_window(encoder):
    splitter = encoder.splitter
    assert splitter.max_seq_length == 256
    dna = "ACGT" * 400  # one "word" of hundreds of word-pieces
    long_title = " ".join(["Structural and functional characterisation"] * 20)
    cases = DOCS + [Doc("dna", f"The sequence {dna} was cloned. " + FIN * 3, long_title),
                    Doc("notitle", FIN * 4)]
    for doc in cases:
        passages = splitter.split(doc)
        assert all(splitter.n_tokens(p) <= 256 for p in passages), doc.id
        if splitter.n_tokens(doc.full_text) <= 256:
            assert passages == [doc.full_text]  # short docs reuse the whole-document vector
        else:
            assert len(passages) >= 2
            assert all(p.startswith(doc.title[:40]) for p in passages)
    fin = splitter.split(DOCS[0])
    assert splitter.n_tokens(DOCS[0].title + "\n" + DOCS[0].text[:DOCS[0].text.index("Separately")]) > 256
    assert "msxb" not in fin[0] and any("requires the transcription factor msxb" in p for p in fin)
    body_words = set(DOCS[0].text.split())
    assert body_words <= set(" ".join(fin).split())  # nothing dropped


# ---- scoring ------------------------------------------------------------------------------------
def test_maxp_finds_text_past_the_window(tmp_path, encoder, blocks, query):
    off = _backend(tmp_path / "off", encoder, "off")
    off.upsert(DOCS, _whole(encoder))
    maxp = _backend(tmp_path / "maxp", encoder, "maxp")
    maxp.upsert(DOCS, blocks)
    off_ids = [h.doc_id for h in off.search(query, Scope(), len(DOCS))]
    maxp_hits = maxp.search(query, Scope(), len(DOCS))
    assert maxp_hits[0].doc_id == "long-fin"
    assert off_ids.index("long-fin") > 0
    # exact MaxP score = the best passage's cosine, computed by hand
    expected = {d.id: float(np.max(b @ query)) for d, b in zip(DOCS, blocks)}
    assert {h.doc_id: h.score for h in maxp_hits} == pytest.approx(expected, abs=1e-5)


@pytest.mark.parametrize("index", ["exact", "hnsw"])
def test_k_documents_and_filter(tmp_path, encoder, blocks, query, index):
    backend = _backend(tmp_path, encoder, "maxp", index=index)
    backend.upsert(DOCS, blocks)
    assert sum(len(b) for b in blocks) > 2 * len(DOCS)  # passages outnumber documents
    for k in (1, 3, 5, len(DOCS) + 5):
        ids = [h.doc_id for h in backend.search(query, Scope(), k)]
        assert len(ids) == min(k, len(DOCS)) and len(set(ids)) == len(ids)
    exact_ids = [h.doc_id for h in backend.search(query, Scope(), 5, exact=True)]
    assert [h.doc_id for h in backend.search(query, Scope(), 5)] == exact_ids
    by_subject = {d.id: d.metadata["subject"] for d in DOCS}
    for subjects in (["chemistry"], ["biology", "physics"], ["history"]):
        flt = Scope.from_dict({"subject": subjects})
        allowed = [d.id for d in DOCS if d.metadata["subject"] in subjects]
        for k in (1, 2, 10):
            hits = backend.search(query, flt, k)
            assert all(by_subject[h.doc_id] in subjects for h in hits)
            assert len(hits) == min(k, len(allowed)) and len({h.doc_id for h in hits}) == len(hits)


# ---- persistence and modes ----------------------------------------------------------------------
def test_idempotent_reingest_and_restart(tmp_path, encoder, blocks, query):
    backend = _backend(tmp_path, encoder, "maxp", index="hnsw")
    assert backend.upsert(DOCS, blocks).indexed == len(DOCS)
    again, computed = encoder.encode_passages(DOCS)
    assert computed == 0  # content-addressed cache: re-ingest encodes nothing
    second = backend.upsert(DOCS, again)
    assert (second.indexed, second.unchanged) == (0, len(DOCS))
    before = [(h.doc_id, round(h.score, 5)) for h in backend.search(query, Scope(), 4)]
    gen = backend.generation()
    backend.close()
    reopened = _backend(tmp_path, encoder, "maxp", index="hnsw")
    assert reopened.generation() == gen and reopened.count() == len(DOCS)
    assert [(h.doc_id, round(h.score, 5)) for h in reopened.search(query, Scope(), 4)] == before
    assert reopened.delete(["long-fin"]) == 1
    assert "long-fin" not in [h.doc_id for h in reopened.search(query, Scope(), 10)]


def test_mode_change_refused_or_reencoded(tmp_path, encoder, blocks, query):
    from tools.reindex_dense import vectorizer

    off = _backend(tmp_path, encoder, "off")
    off.upsert(DOCS, _whole(encoder))
    off.close()
    with pytest.raises(PassageModeMismatch, match="CHSR_DENSE_PASSAGES"):
        _backend(tmp_path, encoder, "maxp")
    maxp = _backend(tmp_path, encoder, "maxp", reencode=vectorizer(encoder, PassageMode.MAXP))
    assert maxp.details()["passages"].startswith("maxp:")
    assert maxp.search(query, Scope(), 1)[0].doc_id == "long-fin"
    maxp.close()
    _backend(tmp_path, encoder, "maxp").close()  # now stored as maxp: opens without re-encoding
    with pytest.raises(PassageModeMismatch):
        _backend(tmp_path, encoder, "off")


def test_legacy_dir_counts_as_off(tmp_path, encoder):
    off = _backend(tmp_path, encoder, "off")
    off.upsert(DOCS, _whole(encoder))
    off.close()
    with sqlite3.connect(str(tmp_path / "dense" / "vectors.sqlite")) as db:
        db.execute("DROP TABLE meta")  # a data dir from before issue 4 has no mode row
    _backend(tmp_path, encoder, "off").close()
    with pytest.raises(PassageModeMismatch):
        _backend(tmp_path, encoder, "maxp")


def test_off_mode_rejects_passage_blocks(tmp_path, encoder, blocks):
    backend = _backend(tmp_path, encoder, "off")
    with pytest.raises(ValueError, match="CHSR_DENSE_PASSAGES=off"):
        backend.upsert(DOCS, blocks)
    with pytest.raises(ValueError, match="one vector"):
        backend.upsert(DOCS, _whole(encoder)[:2])


def test_leg_upserts_passages_in_maxp(tmp_path, encoder):
    from services.dense.leg import DenseLeg

    leg = DenseLeg(_backend(tmp_path, encoder, "maxp"), encoder, microbatch=False)
    assert leg.upsert(DOCS).indexed == len(DOCS)
    assert leg.search(QUERY, Scope(), 1, exact=False, with_docs=False, model="minilm")[0].doc_id == "long-fin"


def test_weaviate_rejects_maxp():
    pytest.importorskip("weaviate")
    from chsr.config import Settings
    from services.dense.backends.weaviate import WeaviateDenseBackend

    with pytest.raises(ValueError, match="embedded dense backend only"):
        WeaviateDenseBackend.from_settings(Settings(dense_passages="maxp"), 384)
