"""``python -m quiddler``: the ``quiddler`` command."""

from .cli.group import main

if __name__ == "__main__":  # not when a doctest run imports it
    main(prog_name="quiddler")
