"""Frozen dataclass values built as drafts, for the values made most often.

A frozen dataclass's ``__init__`` sets each field through
``object.__setattr__`` (its own ``__setattr__`` refuses), which costs more
than the rest of the work where a value is made on every solve (a play, a
solution) or on every move of a simulated game (a player's view).  Those
values are built as drafts instead: an instance of a plain class with the
same slots in the same order, filled in attribute by attribute, then made
the value by setting its ``__class__`` (CPython allows that between classes
of the same layout, and checks it).  A draft is made by calling its class,
which has no ``__init__`` (cheaper than ``object.__new__(draft)``, a call
through a slower path).  That gives the same value (equality, hashing,
repr, pickling and immutability all read the slots; tests check each) for
about half of what setting each slot through its descriptor costs.  A class
built this way must have no ``__post_init__``: nothing else may run in its
``__init__``.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

__all__ = ["draft_class"]


def draft_class(cls: type) -> Any:
    """A plain class with the slots of the frozen, slotted dataclass ``cls``,
    in order, whose instances can become ``cls`` instances (checked here,
    once)."""
    assert not hasattr(cls, "__post_init__"), f"{cls.__name__} checks its fields: build it through __init__"
    names = tuple(f.name for f in fields(cls))
    draft = type(f"_{cls.__name__}Draft", (), {"__slots__": names})
    trial: Any = object.__new__(draft)
    trial.__class__ = cls  # TypeError if the layouts differ
    return draft
