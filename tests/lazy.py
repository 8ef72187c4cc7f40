"""``lazy(name)``: a stand-in for a module, imported on its first use.

A kernel module whose functions carry explicit numba signatures compiles
them as it is imported (talisman's ``state_zones``, ``step_combos`` and ``step_play``,
and ``policies`` with them). Imported at a test file's top, it compiled while pytest-xdist
collected, in every worker (7.5 s of CPU in each of the two in a clean
run), though only the worker that runs the file's group needs it.
Collection looks at every name of a test module (``__class__``,
``__test__``, ...), so dunder names are answered without the import."""
import importlib


class lazy:
    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attr: str):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return getattr(importlib.import_module(self._name), attr)
