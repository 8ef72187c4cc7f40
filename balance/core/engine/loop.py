"""The engine's game loop: a game is ``R.deal`` then, until ``R.done``,
the pending decision's seat chooses (its heuristic, or a search policy
of ``search``) and ``R.apply`` plays the choice; the batch entry
``play_blocks`` (``core.parallel.run_blocks`` runs it on threads) and the
traced game ``trace_game`` both play ``play_game``, inlined, so nothing
compiled on its own sits between them and the ruleset's step functions."""
import numpy as np
from numba import njit
from balance.core.compiled import compiled, ir_inlined

from .. import jit
from ..layout import Z_TR, Z_TURN
from ..records import BLOCK
from . import CACHE, KIND, R, RULESET
from .search import choose, search_key, search_work  # noqa: F401

jit.kernel_cache_begin(RULESET, CACHE)


@ir_inlined
def play_game(seed, game, c, s, masks, counts, tr, grow, srow, on, check, sw):
    """One game into its records ``grow``/``srow``; returns the broken
    invariants found (check mode). ``sw``: the search scratch, or None when
    no seat searches (numba then compiles the loop without the search)."""
    errors = R.deal(s, c, seed, game, masks, counts, tr, on, check)
    nd = 0
    while not R.done(s, c):
        p = R.seat(s, c)
        pol = c.pol[p]
        if sw is not None and KIND[pol] != 0:
            code = choose(s, c, p, pol, search_key(seed, game, p, nd), sw)
        else:
            code = R.heuristic(s, c, pol)
        errors += R.apply(s, c, code, masks, counts, tr, on, check)
        nd += 1
    R.finish(s, c, tr, on, grow, srow)
    return errors


@njit(cache=True, nogil=True, _nrt=False)
def play_blocks(b0, b1, seed, start, n_games, c, check, games, seats, masks, counts, errors,
                s, tr, sw):
    """Blocks [b0, b1) of a batch; counts[b] holds block b's card counts."""
    R.prepare(s, c)
    for b in range(b0, b1):
        hi = min(n_games, (b + 1) * BLOCK)
        for g in range(b * BLOCK, hi):
            errors[g] = play_game(seed, start + g, c, s, masks[g], counts[b], tr, games[g],
                                  seats[g], False, check, sw)


@compiled
def trace_game(seed, game, c, s, games, seats, masks, counts, tr, sw):
    """One game with its event trace in ``tr``; returns the trace length."""
    R.prepare(s, c)
    play_game(seed, game, c, s, masks[0], counts[0], tr, games[0], seats[0], np.bool_(True),
              np.bool_(False), sw)
    return s.Z[Z_TR]


@compiled
def position(seed, game, c, s, stop, masks, counts, tr):
    """Game ``game`` played by every seat's heuristic (a search seat plays
    the heuristic ``R.heuristic`` gives its id) up to the first decision
    at turn ``stop`` or later: (the seat to decide, the decisions played
    before it: ``search_key``'s ``nd``), or (-1, nd) when the game ended."""
    R.prepare(s, c)
    R.deal(s, c, seed, game, masks, counts, tr, False, False)
    nd = 0
    while not R.done(s, c):
        if s.Z[Z_TURN] >= stop:
            return R.seat(s, c), nd
        R.apply(s, c, R.heuristic(s, c, c.pol[R.seat(s, c)]), masks, counts, tr, False, False)
        nd += 1
    return -1, nd


@compiled
def decide(seed, game, c, s, pol, nd, sw):
    """The option search policy ``pol`` chooses for the seat to decide in
    ``s``, the game's decision ``nd``; ``s`` is not changed."""
    p = R.seat(s, c)
    return choose(s, c, p, pol, search_key(seed, game, p, nd), sw)


def searching(pol) -> bool:
    """Whether a seat of ``pol`` plays a search policy."""
    return bool((KIND[np.asarray(pol)] != 0).any())


def scratch(c, s_new, masks, counts):
    """The search scratch for a batch whose seats play ``c.pol``, else None."""
    if not searching(c.pol):
        return None
    return search_work(s_new, masks.shape[1:], counts.shape[1:])


jit.kernel_cache_end()
