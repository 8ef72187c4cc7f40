"""The step level of the ruleset contract, written once (as pgx's
``api_test``): a ruleset on the engine calls these from its tests, and
``tests/test_engine.py`` runs them over every ruleset on the engine.

``K`` is the ruleset's kernel module: ``K.E`` (its engine, ``bind``),
``K.context(P, pol, *kernel_args)`` and ``K.new_state(P)``.
"""
from __future__ import annotations

import numpy as np

from .. import batch
from ..records import mask_words


class Table:
    """One table of a ruleset on the engine: its context, a state, record
    sinks, and the step functions callable from Python."""

    def __init__(self, spec, K, P, policies, params=None):
        self.spec, self.K, self.P = spec, K, P
        self.values = spec.space.resolve(params or {})
        self.nk = spec.n_kinds(self.values)
        self.args = spec.kernel_arrays(self.values, np.zeros(self.nk, np.int64))
        self.pol = np.array([spec.policies[p] for p in policies], np.int64)
        self.c = K.context(P, self.pol, *self.args)
        self.s = K.new_state(P)
        self.masks = np.zeros((P, 2, mask_words(self.nk)), np.uint64)
        self.counts = np.zeros((2, self.nk), np.int64)
        self.tr = np.zeros((1, 8), np.int64)
        self.R = K.E.R
        self.R.prepare(self.s, self.c)

    def deal(self, seed, game):
        return self.R.deal(self.s, self.c, np.uint64(seed), np.int64(game), self.masks,
                           self.counts, self.tr, False, True)

    def apply(self, code, s=None):
        return self.R.apply(self.s if s is None else s, self.c, np.int64(code), self.masks,
                            self.counts, self.tr, False, True)

    def options(self, s=None):
        rows = np.zeros(1024, np.int64)
        n = self.R.options(self.s if s is None else s, self.c, rows)
        return rows[:n].copy()


def same_state(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b))


def check_steps(spec, K, P, policies, games=4, seed=11, params=None):
    """From every state reached, ``options`` offers at least one option
    until ``done``; ``apply`` of every offered option breaks no check-mode
    invariant; ``copy`` then the same step gives the same state; the
    heuristic seat's choice is among the options."""
    t = Table(spec, K, P, policies, params)
    R = t.R
    steps = 0
    for g in range(games):
        assert t.deal(seed, g) == 0
        while not R.done(t.s, t.c):
            opts = t.options()
            assert len(opts) >= 1
            for code in opts:
                s2 = K.new_state(P)
                R.copy(t.s, s2)
                assert t.apply(code, s2) == 0, (g, code)
                s3 = K.new_state(P)
                R.copy(t.s, s3)
                t.apply(code, s3)
                assert same_state(s2, s3), (g, code)
            code = R.heuristic(t.s, t.c, t.pol[R.seat(t.s, t.c)])
            assert code in opts, (g, code, opts)
            assert t.apply(code) == 0
            steps += 1
    return steps


def check_redeal(spec, K, P, policies, games=4, seed=5, params=None, hidden=True):
    """``redeal_hidden(seat)`` changes nothing that seat can see (its
    ``info_key``, its options) and no choice of its heuristics, at every
    decision of a few games; returns the decisions where it moved
    something. ``hidden=False``: a ruleset where nothing is hidden (the
    coin flip, tests/coinflip), whose re-deal must change nothing."""
    t = Table(spec, K, P, policies, params)
    R = t.R
    heur = [i for p, i in spec.policies.items() if K.E.KIND[i] == 0]
    rng = np.zeros(1, np.uint64)
    moved = 0
    for g in range(games):
        t.deal(seed, g)
        while not R.done(t.s, t.c):
            p = R.seat(t.s, t.c)
            s2 = K.new_state(P)
            R.copy(t.s, s2)
            rng[0] = np.uint64(1000 * g + R.seat(t.s, t.c) + 7)
            R.redeal_hidden(s2, t.c, p, rng)
            moved += not same_state(t.s, s2)
            assert R.info_key(s2, t.c, p) == R.info_key(t.s, t.c, p)
            assert np.array_equal(t.options(s2), t.options())
            for h in heur:
                a, b = K.new_state(P), K.new_state(P)
                R.copy(t.s, a)
                R.copy(s2, b)
                assert R.heuristic(a, t.c, h) == R.heuristic(b, t.c, h), (g, h)
            t.apply(R.heuristic(t.s, t.c, t.pol[p]))
    if hidden:
        assert moved > 0        # the re-deal did deal something
    else:
        assert moved == 0
    return moved


def check_search_blind(spec, K, P, policy, games=6, stops=(2, 7, 13), seed=5, params=None):
    """A search policy's choice does not change when what its seat cannot
    see is dealt again (``redeal_hidden`` from another stream): it samples
    the hidden cards itself, from streams of its own. Returns the number
    of positions checked (those with a choice)."""
    t = Table(spec, K, P, [policy] * P, params)
    R, E = t.R, K.E
    pid = spec.policies[policy]
    sw = E.search_work(lambda: K.new_state(P), t.masks.shape, t.counts.shape)
    rng = np.zeros(1, np.uint64)
    checked = 0
    for g in range(games):
        for stop in stops:
            s = K.new_state(P)
            cur, nd = E.position(np.uint64(seed), np.int64(g), t.c, s, np.int64(stop), t.masks,
                                 t.counts, t.tr)
            if cur < 0 or len(t.options(s)) < 2:
                continue
            want = E.decide(np.uint64(seed), np.int64(g), t.c, s, pid, nd, sw)
            for k in range(2):
                s2 = K.new_state(P)
                R.copy(s, s2)
                rng[0] = np.uint64(99 + k + 10 * g)
                R.redeal_hidden(s2, t.c, cur, rng)
                assert E.decide(np.uint64(seed), np.int64(g), t.c, s2, pid, nd, sw) == want
            checked += 1
    return checked


def check_seat_rows(spec, players: int, policy: str, changed: dict, seat: int, *,
                    base: dict | None = None, games: int = 300, seed: int = 11):
    """The per-seat contract of policy variants (``core.variants``), played
    on ``spec``: ``changed`` (a float policy parameter that changes
    ``policy``'s play, over the run's ``base`` values) given at every seat
    through ``seat_values`` plays exactly the tables of ``changed`` set for
    the whole run; the run's own values at every seat play exactly the
    tables of no ``seat_values``; ``changed`` at ``seat`` only plays tables
    unlike both, and reaches the kernel as that seat's row alone. Returns
    (plain, everyone, one), each (games, seats) arrays, for a ruleset's own
    checks of what that seat did."""
    ids = np.array([spec.policies[policy]] * players, np.int64)
    base = spec.space.resolve(base or {})
    other = spec.space.resolve({**base, **changed})

    def tables(values, seat_values=None):
        b = batch.play(spec, values, seed, 0, games, players, ids, seat_values=seat_values)
        return b.games.copy(), b.seats.copy()

    def same(a, b):
        return all(np.array_equal(x, y) for x, y in zip(a, b))

    plain = tables(base)
    assert same(tables(base, [dict(base) for _ in range(players)]), plain)
    everyone = tables(other)
    assert not same(everyone, plain), f"{changed} does not change {policy}'s play"
    assert same(tables(base, [other] * players), everyone)
    per = [base] * players
    per[seat] = other
    one = tables(base, per)
    assert not same(one, plain) and not same(one, everyone)
    rows = spec.kernel_arrays(base, np.zeros(spec.n_kinds(base), np.int64), seat_values=per)[1]
    assert rows.shape[0] == spec.players[1] and rows.flags.c_contiguous
    differ = np.flatnonzero((rows != rows[(seat + 1) % players]).any(axis=1))
    assert differ.tolist() == [seat], differ
    return plain, everyone, one
