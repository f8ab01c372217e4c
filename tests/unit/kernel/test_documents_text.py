import pytest

from chsr import text
from chsr.documents import Citation, Doc, DocumentError
from chsr.text import token_set, tokenize
from chsr.v1 import common_pb2

pytestmark = pytest.mark.unit


def test_doc_from_json_validates_fields():
    with pytest.raises(DocumentError) as err:
        Doc.from_json({"text": "x"})
    assert err.value.field == "_id"
    with pytest.raises(DocumentError) as err:
        Doc.from_json({"_id": "a", "text": "  "})
    assert err.value.field == "text"
    with pytest.raises(DocumentError) as err:
        Doc.from_json({"_id": "a", "text": "t", "metadata": {"year": "2019"}})
    assert err.value.field == "metadata.year"


def test_content_hash_changes_with_content_only():
    a = Doc.from_json({"_id": "a", "text": "t", "metadata": {"subject": "physics"}})
    b = Doc.from_json({"_id": "a", "text": "t", "metadata": {"subject": "physics"}})
    c = Doc.from_json({"_id": "a", "text": "t2", "metadata": {"subject": "physics"}})
    assert a.content_hash() == b.content_hash() != c.content_hash()


def test_proto_round_trip_keeps_nulls():
    d = Doc.from_json({"_id": "a", "title": "T", "text": "t", "metadata": {"subject": "physics", "year": None}})
    back = Doc.from_proto(d.to_proto())
    assert back == d and back.metadata["year"] is None


def test_tokenizer_stems_drops_stopwords_keeps_cjk():
    assert tokenize("The running of the physics") == ["run", "physic"]
    toks = tokenize("二次函数 第11题")
    assert "二次" in toks and "函数" in toks and "11" in toks


@pytest.mark.parametrize("sample", [
    "The running of the physics", "二次函数 第11题 the Moon's phases", "Übung: Größe ÄÖÜ straße, Éléments",
    "", "a the of", "x_y 3.5 π İstanbul", "Photosynthesis: PHOTOSYNTHESIS photosynthetic 2019 AMC-10A #7",
    "初二科学题：为什么月亮有盈亏？", "naïve café résumé — 50% über",
])
def test_token_set_is_the_set_of_tokenize(sample):
    """The on-topic check's fast form answers exactly what the tokenizer does, ASCII or not."""
    assert token_set(sample) == set(tokenize(sample))


def test_stem_memo_is_bounded(monkeypatch):
    monkeypatch.setattr(text, "STEM_MEMO_MAX", 3)
    monkeypatch.setattr(text, "_STEM_MEMO", {})
    tokens = tokenize("alpha beta gamma delta epsilon zeta")
    assert tokens == ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]
    assert 0 < len(text._STEM_MEMO) <= 3
    assert token_set("running runs") == {"run"}


def test_write_proto_fills_in_place_and_metadata_only_keeps_id_and_metadata():
    d = Doc(id="q7", title="T", text="body", metadata={"subject": "maths", "year": 2019, "paper": None},
            citation=Citation(source="p.pdf", title="P", page_start=3), chunking="c1")
    assert d.to_proto().SerializeToString(deterministic=True) == \
        common_pb2.Document(id="q7", title="T", text="body", chunking="c1",
                            metadata=common_pb2.Metadata(subject="maths", year=2019),
                            citation=common_pb2.Citation(source="p.pdf", title="P", page_start=3)
                            ).SerializeToString(deterministic=True)
    msg = common_pb2.Document()
    d.write_proto(msg, metadata_only=True)
    assert msg == common_pb2.Document(id="q7", metadata=common_pb2.Metadata(subject="maths", year=2019))
    assert not msg.metadata.HasField("paper") and not msg.HasField("citation")
