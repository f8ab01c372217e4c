"""`chsr up --demo`: ingest the bundled demo corpus and answer a sample query."""

from __future__ import annotations

import sys
from pathlib import Path

from chsr.client import GatewayClient
from tools.corpus import read_corpus
from tools.demo import DEMO_CORPUS

from tools.demo import DEMO_CORPUS
SAMPLE_QUERY = "Northfield 2019 physics paper 1 mark scheme: car of 1200 kg accelerating from rest to 15 m/s"


def run_demo(gateway: str, query: str = SAMPLE_QUERY) -> None:
    client = GatewayClient(gateway)
    docs = read_corpus(DEMO_CORPUS)
    summary = client.ingest(docs)
    out = [f"demo corpus: {summary.received} documents ({summary.indexed} newly indexed)", f"sample query: {query}"]
    resp = client.search(query, k=5, pipeline="E")
    for r in resp.results:
        out.append(f"  {r.rank}. {r.doc_id}  {r.score:.4f}  {r.text[:100]}")
    out.append("  timings (ms): " + "  ".join(f"{t.stage}={t.ms:.1f}" for t in resp.timings))
    out.append(f"try: chsr search \"...\" --gateway {gateway} -p E")
    sys.stdout.write("\n".join(out) + "\n")
    sys.stdout.flush()
