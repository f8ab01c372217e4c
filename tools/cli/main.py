"""`chsr` console script: run the mesh, ingest, search, benchmark."""

from __future__ import annotations

import argparse
import sys

from chsr.extras import install_hint
from chsr.logging_setup import configure_logging


def build_parser() -> argparse.ArgumentParser:
    # imported here: a base install (no 'tools' extra) gets a line naming the extra, not a traceback
    from tools.cli import admin_cmds, bench_cmd, client_cmds, eval_cmds, train_cmd, up_cmd

    parser = argparse.ArgumentParser(prog="chsr", description=__doc__)
    parser.add_argument("--log-level", default="WARNING")
    sub = parser.add_subparsers(dest="command", required=True)
    up_cmd.add_parser(sub)
    for commands in (client_cmds, eval_cmds, train_cmd, bench_cmd, admin_cmds):
        commands.add_parsers(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        configure_logging(args.log_level, fmt="text")
        return int(args.func(args) or 0)
    except ModuleNotFoundError as exc:
        sys.stderr.write(f"chsr: {install_hint(exc, 'this command')}\n")
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
