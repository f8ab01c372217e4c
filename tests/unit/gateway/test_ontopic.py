import pytest

from gateway.ontopic import is_on_topic, topic_stems

pytestmark = pytest.mark.unit


def test_on_topic_shares_a_stemmed_topic_word():
    stems = topic_stems(["magnets attract"])
    assert is_on_topic("A magnet attracts iron nails.", stems)
    assert not is_on_topic("Plants need sunlight to grow.", stems)
    assert not is_on_topic("les aimants attirent le fer", stems)   # words cannot match across languages
    assert is_on_topic("anything", set())
