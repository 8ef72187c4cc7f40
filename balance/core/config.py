"""Run configuration from TOML files.

A config file may hold run options and parameters::

    games = 100000
    seed = 7
    players = 3
    policy = ["greedy", "patient", "random"]   # or one name for all seats

    [params]
    hp = 30
    min_combo_value = 12

Unknown top-level keys are an error; parameter keys are checked by the
ruleset's parameter space when the run is set up.
"""
from __future__ import annotations

import sys
from pathlib import Path

from .errors import BalanceError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

KEYS = {"games", "seed", "players", "policy", "params"}


def load(path) -> dict:
    p = Path(path)
    try:
        with open(p, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise BalanceError(f"config file {str(p)!r} does not exist") from None
    except OSError as e:
        raise BalanceError(f"config file {str(p)!r} cannot be read: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise BalanceError(f"config file {str(p)!r} is not valid TOML: {e}") from None
    except UnicodeDecodeError:
        raise BalanceError(f"config file {str(p)!r} is not UTF-8 text (TOML files are UTF-8)"
                           ) from None
    unknown = set(data) - KEYS
    if unknown:
        raise BalanceError(f"config file {str(p)!r}: unknown key(s) {sorted(unknown)}; "
                           f"allowed: {sorted(KEYS)} (parameters go under [params])")
    params = data.get("params", {})
    if not isinstance(params, dict):
        raise BalanceError(f"config file {str(p)!r}: [params] must be a table")
    for key in ("games", "seed", "players"):
        v = data.get(key)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
            raise BalanceError(f"config file {str(p)!r}: {key} = {v!r} must be a whole number "
                               f"(not {type(v).__name__})")
    pol = data.get("policy")
    if pol is not None:
        if isinstance(pol, str):
            pol = [pol]
        if not (isinstance(pol, list) and pol and all(isinstance(x, str) and x for x in pol)):
            raise BalanceError(f"config file {str(p)!r}: policy must be a name or a non-empty "
                               f"list of names")
        data["policy"] = pol
    return data
