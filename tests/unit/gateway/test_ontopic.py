import pytest

from gateway.ontopic import is_on_topic, topic_stems

pytestmark = pytest.mark.unit


def test_on_topic_shares_a_stemmed_topic_word():
    stems = topic_stems(["magnets attract"])
    assert is_on_topic("A magnet attracts iron nails.", stems)
    assert not is_on_topic("Plants need sunlight to grow.", stems)
    assert not is_on_topic("les aimants attirent le fer", stems)   # words cannot match across languages
    assert is_on_topic("anything", set())


def test_the_marking_material_of_a_named_question_is_not_judged_by_words():
    from chsr.scope import Scope
    from gateway.ontopic import judged_by_words

    lookup = Scope(paper=("AMC 8",), year=(2014,), question_number=(1,), content_type=("solution",))
    assert not judged_by_words(lookup)
    assert not judged_by_words(Scope(paper=("P",), question_number=(2,), content_type=("mark_scheme", "solution")))
    assert judged_by_words(Scope(paper=("AMC 8",), question_number=(1,), content_type=("exam_question",)))
    assert judged_by_words(Scope(paper=("AMC 8",), question_number=(1,), content_type=("solution", "exam_question")))
    assert judged_by_words(Scope(year=(2014,), question_number=(1,), content_type=("solution",)))   # no paper named
    assert judged_by_words(Scope(paper=("AMC 8",), content_type=("solution",)))                     # no question named
    assert judged_by_words(Scope())


def test_a_word_glued_to_its_number_also_matches_the_word_alone():
    """Round 37 (kv_fm_exact.02): "a=log5 3, b=log8 5" against the item's "$a=\\log _{5} 3$"; short letters add nothing."""
    stems = topic_stems(["log5", "log8", "比大小", "x2"])
    assert "log" in stems and "x" not in stems
    assert is_on_topic("设 $a=\\log _{5} 3, b=\\log _{8} 5$", stems)
    assert not is_on_topic("设 $a=\\log _{5} 3$", topic_stems(["log5"]) - {"log"})


def test_a_topical_requests_exact_scope_is_judged_by_whole_chinese_words():
    """Round 38 (kw_st_relax.03): the 2018 paper's items share 气 and 计 with "气体 气缸活塞 计算题", not a word."""
    from gateway.ontopic import sitting_stems

    stems = sitting_stems(topic_stems(["气体", "气缸活塞"]))
    assert "气" not in stems and "气体" in stems
    assert not is_on_topic("一定质量的理想气…计", stems) and is_on_topic("一定质量的气体", stems)
    assert sitting_stems(topic_stems(["电"])) == {"电"}                # a one-character topic stays
    assert sitting_stems(topic_stems(["magnets"])) == topic_stems(["magnets"])


def test_near_in_language_asks_for_an_on_topic_result_in_the_querys_language_near_the_asked_level():
    from chsr.documents import Doc
    from gateway.ontopic import near_in_language

    stems = topic_stems(["impuls energie"])
    english = Doc("m", "impuls energie", metadata={"level": "high_school", "language": "en"})
    german_12 = Doc("d", "impuls und energie", metadata={"level": "grade_12", "language": "de"})
    german_off = Doc("o", "wetter und klima", metadata={"level": "grade_12", "language": "de"})
    assert near_in_language([english, german_12], stems, ["grade_11"], "de")
    assert not near_in_language([english, german_off], stems, ["grade_11"], "de")   # German, but off topic
    assert not near_in_language([german_12], stems, ["grade_8"], "de")              # four grades away
    assert near_in_language([german_12], stems, [], "de")                           # no level asked
