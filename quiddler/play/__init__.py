"""``quiddler play``: a person against computer players in the terminal
(the click command is :mod:`quiddler.cli.play`).

| module | holds |
|---|---|
| ``session.py`` | :class:`Session`, the one loop over the engine's ``Game`` |
| ``commands.py`` | what a person types, parsed into commands |
| ``spelling.py`` | typed words matched to the cards of a hand, and why not |
| ``render.py`` | everything shown, as ``rich`` renderables |
| ``screen.py`` | printing and prompting: colour on a terminal, plain text otherwise |
| ``saves.py`` | saved games (the engine's JSON game record) and resuming |
"""
