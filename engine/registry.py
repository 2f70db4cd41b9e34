"""A registry of figures or exercise types by name, some of them registered only once
the module that defines them is imported (engine/figures/__init__.py says which and
when): asking for a name imports what registers it, and reading the whole registry
imports everything first."""

from __future__ import annotations

from collections.abc import Callable, ItemsView, Iterator, KeysView, ValuesView
from typing import TypeVar

T = TypeVar("T")


class Registry(dict[str, T]):
    """A dict of name -> entry whose misses and whole readings first import what may
    register more: ``find(name)`` imports the module of ``name`` if there is one,
    ``everything()`` every such module (both set by the package that owns the modules;
    until then it is a plain dict). ``loaded()`` names the entries registered so far,
    importing nothing."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.find: Callable[[str], object] = lambda name: None
        self.everything: Callable[[], object] = lambda: None

    def _look(self, name: object) -> T | None:
        if not isinstance(name, str):
            return None
        if not dict.__contains__(self, name):
            self.find(name)
        return dict.get(self, name)

    def __missing__(self, name: str) -> T:
        found = self._look(name)
        if found is None:
            raise KeyError(name)
        return found

    def __contains__(self, name: object) -> bool:
        return self._look(name) is not None

    def get(self, name: str, default: T | None = None) -> T | None:  # type: ignore[override]
        found = self._look(name)
        return default if found is None else found

    def loaded(self) -> list[str]:
        return list(dict.keys(self))

    def __iter__(self) -> Iterator[str]:
        self.everything()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self.everything()
        return dict.__len__(self)

    def keys(self) -> KeysView[str]:  # type: ignore[override]
        self.everything()
        return dict.keys(self)

    def values(self) -> ValuesView[T]:  # type: ignore[override]
        self.everything()
        return dict.values(self)

    def items(self) -> ItemsView[str, T]:  # type: ignore[override]
        self.everything()
        return dict.items(self)
