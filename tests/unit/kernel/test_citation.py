"""Citations on documents: round trips, hashing, validation, and the fallback for corpus lines."""

from __future__ import annotations

import pytest

import hashlib
import json

from chsr.documents import Citation, Doc, DocumentError, validate_doc

pytestmark = pytest.mark.unit

CITE = Citation(source="p.pdf", title="Paper", page_start=2, page_end=3, heading_path=("A", "B"), question_number=4)


def test_proto_and_dict_round_trips_keep_every_field():
    doc = Doc(id="x", text="t", metadata={"source": "p.pdf"}, citation=CITE, chunking="abc")
    assert Doc.from_proto(doc.to_proto()) == Doc(id="x", text="t", metadata=Doc.from_proto(doc.to_proto()).metadata,
                                                 citation=CITE, chunking="abc")
    assert Citation.from_dict(CITE.to_dict()) == CITE and Citation.from_dict(None) is None
    bare = Citation.from_proto(Citation(source="s").to_proto())
    assert bare.page_start is None and bare.question_number is None


def test_hash_covers_citation_and_chunking_but_old_documents_hash_as_before():
    plain = Doc(id="x", text="t", metadata={"a": 1})
    # the value stores and engines hold for documents written before citations existed
    assert plain.content_hash() == hashlib.sha256(json.dumps(["", "t", {"a": 1}], sort_keys=True).encode()).hexdigest()
    cited = Doc(id="x", text="t", metadata={"a": 1}, citation=CITE)
    assert len({plain.content_hash(), cited.content_hash(),
                Doc(id="x", text="t", metadata={"a": 1}, citation=CITE, chunking="v2").content_hash()}) == 3


def test_cited_falls_back_to_the_metadata():
    doc = Doc(id="x", text="t", title="T", metadata={"source": "scifact", "question_number": 3})
    assert doc.cited() == Citation(source="scifact", title="T", question_number=3)
    assert Doc(id="x", text="t", citation=CITE).cited() == CITE


@pytest.mark.parametrize("citation,field", [
    (Citation(page_start=0), "citation.page_start"),
    (Citation(page_start=3, page_end=2), "citation.page_end"),
    (Citation(heading_path=tuple("h" for _ in range(40))), "citation.heading_path"),
    (Citation(title="x" * 2000), "citation.title"),
])
def test_bad_citations_are_refused(citation, field):
    with pytest.raises(DocumentError) as err:
        validate_doc(Doc(id="x", text="t", citation=citation))
    assert err.value.field == field
