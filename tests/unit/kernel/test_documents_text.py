import pytest

from chsr.documents import Doc, DocumentError
from chsr.text import tokenize

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
