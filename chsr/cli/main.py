"""`chsr` console script: run the mesh, ingest, search, benchmark."""

from __future__ import annotations

import argparse
import sys

from chsr.cli import client_cmds, up_cmd
from chsr.logging_setup import configure_logging


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="chsr", description=__doc__)
    parser.add_argument("--log-level", default="WARNING")
    sub = parser.add_subparsers(dest="command", required=True)
    up_cmd.add_parser(sub)
    client_cmds.add_parsers(sub)
    _add_optional(sub)
    return parser


def _add_optional(sub: argparse._SubParsersAction) -> None:
    """Commands whose modules pull heavy dependencies register lazily."""
    for module in ("chsr.cli.eval_cmds", "chsr.cli.train_cmd", "chsr.cli.bench_cmd", "chsr.cli.admin_cmds"):
        try:
            mod = __import__(module, fromlist=["add_parsers"])
        except ModuleNotFoundError:
            continue
        mod.add_parsers(sub)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    configure_logging(args.log_level, fmt="text")
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
