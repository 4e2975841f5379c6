"""``python -m quiddler.cli``: the ``quiddler`` command."""

from .group import main

if __name__ == "__main__":  # not when a doctest run imports it
    main(prog_name="quiddler")
