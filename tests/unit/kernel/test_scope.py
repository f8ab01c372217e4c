import pytest

from chsr.scope import Scope

pytestmark = pytest.mark.unit


def test_from_dict_accepts_scalars_lists_and_nulls():
    s = Scope.from_dict({"subject": ["physics", "mathematics"], "level": "grade_10", "year": 2019, "paper": None})
    assert s.subject == ("physics", "mathematics")
    assert s.level == ("grade_10",)
    assert s.year == (2019,)
    assert s.paper == ()


def test_unknown_field_is_named():
    with pytest.raises(ValueError, match="colour"):
        Scope.from_dict({"colour": "red"})


def test_bad_int_is_named():
    with pytest.raises(ValueError, match="scope.year"):
        Scope.from_dict({"year": "twenty"})


def test_violations_and_null_metadata_counts_as_leak():
    s = Scope.from_dict({"subject": "physics", "year": 2019})
    assert s.violations({"subject": "physics", "year": 2019}) == []
    assert s.violations({"subject": "chemistry", "year": 2019}) == ["subject"]
    assert s.violations({"subject": "physics", "year": None}) == ["year"]
    assert Scope().violations({"subject": None}) == []


def test_merge_hints_win_and_proto_round_trip():
    extracted = Scope.from_dict({"subject": "physics", "level": "grade_10"})
    merged = extracted.merged_with(Scope.from_dict({"level": "college"}))
    assert merged.subject == ("physics",) and merged.level == ("college",)
    assert Scope.from_proto(merged.to_proto()) == merged
    assert merged.without("level").level == ()
