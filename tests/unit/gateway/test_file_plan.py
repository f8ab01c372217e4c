"""The re-ingest plan: unchanged only where every server agrees; stale ids deleted."""

from __future__ import annotations

import pytest

from chsr.documents import Doc
from gateway.file_plan import agreed_hashes, plan_ingest

pytestmark = pytest.mark.unit


def test_agreed_hashes_trust_only_what_every_server_holds_alike():
    held = {"sparse": {"a": "1", "b": "2", "c": "3"}, "dense": {"a": "1", "b": "X"}}
    assert agreed_hashes(held) == {"a": "1", "b": None, "c": None}
    assert agreed_hashes({}) == {}


def test_plan_writes_changed_and_disagreeing_keeps_agreed_deletes_stale():
    docs = [Doc(id=i, text=f"text {i}") for i in ("a", "b", "n")]
    previous = {"a": docs[0].content_hash(), "b": None, "old": "9"}
    plan = plan_ingest(previous, [(d, d.content_hash()) for d in docs])
    assert [d.id for d in plan.upsert] == ["b", "n"] and plan.unchanged == ["a"] and plan.delete == ["old"]
    assert plan_ingest(previous, []).delete == ["a", "b", "old"]
    with pytest.raises(ValueError):
        plan_ingest({}, [(docs[0], "h"), (docs[0], "h")])
