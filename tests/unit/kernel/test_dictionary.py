"""English words for French, German and Spanish words (chsr.dictionary, FreeDict's dictd files)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from chsr import dictionary

pytestmark = pytest.mark.unit

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _b64(n: int) -> str:
    out = ""
    while True:
        out = _B64[n % 64] + out
        n //= 64
        if n == 0:
            return out


def write_dictd(folder: Path, name: str, entries: list[tuple[str, str]]) -> None:
    """A dictd pair (index + gzip body) holding ``entries`` (headword, body), as FreeDict ships them."""
    body, index, offset = b"", [], 0
    for head, text in entries:
        data = text.encode("utf-8")
        index.append(f"{head}\t{_b64(offset)}\t{_b64(len(data))}")
        body += data
        offset += len(data)
    (folder / f"{name}.index").write_text("00databaseinfo\tA\tA\n" + "\n".join(index) + "\n", encoding="utf-8")
    with gzip.open(folder / f"{name}.dict.dz", "wb") as fh:
        fh.write(body)


@pytest.fixture
def books(tmp_path: Path):  # type: ignore[no-untyped-def]
    write_dictd(tmp_path, "freedict-fra-eng", [
        ("cercle", "cercle /sɛʀkl/ <n, masc>\ncircle\n"),
        ("aire", "aire /ɛʀ/ <n, fem>\narea\n"),
        ("quel", "quel /kɛl/\nwhich, what\n"),
        ("glande", "glande /glɑ̃d/ <n, fem>\ngland\n"),
    ])
    write_dictd(tmp_path, "freedict-deu-eng", [
        ("luft", "Luft /lʊft/ <fem, n, sg>\n [ugs.] elbow room <n>\n   Synonyms: {Bewegungsfreiheit}\n\n"),
        ("luft", 'Luft /lʊft/ <fem, n, sg>\nair <n>\n      "in der Luft"  - in mid-air\n see: {stickige Luft}\n\n'),
        ("papier", "Papier /papˈiːɾ/ <neut, n, sg>\nwrapping paper <n>, wrapper <n>\n"),
        ("papier", 'Papier /papˈiːɾ/ <neut, n, sg>\npaper <n>\n      "Papier mit Wasserzeichen"  - filigree paper\n'),
    ])
    dictionary.configure(tmp_path, tmp_path / "cache")
    yield tmp_path
    dictionary.configure(Path(dictionary.DEFAULT_DIR), None)


def test_words_take_their_senses_in_order(books: Path) -> None:
    assert dictionary.english_words(dictionary.words_of("l'aire du cercle"), "fr") == ["area", "circle"]


def test_a_plural_is_looked_up_without_its_ending(books: Path) -> None:
    assert dictionary.english_words(["glandes", "cercles"], "fr") == ["gland", "circle"]


def test_english_stopwords_are_no_senses(books: Path) -> None:
    # "quel" -> which, what: they would put every English chunk on topic
    assert dictionary.english_words(["quel"], "fr") == []


def test_the_central_entry_of_a_headword_comes_first(books: Path) -> None:
    # German gives each sense its own entry: "air", with examples, before the colloquial "elbow room"
    assert dictionary.english_words(["Luft"], "de")[0] == "air"
    assert dictionary.english_words(["Papier"], "de")[0] == "paper"


def test_the_parse_is_kept_and_read_back(books: Path) -> None:
    dictionary.load_in_background().join()
    assert dictionary._REVERSED["fr"]["circle"] == ("cercle",)  # indexed by its senses at start too
    kept = sorted(p.name for p in (books / "cache" / "dictionaries").iterdir())
    assert any(name.startswith("freedict-fra-eng-") for name in kept)
    dictionary.configure(books, books / "cache")  # forgets what it read
    # an emptied index parses to nothing; the body's size and time are the cache's key, so the kept parse answers
    (books / "freedict-fra-eng.index").write_text("", encoding="utf-8")
    assert dictionary.english_words(["cercle"], "fr") == ["circle"]
    dictionary.configure(books, None)  # no cache: the emptied index is parsed
    assert dictionary.english_words(["cercle"], "fr") == []


def test_a_missing_dictionary_adds_nothing(tmp_path: Path) -> None:
    dictionary.configure(tmp_path, None)
    try:
        assert not dictionary.available("es")
        assert dictionary.english_words(["plancha"], "es") == []
    finally:
        dictionary.configure(Path(dictionary.DEFAULT_DIR), None)


def test_english_words_find_the_headwords_whose_first_senses_they_are(books: Path) -> None:
    """The reverse lookup, for an English query asking for an item's French version (round 58)."""
    assert dictionary.foreign_words(["circles", "area", "gland"], "fr") == ["cercle", "aire", "glande"]
    # a stopword sense names no headword ("quel" -> which, what), and German "Luft"'s central sense is "air"
    assert dictionary.foreign_words(["which", "air"], "fr") == []
    assert dictionary.foreign_words(["air"], "de") == ["luft"]
