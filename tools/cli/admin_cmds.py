"""Offline admin commands: `chsr calibrate` (corpus-level CDFs) and `chsr vocab build`."""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np
from tqdm import tqdm

from chsr.channels import get_channel
from chsr.config import get_settings
from chsr.v1 import retriever_pb2, retriever_pb2_grpc


def add_parsers(sub: argparse._SubParsersAction) -> None:
    s = get_settings()
    p = sub.add_parser("calibrate", help="build corpus-level CDF calibrators for fusion from train or pseudo "
                                         "queries (never test queries), written next to the index")
    p.add_argument("--beir", type=Path, help="BEIR folder: use queries listed in qrels/<split>.tsv")
    p.add_argument("--split", default="train")
    p.add_argument("--pseudo-from", type=Path, help="corpus.jsonl: sample pseudo-queries from chunk texts")
    p.add_argument("--max-queries", type=int, default=200)
    p.add_argument("--depth", type=int, default=5000, help="scores per query (deep top-N approximates the corpus)")
    p.add_argument("--sparse", default=s.sparse_addr)
    p.add_argument("--dense", default=s.dense_addr)
    p.add_argument("--out", type=Path, default=s.data_dir / "calibration",
                   help="the fusion service's calibration dir (<CHSR_DATA_DIR>/calibration)")
    p.add_argument("--seed", type=int, default=42)
    p.set_defaults(func=cmd_calibrate)

    v = sub.add_parser("vocab", help="the gate's corpus-derived vocabulary")
    vsub = v.add_subparsers(dest="vocab_cmd", required=True)
    b = vsub.add_parser("build", help="index a corpus's papers, years, sessions and values into a JSON file "
                                      "(load it with CHSR_VOCABULARY_PATH)")
    b.add_argument("corpus", type=Path, help="BEIR corpus.jsonl with curriculum metadata")
    b.add_argument("out", type=Path, help="output JSON")
    b.set_defaults(func=cmd_vocab_build)


def _queries(args: argparse.Namespace) -> tuple[list[str], str]:
    rng = random.Random(args.seed)
    if args.beir:
        if args.split == "test":
            raise SystemExit("error: --split test: calibration must never see test queries")
        keep = {line.split("\t")[0] for line in (args.beir / "qrels" / f"{args.split}.tsv").read_text().splitlines()[1:]
                if line.strip()}
        texts = [q["text"] for q in map(json.loads, (args.beir / "queries.jsonl").read_text().splitlines())
                 if str(q["_id"]) in keep]
        source = f"{args.beir.name}:{args.split}"
    elif args.pseudo_from:
        lines = args.pseudo_from.read_text(encoding="utf-8").splitlines()
        texts = [" ".join(json.loads(line)["text"].split()[:24]) for line in rng.sample(lines, min(len(lines), 4 * args.max_queries))]
        source = f"pseudo:{args.pseudo_from.name}"
    else:
        raise SystemExit("error: give --beir DATA_DIR or --pseudo-from CORPUS")
    rng.shuffle(texts)
    return texts[: args.max_queries], source


def cmd_calibrate(args: argparse.Namespace) -> int:
    from tools.calibrate.build_cdf import build_calibrators

    s = get_settings()
    texts, source = _queries(args)
    stubs = {"sparse": retriever_pb2_grpc.RetrieverServiceStub(get_channel(args.sparse, s)),
             "dense": retriever_pb2_grpc.RetrieverServiceStub(get_channel(args.dense, s))}
    scores: dict[str, list[np.ndarray]] = {"sparse": [], "dense": []}
    generation = 0
    for text in tqdm(texts, desc="calibrate", unit="q", file=sys.stderr):
        for name, stub in stubs.items():
            resp = stub.Retrieve(retriever_pb2.RetrieveRequest(query=text, k=args.depth), timeout=120)
            scores[name].append(np.array([c.score for c in resp.candidates], dtype=np.float64))
            generation = max(generation, resp.generation)
    written = build_calibrators(scores, args.out, generation, source=source)
    sys.stdout.write("".join(f"{name}: {path}\n" for name, path in written.items()))
    return 0


def cmd_vocab_build(args: argparse.Namespace) -> int:
    from services.gate.corpus_vocabulary import write_corpus_vocabulary

    sys.stdout.write(f"wrote {write_corpus_vocabulary(args.corpus, args.out)}\n")
    return 0
