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
import contextlib
import importlib
import itertools
import json
import math
import os
import platform
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

# The fast tests of each target, fastest first: a caught mutant usually stops
# in the first file (-x).  Left out everywhere: the browser tests (real
# Chromium, minutes per run: too slow to run once per mutant).
GAME_TESTS = (
    "tests/game/test_rules.py",
    "tests/game/test_engine.py",
    "tests/game/test_records.py",
    "tests/game/test_golden_records.py",
    "tests/game/test_games.py",
    "tests/cli/test_simulate_command.py",
    "tests/game/test_engine_invariants.py",
    "tests/game/test_card_counting.py",  # the engine's public action log is tested there
    "tests/game/test_computer_players.py",
)
MASTER_TESTS = (
    "tests/game/test_master_rollouts.py",
    "tests/game/test_master_search.py",
    "tests/game/test_master_secrecy.py",
    "tests/game/test_master.py",
    "docs/ai.md",  # its example prints a search's exact values
)
# The web server's tests: in-process (Starlette's test client) first, then
# those that start ``quiddler serve`` in a child process (the mutant is
# planted there too: see benchmarks/mutant_site.py).  Left out besides the
# browser tests (test_browser.py, test_page_wording.py): test_web_connections.py,
# two minutes a run (it waits out the server's real time bounds on slow clients:
# server.py's work).
WEB_TESTS = (
    "tests/web/test_web_page_policy.py",
    "tests/web/test_web_thinking_pool.py",
    "tests/web/test_web_table_ids.py",
    "tests/web/test_web_table_state.py",
    "tests/web/test_web_slow_client.py",
    "tests/web/test_web_documented_limits.py",
    "tests/web/test_web_protocol.py",
    "tests/web/test_web_hardening.py",
    "tests/web/test_web_secrecy.py",
    "tests/web/test_web_tables.py",
    "tests/web/test_web_server.py",
    "tests/web/test_web_durability.py",
)


LEFT_OUT = ("tests/web/test_browser.py and test_page_wording.py (real Chromium: minutes a run, too slow to run "
            "once per mutant) and tests/web/test_web_connections.py (two minutes a run: it waits out the server's "
            "time bounds)")


@dataclass(frozen=True)
class Target:
    path: Path
    tests: tuple[str, ...]


def _game(name: str, tests: tuple[str, ...] = GAME_TESTS) -> tuple[str, Target]:
    return f"quiddler.game.{name}", Target(ROOT / f"quiddler/game/{name}.py", tests)


def _web(name: str) -> tuple[str, Target]:
    return f"quiddler.web.{name}", Target(ROOT / f"quiddler/web/{name}.py", WEB_TESTS)


TARGETS: dict[str, Target] = dict([
    *(_game(name) for name in ("rules", "engine", "record", "shuffle", "listhash")),
    *(_game(name, MASTER_TESTS) for name in ("master", "sampling")),
    *(_web(name) for name in ("protocol", "tables", "thinking", "app", "limits")),
])  # fmt: skip
RESULTS = ROOT / "benchmarks" / "results" / "mutation.json"
HOOK = ROOT / "benchmarks" / "mutant_site.py"

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
    for module, target in TARGETS.items():
        source = _SOURCES[module] = target.path.read_bytes()
        finder = _Finder(module, source)
        finder.visit(ast.parse(source))
        seen: dict[tuple[str, ...], int] = {}
        for mutant in sorted(finder.found, key=lambda m: (m.start, m.kind, m.after)):
            base = mutant.key()[:5]
            mutants.append(replace(mutant, occurrence=seen.get(base, 0)))
            seen[base] = seen.get(base, 0) + 1
    return mutants


def _plant(mutant: Mutant, folder: Path) -> dict[str, str]:
    """The environment that plants ``mutant`` in the test process and in
    every Python process it starts (see benchmarks/mutant_site.py)."""
    source = _SOURCES[mutant.module]
    (folder / "mutant.py").write_bytes(source[: mutant.start] + mutant.after.encode() + source[mutant.end :])
    shutil.copy(HOOK, folder / "sitecustomize.py")
    named = {"module": mutant.module, "path": str(TARGETS[mutant.module].path), "source": str(folder / "mutant.py")}
    return {"QUIDDLER_MUTANT": json.dumps(named),
            "PYTHONPATH": os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")]))}  # fmt: skip


def run_tests(mutant: Mutant | None, tests: tuple[str, ...], timeout: float) -> tuple[str, float]:
    """Fork, plant ``mutant`` (None: the unchanged code), run ``tests``."""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="quiddler-mutant-") as folder:
        planted = _plant(mutant, Path(folder)) if mutant is not None else {}
        pid = os.fork()
        if pid == 0:  # the child, in a process group of its own: a timeout kills the servers it started too
            try:
                os.setpgid(0, 0)
                import pytest

                os.environ.update(planted)
                if planted:
                    import mutant_site

                    mutant_site.install()
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, 1)
                os.dup2(devnull, 2)
                code = pytest.main(["-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                                    "--no-header", "-W", "ignore", *tests])  # fmt: skip
            except BaseException:  # noqa: BLE001 - whatever happens, the forked child must exit here
                code = 3
            os._exit(int(code))
        deadline = start + timeout
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                code = os.waitstatus_to_exitcode(status)
                outcome = "survived" if code == 0 else "caught"
                break
            if time.perf_counter() > deadline:
                os.killpg(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                outcome = "timeout"
                break
            time.sleep(0.05)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)  # a server the tests left behind
    return outcome, time.perf_counter() - start


def _prepare() -> None:
    """Import what every child needs once, so a child costs only the tests.
    Nothing of quiddler.game or quiddler.web: each child imports those
    itself, the mutant among them."""
    os.chdir(ROOT)
    sys.dont_write_bytecode = True
    sys.path.insert(0, str(HOOK.parent))
    import click  # noqa: F401
    import hypothesis  # noqa: F401
    import pytest  # noqa: F401

    from quiddler import default_wordlist, solve

    for optional in ("starlette.applications", "starlette.testclient", "httpx", "websockets.sync.client"):
        with contextlib.suppress(ImportError):
            importlib.import_module(optional)
    solve("q,u,i,t", wordlist=default_wordlist(), backend="numba")  # compiled kernels loaded before forking
    assert not any(n.startswith(("quiddler.game", "quiddler.web")) for n in sys.modules)


def _git(*args: str) -> str:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
    return done.stdout.strip()


def _sample(mutants: list[Mutant], per_module: int | None, seed: int) -> list[Mutant]:
    """``per_module`` mutants of each module, drawn by ``seed`` (every one of a module with fewer),
    the modules taking turns: a run stopped part-way has a smaller sample of each."""
    if per_module is None:
        return mutants
    drawn = [random.Random(f"{seed}/{module}").sample(mine, min(per_module, len(mine)))
             for module in TARGETS if (mine := [m for m in mutants if m.module == module])]  # fmt: skip
    return [m for turn in itertools.zip_longest(*drawn) for m in turn if m is not None]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=None, metavar="N",
                        help="run a seeded random sample of N mutants of each module")  # fmt: skip
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default=None, metavar="MODULES",
                        help="comma-separated module names (rules,master,protocol,...): run only these, "
                             "keeping the other modules' rows of the --output report")  # fmt: skip
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--output", type=Path, default=RESULTS)
    parser.add_argument("--rerun", type=Path, default=None, metavar="REPORT",
                        help="run only the mutants REPORT did not catch; keep its other rows")  # fmt: skip
    parser.add_argument("--combine", type=Path, nargs="+", default=None, metavar="REPORT",
                        help="write --output from these reports (each mutant's status from the last that ran it)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.combine:
        combine(args.combine, args.output)
        return
    modules = list(TARGETS)
    if args.only:
        names = args.only.split(",")
        unknown = [n for n in names if n not in {_short(m) for m in TARGETS}]
        if unknown:
            parser.error(f"--only: no such module: {', '.join(unknown)}")
        modules = [m for m in TARGETS if _short(m) in names]
    mutants = [m for m in find_mutants() if m.module in modules]
    in_code = Counter(m.module for m in mutants)
    kept: list[dict[str, Any]] = []
    pending: dict[tuple[Any, ...], dict[str, Any]] = {}  # a rerun's rows not run again yet: their old status
    if args.rerun is not None:
        previous = json.loads(args.rerun.read_text())
        rows = [r for r in previous["rows"] if r["module"] in modules]
        current = {m.key() for m in mutants}
        before = {tuple(r["key"]) for r in rows}
        caught = {tuple(r["key"]) for r in rows if r["status"] == "caught"}
        # A module run in full before: run what it did not catch and any new code.  A sampled
        # module: only its own rows not caught (the sample stays the same).
        whole = {m for m in modules if sum(r["module"] == m for r in rows) == in_code[m]}
        kept = [r for r in rows if r["status"] == "caught" and tuple(r["key"]) in current]
        mutants = [m for m in mutants if m.key() not in caught and (m.key() in before or m.module in whole)]
        pending = {tuple(r["key"]): r for r in rows if r["status"] != "caught" and tuple(r["key"]) in current}
        print(f"rerun: {len(kept)} caught before and unchanged; running {len(mutants)} "
              f"({sum(m.key() not in before for m in mutants)} in new or changed code); "
              f"{len(before - current)} mutants of the old code no longer exist")
    else:
        mutants = _sample(mutants, args.sample, args.seed)
    if args.list:
        for mutant in mutants:
            print(mutant.label)
        print(f"{len(mutants)} mutants")
        return
    if not mutants:
        print("nothing to run")
        return
    _prepare()
    groups = list(dict.fromkeys(TARGETS[m.module].tests for m in mutants))
    baselines: dict[tuple[str, ...], float] = {}
    for tests in groups:
        status, seconds = run_tests(None, tests, timeout=900)
        if status != "survived":
            raise SystemExit(f"the tests fail on the unchanged code: fix them first ({' '.join(tests)})")
        baselines[tests] = seconds
        print(f"unchanged code: {len(tests)} test files pass in {seconds:.1f} s ({tests[0]} ...)", flush=True)
    others: list[dict[str, Any]] = []
    runs: list[dict[str, Any]] = []
    if args.only and args.output.exists():  # keep the other modules' results
        old = json.loads(args.output.read_text())
        others = [r for r in old["rows"] if r["module"] not in modules]
        runs = old.get("runs", [])
        for module in {r["module"] for r in others}:
            in_code[module] = old["by_module"][_short(module)]["in_code"]
    outcomes: list[dict[str, Any]] = []
    began = time.perf_counter()
    args.output.parent.mkdir(parents=True, exist_ok=True)
    for number, mutant in enumerate(mutants, 1):
        tests = TARGETS[mutant.module].tests
        status, seconds = run_tests(mutant, tests, timeout=max(60.0, 3 * baselines[tests]))
        outcomes.append({**asdict(mutant), "code": mutant.line_text, "key": list(mutant.key()), "status": status,
                         "seconds": round(seconds, 2)})  # fmt: skip
        print(f"[{number:>3}/{len(mutants)}] {status:<8} {seconds:5.1f} s  {mutant.label}", flush=True)
        # Written after every mutant: a run stopped part-way keeps what it measured.
        run = _run(args, baselines, time.perf_counter() - began, finished=number == len(mutants))
        pending.pop(tuple(mutant.key()), None)
        report = _report(others + kept + outcomes + list(pending.values()), in_code, [*runs, run])
        args.output.write_text(json.dumps(report, indent=1) + "\n")
    _print(report)
    print(f"written to {args.output}")


def combine(paths: list[Path], output: Path) -> None:
    """One report from the reports of several runs (over different modules,
    or more samples of one): every mutant any of them ran, with its status
    in the last report that ran it; every run listed."""
    rows: dict[tuple[Any, ...], dict[str, Any]] = {}
    in_code: Counter[str] = Counter()
    runs: list[dict[str, Any]] = []
    for path in paths:
        report = json.loads(path.read_text())
        rows.update((tuple(r["key"]), r) for r in report["rows"])
        for name, counts in report["by_module"].items():
            in_code[next(m for m in TARGETS if _short(m) == name)] = counts["in_code"]
        runs += report["runs"]
    order = list(TARGETS)
    combined = _report(sorted(rows.values(), key=lambda r: (order.index(r["module"]), r["start"])), in_code, runs)
    output.write_text(json.dumps(combined, indent=1) + "\n")
    _print(combined)
    print(f"written to {output}")


def _short(module: str) -> str:
    return module.rsplit(".", 1)[1]


def _counts(rows: list[dict[str, Any]]) -> dict[str, Any]:
    total = len(rows)
    counts = {status: sum(r["status"] == status for r in rows) for status in ("caught", "timeout", "survived")}
    return {"mutants": total, **counts, "score": round(counts["caught"] / total, 4) if total else None,
            "score_95": _wilson(counts["caught"], total)}  # fmt: skip


def _wilson(successes: int, n: int, z: float = 1.96) -> list[float] | None:
    """The 95% Wilson interval of a score measured on a sample of ``n`` mutants."""
    if not n:
        return None
    p = successes / n
    centre, half = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return [round((centre - half) / (1 + z * z / n), 4), round((centre + half) / (1 + z * z / n), 4)]


def _run(args: argparse.Namespace, baselines: dict[tuple[str, ...], float], seconds: float,
         finished: bool) -> dict[str, Any]:  # fmt: skip
    """What one run of this script measured: the commit, its options, the load."""
    return {
        "commit": _git("rev-parse", "HEAD"),
        "uncommitted_changes": bool(_git("status", "--porcelain", "--untracked-files=no")),
        "modules": args.only or "all",
        "sample": args.sample,
        "seed": args.seed,
        "rerun_of": str(args.rerun) if args.rerun else None,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "baseline_test_seconds": {" ".join(tests): round(s, 1) for tests, s in baselines.items()},
        "total_seconds": round(seconds, 1),
        "finished": finished,
    }


def _report(rows: list[dict[str, Any]], in_code: Counter[str], runs: list[dict[str, Any]]) -> dict[str, Any]:
    present = [m for m in TARGETS if any(r["module"] == m for r in rows)]
    not_caught = [r for r in rows if r["status"] != "caught"]
    by_module = {
        _short(module): {
            "path": str(TARGETS[module].path.relative_to(ROOT)),
            **_counts([r for r in rows if r["module"] == module]),
            "in_code": in_code[module],
            "tests": list(TARGETS[module].tests),
            "not_caught": [f"{r['line']}: {r['kind']} {r['before']!r} -> {r['after']!r} in {r.get('code', '?')}"
                           for r in not_caught if r["module"] == module],
        }
        for module in present
    }
    sampled = {name: c["mutants"] for name, c in by_module.items() if c["mutants"] < c["in_code"]}
    return {
        "what": "mutation testing of quiddler/game (rules, engine, record, shuffle, listhash, master, sampling) "
                "and quiddler/web (protocol, tables, thinking, app, limits) (benchmarks/mutation.py)",
        "machine": {"nproc": os.cpu_count(), "python": platform.python_version(),
                    "note": "shared, noisy 2-core machine: times are indicative"},
        "tests": sorted({t for m in present for t in TARGETS[m].tests}),
        "left_out": LEFT_OUT,
        "sample": runs[-1]["sample"],
        "sample_note": _sample_note(sampled, by_module),
        "seed": runs[-1]["seed"],
        "overall": {**_counts(rows), "in_code": sum(in_code[m] for m in present)},
        "by_module": by_module,
        "not_caught": [
            {k: r.get(k) for k in ("module", "line", "kind", "before", "after", "code", "status")} for r in not_caught
        ],
        "runs": runs,
        "rows": rows,
    }


def _sample_note(sampled: dict[str, int], by_module: dict[str, dict[str, Any]]) -> str:
    if not sampled:
        return "every mutant of every module"
    parts = ", ".join(f"{name} {n} of {by_module[name]['in_code']}" for name, n in sampled.items())
    return f"a seeded random sample of the mutants of some modules ({parts}); every mutant of the others"


def _print(report: dict[str, Any]) -> None:
    print(f"\n{'module':<10} {'in code':>8} {'run':>5} {'caught':>7} {'timeout':>8} {'survived':>9} {'score':>7}")
    for name, c in [*report["by_module"].items(), ("all", report["overall"])]:
        score = f"{c['score']:.1%}" if c["score"] is not None else "-"
        print(f"{name:<10} {c['in_code']:>8} {c['mutants']:>5} {c['caught']:>7} {c['timeout']:>8} "
              f"{c['survived']:>9} {score:>7}")  # fmt: skip


if __name__ == "__main__":
    main()
