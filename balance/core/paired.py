"""The paired sums of two runs of the same games, and the paired
differences read back from them.

Two configurations A and B that play games [a, b) of one seed start game i
from the same deal wherever their decks agree, so a difference B - A is
estimated from the per-game pairs (``stats.paired_ratio_diff_g`` for a
rate, ``stats.mean_diff_g`` for a mean). The figures of those intervals are
moment matrices (``stats.gram``) of the per-game columns of both runs:
integer sums that, like ``summary.reduce``'s, merge exactly over pieces of
games (``summary.merge``). :func:`pair_sums` reduces a piece of both runs to
them: per win-rate group (``summary.groups``: seat, policy, role) the
matrix of [wins B, seats B, wins A, seats A], of the sole wins where wins
can be shared, and per length or end metric that of [B, A];
:func:`paired_rates` and :func:`paired_means` read the differences back.
``workflow.compare`` adds the cards, ``workflow.sensitivity`` the first
mover and its diagnostic columns.

A run's per-game outcomes are given as anything with the compact columns
of ``workflow.outcome.Outcome``: ``setup``, ``won`` (bool[n, P]), ``turns``,
``rounds``, ``end_reason`` and ``role`` (int[n, P] or None).
"""
from __future__ import annotations

import numpy as np

from . import stats
from .summary import capped_games, group_columns, shares_wins, sole_wins


def sum_key(*parts) -> str:
    """The name of one sum in a piece's dict: its parts joined by '|'."""
    return "|".join(str(p) for p in parts)


def part(agg: dict, tag: str) -> dict:
    """The sums named ``tag|...``, with the tag taken off their names."""
    return {k[len(tag) + 1:]: v for k, v in agg.items() if k.startswith(tag + "|")}


def fix_games(G: np.ndarray, n: int) -> np.ndarray:
    """A moment matrix summed over pieces where its group was absent from
    some: those games are rows of zeros, which only count in ``G[0, 0]``."""
    G = np.array(G)
    G[0, 0] = n
    return G


def metric_columns(o) -> dict:
    """{metric: per-game column} of one run's length and end metrics: turns
    and rounds, whether no seat won (a draw), whether the turn cap ended the
    game and, where wins can be shared, whether several seats won."""
    spec = o.setup.spec
    out = {"turns_mean": o.turns, "rounds_mean": o.rounds,
           "draw_rate": ~o.won.any(axis=1),            # no seat won
           "capped_rate": capped_games(spec, o.end_reason)}
    if shares_wins(spec):
        out["shared_win_rate"] = o.won.sum(1) > 1
    return out


def pair_sums(oa, ob) -> dict:
    """The paired sums of the same games played by A and B (``oa``, ``ob``):
    per group the moment matrix of [wins B, seats B, wins A, seats A] (and
    of sole wins where wins can be shared), per length metric that of [B, A]."""
    d = {"n": np.array(oa.won.shape[0], np.int64)}
    sa, sb = oa.setup, ob.setup
    ga = group_columns(sa, oa.won, oa.role, all_roles=True)
    gb = group_columns(sb, ob.won, ob.role, all_roles=True)
    shared = shares_wins(sa.spec)
    sola, solb = ((group_columns(sa, sole_wins(oa.won), oa.role, all_roles=True),
                   group_columns(sb, sole_wins(ob.won), ob.role, all_roles=True))
                  if shared else ({}, {}))
    for key in ga:
        if key not in gb:
            continue
        (wa, ca), (wb, cb) = ga[key], gb[key]
        d[sum_key("rate", *key)] = stats.gram(wb, cb, wa, ca)
        if shared:
            d[sum_key("sole", *key)] = stats.gram(solb[key][0], cb, sola[key][0], ca)
    ma, mb = metric_columns(oa), metric_columns(ob)
    for name, x in ma.items():
        d[sum_key("len", name)] = stats.gram(mb[name], x)
    return d


def paired_rates(agg: dict, tag: str = "rate"):
    """Per group of the paired sums ``agg`` (``tag``: ``"rate"``, or
    ``"sole"`` for the sole wins): ``(group, key, G, (diff, low, high, se))``,
    the moment matrix [wins B, seats B, wins A, seats A] and the paired
    difference of the rates B - A; groups with no seat in A or in B (a role
    no seat held in these games) are left out."""
    n = int(agg["n"])
    for name, G in part(agg, tag).items():
        G = fix_games(G, n)
        if int(G[0, 2]) == 0 or int(G[0, 4]) == 0:
            continue
        g, k = name.split("|", 1)
        yield g, k, G, stats.paired_ratio_diff_g(G)


def paired_means(agg: dict, tag: str = "len") -> dict:
    """{metric: (G, mean A, mean B, (diff, low, high, se))} of the paired
    sums ``agg`` (``tag``: ``"len"``, the length and end metrics; or a
    caller's own), the paired difference of the per-game means B - A."""
    n = int(agg["n"])
    return {name: (G, int(G[0, 2]) / n, int(G[0, 1]) / n, stats.mean_diff_g(G, paired=True))
            for name, G in part(agg, tag).items()}
