"""Mutation testing of the game's rules, engine and record code.

Plants one small, realistic bug at a time (a flipped comparison, an
off-by-one constant, ``and`` for ``or``, a dropped statement, ``min`` for
``max``...) in quiddler/game/{rules,engine,record,shuffle,listhash}.py, runs
the game tests against it, and reports how many the tests catch:

- ``caught``: a test failed (cleanly, within the time limit);
- ``timeout``: the tests did not finish in time (a hang: caught, not cleanly);
- ``survived``: every test passed: a bug the tests let through.

The score is caught / all mutants (timeouts count against it).  Results go
to benchmarks/results/mutation.json with every survivor listed.

Mutants never touch the files: each runs in a forked child of a process
that has already imported pytest and numba, with an import hook serving the
mutated source of the one module, so a run costs the tests' time only.  A
line ending in ``# pragma: no mutate`` is skipped (for equivalent mutants,
each with a reason next to it).

    python benchmarks/mutation.py                 # every mutant (~20-40 min on 2 busy cores)
    python benchmarks/mutation.py --sample 40     # a seeded sample, for a quick look
    python benchmarks/mutation.py --list          # print the mutants only
    python benchmarks/mutation.py --rerun benchmarks/results/mutation.json
        # after adding tests: run again only what that report did not catch,
        # and write the report with those statuses updated

The machine this runs on is shared and noisy: times are indicative only.
"""

from __future__ import annotations

import argparse
import ast
import importlib.abc
import importlib.util
import json
import os
import platform
import random
import signal
import sys
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {
    "quiddler.game.rules": ROOT / "quiddler/game/rules.py",
    "quiddler.game.engine": ROOT / "quiddler/game/engine.py",
    "quiddler.game.record": ROOT / "quiddler/game/record.py",
    "quiddler.game.shuffle": ROOT / "quiddler/game/shuffle.py",
    "quiddler.game.listhash": ROOT / "quiddler/game/listhash.py",
}
# Fastest first: a caught mutant usually stops in the first file (-x).
TESTS = [
    "tests/game/test_rules.py",
    "tests/game/test_engine.py",
    "tests/game/test_records.py",
    "tests/game/test_golden_records.py",
    "tests/game/test_games.py",
    "tests/game/test_simulate_command.py",
    "tests/game/test_engine_invariants.py",
    "tests/game/test_card_counting.py",  # the engine's public action log is tested there
    "tests/game/test_computer_players.py",
]
RESULTS = ROOT / "benchmarks" / "results" / "mutation.json"

_COMPARE_SWAPS = {
    ast.Lt: "<=", ast.LtE: "<", ast.Gt: ">=", ast.GtE: ">",
    ast.Eq: "!=", ast.NotEq: "==", ast.In: "not in", ast.NotIn: "in", ast.Is: "is not", ast.IsNot: "is",
}  # fmt: skip
_COMPARE_TOKENS = {
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
    ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not",
}  # fmt: skip
_BINOP_SWAPS = {ast.Add: ("+", "-"), ast.Sub: ("-", "+"), ast.Mult: ("*", "+"), ast.Mod: ("%", "//")}
_CALL_SWAPS = {"min": "max", "max": "min", "any": "all", "all": "any"}
_SKIP_FUNCTIONS = {"__repr__", "_snapshot", "_short", "to_dict_for_display"}


@dataclass(frozen=True)
class Mutant:
    module: str
    line: int
    kind: str
    before: str
    after: str
    start: int  # byte offsets in the file
    end: int
    occurrence: int = 0  # how many identical mutants (same line text) come before it in the file

    @property
    def line_text(self) -> str:
        return _SOURCES[self.module].split(b"\n")[self.line - 1].decode().strip()

    def key(self) -> tuple[str, str, str, str, str, int]:
        """What identifies a mutant across edits that move lines (identical
        lines, such as two ``hand.remove(card)``, by their order)."""
        return (self.module, self.kind, self.before, self.after, self.line_text, self.occurrence)

    @property
    def label(self) -> str:
        return f"{self.module.rsplit('.', 1)[1]}.py:{self.line} {self.kind}: {self.before!r} -> {self.after!r}"


def _offsets(source: bytes) -> list[int]:
    starts = [0]
    for i, byte in enumerate(source):
        if byte == 0x0A:
            starts.append(i + 1)
    return starts


class _Finder(ast.NodeVisitor):
    """Collects the mutants of one module."""

    def __init__(self, module: str, source: bytes) -> None:
        self.module, self.source = module, source
        self.lines = source.split(b"\n")
        self.starts = _offsets(source)
        self.found: list[Mutant] = []
        self.skip_depth = 0

    def at(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col

    def add(self, node: ast.AST, kind: str, start: int, end: int, after: str) -> None:
        line = node.lineno  # type: ignore[attr-defined]
        if self.lines[line - 1].rstrip().endswith(b"# pragma: no mutate"):
            return
        before = self.source[start:end].decode()
        if before != after:
            self.found.append(Mutant(self.module, line, kind, before, after, start, end))

    def span(self, node: ast.AST) -> tuple[int, int]:
        return (self.at(node.lineno, node.col_offset),  # type: ignore[attr-defined]
                self.at(node.end_lineno, node.end_col_offset))  # type: ignore[attr-defined]  # fmt: skip

    # -- where not to mutate: messages, docstrings, annotations, debug helpers --

    def visit_Raise(self, node: ast.Raise) -> None:
        return  # the error raised (its message) is not the bug; the condition above it is mutated

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        return

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        if node.name in _SKIP_FUNCTIONS:
            return
        for statement in node.body:
            self.visit(statement)
        for default in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
            self.visit(default)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)

    def visit_Assign(self, node: ast.Assign) -> None:
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return
        self.generic_visit(node)

    def visit_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Constant):
            return  # docstring
        if isinstance(node.value, ast.Call):
            start, end = self.span(node)
            self.add(node, "drop statement", start, end, "pass")
        self.generic_visit(node)

    def visit_If(self, node: ast.If) -> None:
        if isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            return
        self.generic_visit(node)

    # -- the mutations ---------------------------------------------------------

    def visit_Compare(self, node: ast.Compare) -> None:
        left = node.left
        for op, right in zip(node.ops, node.comparators):
            gap_start = self.at(left.end_lineno, left.end_col_offset)  # type: ignore[arg-type]
            gap_end = self.at(right.lineno, right.col_offset)
            gap = self.source[gap_start:gap_end].decode()
            token = _COMPARE_TOKENS[type(op)]
            index = gap.find(token)
            if index >= 0:
                start = gap_start + len(gap[:index].encode())
                self.add(node, "comparison", start, start + len(token.encode()), _COMPARE_SWAPS[type(op)])
            left = right
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        swap = _BINOP_SWAPS.get(type(node.op))
        texts = (ast.JoinedStr, ast.Constant)
        if any(isinstance(side, texts) and not isinstance(getattr(side, "value", None), int)
               for side in (node.left, node.right)):  # fmt: skip
            swap = None  # "a" - "b" is a TypeError at once, not a realistic bug
        if swap is not None:
            gap_start = self.at(node.left.end_lineno, node.left.end_col_offset)  # type: ignore[arg-type]
            gap_end = self.at(node.right.lineno, node.right.col_offset)
            gap = self.source[gap_start:gap_end].decode()
            index = gap.find(swap[0])
            if index >= 0:
                start = gap_start + len(gap[:index].encode())
                self.add(node, "arithmetic", start, start + len(swap[0]), swap[1])
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        token = {ast.Add: "+=", ast.Sub: "-="}.get(type(node.op))  # type: ignore[call-overload]
        if token is not None:
            start, end = self.span(node)
            text = self.source[start:end].decode()
            i = text.find(token)
            s = start + len(text[:i].encode())
            self.add(node, "arithmetic", s, s + 2, "-=" if token == "+=" else "+=")
        self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        token, other = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
        for left, right in zip(node.values, node.values[1:]):
            gap_start = self.at(left.end_lineno, left.end_col_offset)  # type: ignore[arg-type]
            gap_end = self.at(right.lineno, right.col_offset)
            gap = self.source[gap_start:gap_end].decode()
            index = gap.find(token)
            if index >= 0:
                start = gap_start + len(gap[:index].encode())
                self.add(node, "boolean", start, start + len(token), other)
        self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if isinstance(node.op, ast.Not):
            start, end = self.span(node)
            inner_start, _ = self.span(node.operand)
            self.add(node, "drop not", start, end, self.source[inner_start:end].decode())
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        start, end = self.span(node)
        if isinstance(node.value, bool):
            self.add(node, "constant", start, end, str(not node.value))
        elif isinstance(node.value, int):
            self.add(node, "constant", start, end, str(node.value + 1))

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Name) and node.func.id in _CALL_SWAPS:
            start, end = self.span(node.func)
            self.add(node, "call", start, end, _CALL_SWAPS[node.func.id])
        self.generic_visit(node)

    def visit_Return(self, node: ast.Return) -> None:
        if isinstance(node.value, ast.Constant) and node.value.value is None:
            return
        self.generic_visit(node)


_SOURCES: dict[str, bytes] = {}  # as read when the mutants were found


def find_mutants() -> list[Mutant]:
    mutants: list[Mutant] = []
    for module, path in TARGETS.items():
        source = _SOURCES[module] = path.read_bytes()
        finder = _Finder(module, source)
        finder.visit(ast.parse(source))
        seen: dict[tuple[str, ...], int] = {}
        for mutant in sorted(finder.found, key=lambda m: (m.start, m.kind, m.after)):
            base = mutant.key()[:5]
            mutants.append(replace(mutant, occurrence=seen.get(base, 0)))
            seen[base] = seen.get(base, 0) + 1
    return mutants


class _MutantLoader(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves the mutated source of one module."""

    def __init__(self, module: str, source: bytes) -> None:
        self.module, self.source = module, source

    def find_spec(self, fullname, path, target=None):  # type: ignore[no-untyped-def]
        if fullname != self.module:
            return None
        return importlib.util.spec_from_file_location(fullname, TARGETS[fullname], loader=self)

    def create_module(self, spec):  # type: ignore[no-untyped-def]
        return None

    def exec_module(self, module):  # type: ignore[no-untyped-def]
        code = compile(self.source, str(TARGETS[self.module]), "exec")
        exec(code, module.__dict__)  # noqa: S102 - running the mutated module is the point


def run_tests(mutant: Mutant | None, timeout: float) -> tuple[str, float]:
    """Fork, plant ``mutant`` (None: the unchanged code), run the tests."""
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child
        try:
            import pytest

            for name in [n for n in sys.modules if n == "quiddler.game" or n.startswith("quiddler.game.")]:
                del sys.modules[name]
            if mutant is not None:
                source = _SOURCES[mutant.module]
                mutated = source[: mutant.start] + mutant.after.encode() + source[mutant.end :]
                sys.meta_path.insert(0, _MutantLoader(mutant.module, mutated))
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            code = pytest.main(["-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                                "--no-header", "-W", "ignore", *TESTS])  # fmt: skip
        except BaseException:  # noqa: BLE001 - whatever happens, the forked child must exit here
            code = 3
        os._exit(int(code))
    deadline = start + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status)
            return ("survived" if code == 0 else "caught"), time.perf_counter() - start
        if time.perf_counter() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "timeout", time.perf_counter() - start
        time.sleep(0.05)


def _prepare() -> None:
    """Import what every child needs once, so a child costs only the tests."""
    os.chdir(ROOT)
    sys.dont_write_bytecode = True
    import click  # noqa: F401
    import hypothesis  # noqa: F401
    import pytest  # noqa: F401

    from quiddler import default_wordlist, solve

    solve("q,u,i,t", wordlist=default_wordlist(), backend="numba")  # compiled kernels loaded before forking


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=None, help="run a seeded random sample of N mutants")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--output", type=Path, default=RESULTS)
    parser.add_argument("--rerun", type=Path, default=None, metavar="REPORT",
                        help="run only the mutants REPORT did not catch; keep its other rows")  # fmt: skip
    args = parser.parse_args(argv)
    mutants = find_mutants()
    kept: list[dict[str, object]] = []
    if args.rerun is not None:
        previous = json.loads(args.rerun.read_text())
        current = {m.key() for m in mutants}
        before = {tuple(row["key"]) for row in previous["rows"]}
        caught = {tuple(row["key"]) for row in previous["rows"] if row["status"] == "caught"}
        # Kept: caught before and still in the code.  Run: not caught before, or new code.
        kept = [row for row in previous["rows"] if row["status"] == "caught" and tuple(row["key"]) in current]
        mutants = [m for m in mutants if m.key() not in caught]
        print(f"rerun: {len(kept)} caught before and unchanged; running {len(mutants)} "
              f"({sum(m.key() not in before for m in mutants)} in new or changed code); "
              f"{len(before - current)} mutants of the old code no longer exist")
    if args.list:
        for mutant in mutants:
            print(mutant.label)
        print(f"{len(mutants)} mutants")
        return
    if args.sample is not None and args.sample < len(mutants):
        mutants = sorted(random.Random(args.seed).sample(mutants, args.sample), key=lambda m: (m.module, m.start))
    _prepare()
    status, baseline = run_tests(None, timeout=900)
    if status != "survived":
        raise SystemExit("the tests fail on the unchanged code: fix them first")
    timeout = max(60.0, 3 * baseline)
    print(f"unchanged code: tests pass in {baseline:.1f} s; {len(mutants)} mutants, timeout {timeout:.0f} s each",
          flush=True)  # fmt: skip
    outcomes: list[dict[str, object]] = []
    began = time.perf_counter()
    for number, mutant in enumerate(mutants, 1):
        status, seconds = run_tests(mutant, timeout)
        outcomes.append({**asdict(mutant), "key": list(mutant.key()), "status": status,
                         "seconds": round(seconds, 2)})  # fmt: skip
        print(f"[{number:>3}/{len(mutants)}] {status:<8} {seconds:5.1f} s  {mutant.label}", flush=True)
    write_report(kept + outcomes, baseline, time.perf_counter() - began, args)


def _counts(rows: list[dict[str, object]]) -> dict[str, object]:
    total = len(rows)
    counts = {status: sum(r["status"] == status for r in rows) for status in ("caught", "timeout", "survived")}
    return {"mutants": total, **counts, "score": round(counts["caught"] / total, 4) if total else None}


def write_report(rows: list[dict[str, object]], baseline: float, seconds: float, args: argparse.Namespace) -> None:
    by_module = {module.rsplit(".", 1)[1]: _counts([r for r in rows if r["module"] == module]) for module in TARGETS}
    report = {
        "what": "mutation testing of quiddler/game rules, engine, record, shuffle and listhash (benchmarks/mutation.py)",
        "machine": {"nproc": os.cpu_count(), "python": platform.python_version(),
                    "note": "shared, noisy 2-core machine: times are indicative"},
        "tests": TESTS,
        "sample": args.sample,
        "seed": args.seed,
        "baseline_test_seconds": round(baseline, 1),
        "total_seconds": round(seconds, 1),
        "overall": _counts(rows),
        "by_module": by_module,
        "not_caught": [
            {k: r[k] for k in ("module", "line", "kind", "before", "after", "status")}
            for r in rows if r["status"] != "caught"
        ],
        "rerun_of": str(args.rerun) if args.rerun else None,
        "rows": rows,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=1) + "\n")
    print(f"\n{'module':<10} {'mutants':>8} {'caught':>7} {'timeout':>8} {'survived':>9} {'score':>7}")
    for name, c in [*by_module.items(), ("all", report["overall"])]:
        score = f"{c['score']:.1%}" if c["score"] is not None else "-"
        print(f"{name:<10} {c['mutants']:>8} {c['caught']:>7} {c['timeout']:>8} {c['survived']:>9} {score:>7}")
    print(f"written to {args.output}")


if __name__ == "__main__":
    main()
