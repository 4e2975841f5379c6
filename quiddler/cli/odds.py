"""``quiddler odds``: go-out odds by hand size.  Parsing and printing only;
the table comes from :func:`quiddler.odds.go_out_odds` (which imports numpy
and numba).

The solver threads are ``--threads``; ``--workers``, their old name, still
works but is hidden, since elsewhere (``simulate``) workers are processes."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from ..odds import TURNS, OddsTable, go_out_odds, parse_cards_range
from ..solver import show_notices
from ..wordlist import WordList
from .errors import InputError, OneLineErrors
from .params import json_option, progress_option, seed_option, wordlist_option

__all__ = ["odds"]

_EPILOG = """\b
Examples:
  quiddler odds
  quiddler odds --cards 7 --trials 200000 --turn blind
  quiddler odds --cards 3-10 --seed 1 --json
  quiddler odds --wordlist house-words.txt --cards 5-8"""


@click.command("odds", cls=OneLineErrors, epilog=_EPILOG, short_help="How often a dealt hand can go out, by hand size.")
@click.option("--cards", "cards_text", default="3-10", show_default=True, metavar="LOW-HIGH",
              help="Hand sizes: a range such as 3-10, or one size.")  # fmt: skip
@click.option("--trials", type=click.IntRange(min=1), default=80_000, show_default=True, metavar="N",
              help="Random deals per hand size.")  # fmt: skip
@click.option("--turn", type=click.Choice(TURNS), default="first", show_default=True,
              help="first: take the discard top if it goes out, else draw blind; blind: a blind draw only.")  # fmt: skip
@wordlist_option
@seed_option
@click.option("--threads", type=click.IntRange(min=1), default=None, metavar="N",
              help="Solver threads in this process (default: every core).")  # fmt: skip
@click.option("--workers", "threads_alias", type=click.IntRange(min=1), default=None, metavar="N", hidden=True,
              help="The old name of --threads.")  # fmt: skip
@json_option
@progress_option
@click.pass_context
def odds(ctx: click.Context, /, cards_text: str, trials: int, turn: str, wordlist: WordList | None,
         seed: int | None, threads: int | None, threads_alias: int | None, as_json: bool,
         progress: bool | None) -> None:  # fmt: skip
    """Estimate, for each hand size, the chance that a freshly dealt hand
    can go out on its first turn (lay down every card but one discard),
    with its standard error, and the mean and quartiles of the best score
    of the hand after the draw.  Monte Carlo over deals from the official
    118-card deck, solved exactly by the compiled batch solver."""
    show_notices()  # the solver's compile notice, on stderr (once per install)
    if threads is not None and threads_alias is not None and threads != threads_alias:
        raise InputError("give --threads or --workers (its old name), not both")
    workers = threads if threads is not None else threads_alias
    try:
        sizes = parse_cards_range(cards_text)
    except ValueError as exc:
        raise InputError(f"--cards: {exc}") from None
    show = progress if progress is not None else sys.stderr.isatty()
    bar: Any = None
    if show:
        from tqdm import tqdm

        # leave=False: the bar goes once the table is printed, which says it all.
        bar = tqdm(total=trials * len(sizes), desc="deals", unit="deal", unit_scale=True, file=sys.stderr,
                   leave=False)  # fmt: skip
    try:
        table = go_out_odds(sizes, trials=trials, turn=turn, wordlist=wordlist, seed=seed,  # type: ignore[arg-type]
                            workers=workers, on_batch=(lambda _size, n: bar.update(n)) if bar else None)  # fmt: skip
    except KeyboardInterrupt:
        if bar is not None:
            bar.close()
        click.echo("interrupted", err=True)
        ctx.exit(130)
    finally:
        if bar is not None:
            bar.close()
    click.echo(json.dumps(table.to_dict()) if as_json else _table_text(table))


def _table_text(table: OddsTable) -> str:
    how = ("dealt hand + the discard top if it goes out, else a blind draw" if table.turn == "first"
           else "dealt hand + a blind draw")  # fmt: skip
    deals = f"{table.trials:,} deal{'' if table.trials == 1 else 's'}"
    lines = [
        f"go-out odds on the first turn ({how})",
        f"{deals} per hand size, seed {table.seed}, word list {table.wordlist}",
        "",
        f"{'cards':>5}  {'go out':>7}  {'se':>6}   {'best score':>10}  {'q1':>5}  {'median':>6}  {'q3':>5}",
    ]
    for row in table.rows:
        q1, q2, q3 = row.best_quartiles
        lines.append(f"{row.cards:>5}  {row.go_out:>7.2%}  {row.se:>6.2%}   {row.best_mean:>10.1f}  "
                     f"{q1:>5g}  {q2:>6g}  {q3:>5g}")  # fmt: skip
    return "\n".join(lines)
