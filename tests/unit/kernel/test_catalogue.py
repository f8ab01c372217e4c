"""The catalogue (issue 21): counts per metadata cell that follow upserts and deletes exactly."""

from __future__ import annotations

import pytest

from chsr.catalogue import Catalogue, entries_from_proto
from services.gate.corpus_vocabulary import build_vocabulary_from_catalogue

pytestmark = pytest.mark.unit

MCAS5 = {"exam_board": "MCAS (Massachusetts)", "paper": "MCAS Grade 5 Science", "subject": "science",
         "level": "grade_5", "year": 2005, "content_type": "exam_question", "language": "en"}


def test_counts_follow_upserts_replacements_and_deletes():
    cat = Catalogue()
    cat.upsert("a", MCAS5, "h1")
    cat.upsert("b", MCAS5, "h2")
    cat.upsert("c", {**MCAS5, "year": 2006}, "h3")
    assert sorted(e.count for e in cat.entries()) == [1, 2]
    before = cat.version
    cat.upsert("b", {**MCAS5, "year": 2006}, "h4")        # re-upserted with other metadata: moves cell
    assert sorted(e.count for e in cat.entries()) == [1, 2] and cat.version != before
    assert cat.content_hash("b") == "h4"
    assert cat.delete("a") and not cat.delete("a")
    (only,) = cat.entries()
    assert only.metadata()["year"] == 2006 and only.count == 2 and len(cat) == 2


def test_equal_contents_have_equal_versions_and_survive_the_wire():
    one, two = Catalogue(), Catalogue()
    one.upsert("a", MCAS5)
    one.upsert("b", {**MCAS5, "language": "fr", "session": None})
    two.upsert("b", {**MCAS5, "language": "fr"})
    two.upsert("a", MCAS5)
    assert one.version == two.version
    request = one.to_request()
    assert request.version == one.version
    assert entries_from_proto(request.entries) == one.entries()


def test_the_gate_layer_built_from_the_catalogue_knows_the_papers_and_their_years():
    cat = Catalogue()
    cat.upsert("a", MCAS5)
    cat.upsert("b", {**MCAS5, "year": 2007})
    layer = build_vocabulary_from_catalogue(cat.entries())
    assert layer["documents"] == 2
    assert sorted(layer["papers"]["MCAS Grade 5 Science"]["years"]) == ["2005", "2007"]
    assert layer["paper_templates"]["MCAS (Massachusetts)"]["science"]["template"] == "MCAS Grade {n} Science"


def test_the_highest_question_number_follows_upserts_and_deletes_and_reaches_the_gate():
    cat = Catalogue()
    cat.upsert("q3", {**MCAS5, "question_number": 3})
    cat.upsert("q30", {**MCAS5, "question_number": 30})
    cat.upsert("q30-copy", {**MCAS5, "question_number": 30})
    cat.upsert("cover", MCAS5)                                    # no number: counted, not a question
    (entry,) = cat.entries()
    assert entry.count == 4 and entry.max_question_number == 30
    before = cat.version
    cat.delete("q30")
    assert cat.entries()[0].max_question_number == 30             # another chunk still carries 30
    cat.delete("q30-copy")
    assert cat.entries()[0].max_question_number == 3 and cat.version != before
    cat.upsert("q3", {**MCAS5, "question_number": 2})             # re-upserted with another number
    assert cat.entries()[0].max_question_number == 2
    assert entries_from_proto(cat.to_request().entries) == cat.entries()   # survives the wire
    layer = build_vocabulary_from_catalogue(cat.entries())
    assert layer["papers"]["MCAS Grade 5 Science"]["max_question"] == {"2005": 2}
    cat.delete("q3")
    assert cat.entries()[0].max_question_number is None
    assert not cat.to_request().entries[0].HasField("max_question_number")
