"""The ``quiddler`` command line: parsing and printing over the library.

| module | holds |
|---|---|
| ``group.py`` | the ``quiddler`` group and its table of commands, each imported only when used |
| ``errors.py`` | one ``Error:`` line and an exit code for any failure, never a traceback |
| ``params.py`` | the parameters several commands share: hands, ``--wordlist``, ``--json``, ``--seed``, ``--progress``, the rules |
| ``solve.py`` | ``solve``, ``words`` and ``check`` |
| ``hint.py`` | ``hint`` |
| ``play.py`` | ``play`` |
| ``simulate.py`` | ``simulate`` |
| ``odds.py`` | ``odds`` |

Nothing outside this package imports click.
"""

from .group import main

__all__ = ["main"]
