"""The ``ik-doctor`` command line: the same checks as the panel, for pipelines and CI."""

from __future__ import annotations

import argparse
import sys


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ik-doctor", description="Find out why a rig's IK does not work, and fix it."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser(
        "demo", help="build the built-in rig with its faults, diagnose, fix and verify"
    )
    demo.add_argument("--output", default="ik_doctor_demo.blend", help="where to save the rig")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "demo":
        from .demo import run_demo

        return run_demo(args.output, out=sys.stdout)
    return 2
