"""IDF-weighted activation, 1-hop spreading and the Louvain fallback, by hand (services/graph/graph_index.py)."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from services.graph.extract import Extraction
from services.graph import graph_index as gi
from services.graph.graph_index import GraphIndex

pytestmark = pytest.mark.unit


def ex(entities: list[str], relations: list[tuple[str, str, str]] = ()) -> Extraction:  # type: ignore[assignment]
    out = Extraction(entities=Counter(entities))
    out.relations.extend(relations)
    return out


def test_activation_idf_then_one_hop_by_hand():
    # doc0 {x, y}, doc1 {y, z}, doc2 {w}; edges x-y, y-z. N = 3, df(x) = 1.
    g = GraphIndex.build([ex(["x", "y"], [("x", "", "y")]), ex(["y", "z"], [("y", "r", "z")]), ex(["w"])])
    assert (len(g.entities), g.n_edges, g.relations) == (4, 2, 1)
    a = g.activation(["x"])
    seed = math.log1p(3 / 1)                               # ln 4 = 1.386294
    assert a[g.entities["x"]] == pytest.approx(seed)
    assert a[g.entities["y"]] == pytest.approx(gi.HOP_DECAY * seed)   # x's only neighbour gets half
    assert a[g.entities["z"]] == 0.0                        # two hops away
    # x has degree 1 (< MIN_DEGREE) but df 1, so it is outside the Louvain graph (df >= 2): no fallback
    scores = g.scores(["x"])
    assert scores.tolist() == pytest.approx([(seed + 0.5 * seed) / math.sqrt(2), 0.5 * seed / math.sqrt(2), 0.0],
                                            abs=1e-6)


def test_idf_weights_rare_entities_above_common_ones():
    assert gi.idf(np.array([1.0, 10.0]), 10).tolist() == pytest.approx([math.log(11), math.log(2)])


def test_louvain_fallback_activates_the_community_of_a_weakly_linked_query_entity():
    # q appears twice but links only to p; p, r, s form a triangle; u, v form another component.
    docs = [ex(["q", "p"], [("q", "", "p")]), ex(["q"]), ex(["p", "r"], [("p", "", "r")]),
            ex(["r", "s"], [("r", "", "s")]), ex(["p", "s"], [("p", "", "s")]),
            ex(["u", "v"], [("u", "", "v")]), ex(["u", "v"])]
    g = GraphIndex.build(docs)
    community = g.communities()
    q = g.entities["q"]
    members = np.flatnonzero(community == community[q])
    a = g.activation(["q"])
    seed = math.log1p(len(docs) / 2)
    expected = np.zeros(len(g.entities))
    expected[q] = seed
    expected[g.entities["p"]] += gi.HOP_DECAY * seed
    expected[members] += gi.COMMUNITY_DECAY * seed / math.sqrt(members.size)
    assert a.tolist() == pytest.approx(expected.tolist())
    assert a[g.entities["u"]] == 0.0 and community[g.entities["u"]] != community[q]


def test_a_query_naming_no_entity_scores_nothing():
    g = GraphIndex.build([ex(["x"])])
    assert g.scores(["nothing"]).tolist() == [0.0]
