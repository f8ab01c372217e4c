"""An item's versions in other languages, read from the texts (chsr.versions): small dictd files, no Debian package."""

from __future__ import annotations

from pathlib import Path

import pytest

from chsr import dictionary
from chsr.versions import VersionIndex, bag_of, linkable
from tests.unit.kernel.test_dictionary import write_dictd

pytestmark = pytest.mark.unit


@pytest.fixture
def books(tmp_path: Path):  # type: ignore[no-untyped-def]
    write_dictd(tmp_path, "freedict-fra-eng", [
        ("lune", "lune <n, fem>\nmoon\n"), ("pleine", "pleine <adj>\nfull\n"), ("soleil", "soleil <n>\nsun\n"),
        ("ressort", "ressort <n>\nspring\n"), ("chaleur", "chaleur <n>\nheat\n"),
    ])
    write_dictd(tmp_path, "freedict-spa-eng", [
        ("luna", "luna <n>\nmoon\n"), ("llena", "llena <adj>\nfull\n"), ("sol", "sol <n>\nsun\n"),
        ("muelle", "muelle <n>\nspring\n"), ("calor", "calor <n>\nheat\n"),
    ])
    dictionary.configure(tmp_path, None)
    yield tmp_path
    dictionary.configure(Path(dictionary.DEFAULT_DIR), None)


def _meta(language: str, subject: str = "physics", **extra: object) -> dict:
    return {"source": "exams_qa", "subject": subject, "level": "grade_12", "content_type": "exam_question",
            "language": language, **extra}


FR_MOON = "La pleine lune : quelle phase 12 heures plus tard ? (A) pleine (B) nouvelle"
ES_MOON = "Luna llena: ¿qué fase 12 horas después? (A) llena (B) nueva"
FR_SPRING = "Deux ressorts, D2 = 2 D1, en série : la constante ? (A) 3 D1 (B) 0,67 D1"
ES_SPRING = "Dos muelles, D2 = 2 D1, en serie: ¿la constante? (A) 3 D1 (B) 0,67 D1"
ES_HEAT = "El calor del sol llega a la Tierra por radiación"


def _index(*docs: tuple[str, str, dict]) -> VersionIndex:
    index = VersionIndex()
    for doc_id, text, meta in docs:
        index.upsert(doc_id, text, meta)
    index.rebuild()
    return index


def test_a_bag_holds_english_senses_long_words_and_numbers(books: Path) -> None:
    bag = bag_of("La pleine lune, 0,67 fois", "fr")
    assert {"full", "moon", "~plein", "#0.67"} <= set(bag)


def test_translations_are_linked_each_to_the_other(books: Path) -> None:
    index = _index(("fr1", FR_MOON, _meta("fr")), ("fr2", FR_SPRING, _meta("fr")),
                   ("es1", ES_MOON, _meta("es")), ("es2", ES_SPRING, _meta("es")), ("es3", ES_HEAT, _meta("es")))
    assert index.versions_of("fr1") == ("es1",) and index.versions_of("es1") == ("fr1",)
    assert index.versions_of("fr2") == ("es2",)
    assert index.versions_of("es3") == ()  # no French chunk holds it as its best match


def test_chunks_of_another_group_or_the_same_language_are_never_versions(books: Path) -> None:
    index = _index(("fr1", FR_MOON, _meta("fr")), ("es1", ES_MOON, _meta("es", subject="geography")),
                   ("fr2", FR_MOON + " ?", _meta("fr")))
    assert index.versions_of("fr1") == () and index.versions_of("fr2") == ()


def test_a_numbered_item_of_a_paper_is_grouped_by_its_metadata_not_linked_here() -> None:
    assert not linkable(_meta("fr", paper="AMC 10A", question_number=3))
    assert linkable(_meta("fr")) and not linkable({"subject": "physics"})  # no language: nothing to compare


def test_links_follow_a_delete_and_a_new_version(books: Path) -> None:
    index = _index(("fr1", FR_MOON, _meta("fr")), ("es1", ES_MOON, _meta("es")))
    index.delete("es1")
    assert index.stale
    index.rebuild()
    assert index.versions_of("fr1") == ()
    index.upsert("es9", ES_MOON, _meta("es"))
    index.rebuild()
    assert index.versions_of("fr1") == ("es9",) and not index.stale
