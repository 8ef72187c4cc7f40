"""Magic Resonance invariants over many games (check mode) and the hidden-
information guarantee: a seat's decisions depend only on what it may know."""
import numpy as np
import pytest

import balance
from balance.core import batch, registry
from balance.rulesets.resonance import layout as L
from balance.rulesets.resonance.scenario import Table


@pytest.mark.parametrize("P", [3, 4, 6])
def test_check_mode_runes_markers_and_magic_are_conserved_and_every_game_ends(P):
    """126 rune cards across deck, discard pile, hands and field; markers
    supply + held = 40; 18 magic cards; hands consistent (kernel's
    broken_invariants after every turn); every game ends before the cap."""
    spec = registry.get("resonance")
    values = spec.space.defaults()
    mixes = [["counter"] * P, ["random"] * P, ["saboteur", "counter", "random"] * 2]
    for pols in mixes:
        ids = [spec.policies[p] for p in pols[:P]]
        b = batch.play(spec, values, 17, 0, 1500, P, ids, True)
        assert b.errors.sum() == 0, pols
        g = b.games
        assert (g[:, 3] != L.END_CAP).all()                       # every game ends
        s = b.seats
        markers = s[:, :, L.SEAT_COLUMNS.index("markers")]
        assert (markers >= 0).all() and (markers.sum(axis=1) <= 40).all()
        score = s[:, :, 0]
        assert (score == markers + s[:, :, 2] + s[:, :, 3]).all()
        won = s[:, :, L.SEAT_COLUMNS.index("won")]
        assert (won.sum(axis=1) >= 1).all()
        assert ((g[:, 0] >= 0) == (won.sum(axis=1) == 1)).all()


def test_totals_add_up_over_a_run():
    r = balance.simulate("resonance", games=2000, seed=4, players=4,
                         policies=["counter", "saboteur", "random", "counter"], progress=False)
    g, s = r.games, r.seats
    assert (g["successes"] <= g["resonances"]).all() and (g["overdrafts"] <= g["successes"]).all()
    assert (g["rounds"] == g["resonances"] + 1).all()
    per = s.groupby("game")[["started", "succeeded", "magic_cards"]].sum()
    assert (per["started"].to_numpy() == g["resonances"].to_numpy()).all()
    assert (per["succeeded"].to_numpy() == per["magic_cards"].to_numpy()).all()
    owned = np.bitwise_or.reduce(s["magic_owned"].to_numpy().reshape(-1, 4), axis=1)
    assert (owned == g["magic_success"].to_numpy()).all()
    assert (g["magic_chosen"] & ~g["magic_revealed"] == 0).all()
    assert (g["decisions"] > g["turns"]).all()


def hidden_from(t, p, rng):
    """A copy of the position where every card p cannot see (deck, the other
    hands, field runes p does not know) is dealt anew: the same multiset, in
    the same places' sizes, field slots still holding runes; the face-down
    magic deck is shuffled too."""
    S, F, Z = t.S.copy(), t.F.copy(), t.Z.copy()
    pile = t.pile.copy()
    MD = t.MD.copy()
    MD[:Z[L.Z_MD]] = rng.permutation(MD[:Z[L.Z_MD]])
    pool = list(pile[0, :Z[L.Z_DECK]])
    for q in range(t.P):
        if q != p:
            for k in range(L.NK):
                pool += [k] * int(S[q, L.C_H + k])
    slots = [i for i in range(Z[L.Z_FN]) if F[L.F_KIND, i] >= 0 and not (F[L.F_KNOW, i] >> p) & 1]
    pool += [int(F[L.F_KIND, i]) for i in slots]
    pool = list(rng.permutation(pool))
    runes = [c for c in pool if c != L.DISSOLVE]
    for i in slots:                                   # field slots get runes
        c = runes.pop()
        pool.remove(c)
        F[L.F_KIND, i] = c
    n = int(Z[L.Z_DECK])
    pile[0, :n] = pool[:n]
    pool = pool[n:]
    for q in range(t.P):
        if q != p:
            h = int(S[q, L.C_HN])
            S[q, L.C_H:L.C_H + L.NK] = np.bincount(np.array(pool[:h], np.int64), minlength=L.NK)
            pool = pool[h:]
    assert not pool
    return S, F, Z, pile, MD


def decisions(t, p, S, F, Z, ST):
    K = t.K
    ST = ST.copy()
    W = np.zeros_like(t.W)
    Zc = Z.copy()
    pp = t.pp[p]                        # seat p's float policy parameters (its row)
    place = K.choose_place(t.pol[p], S, F, Zc, t.M, ST, p, W, t.ip, pp, t.ban)
    peek = K.choose_peek(t.pol[p], S, F, Zc, ST, p, t.P)
    start = K.wants_start(t.pol[p], S, F, Zc, t.M, ST, p, W, t.ip, pp)
    join = [K.wants_join(t.pol[p], S, F, Zc, t.M, ST, p, W, int(Z[L.Z_REV + j]), t.ip, pp)
            for j in range(2) if Z[L.Z_REV + j] >= 0]
    target = K.dissolve_target(t.pol[p], S, F, Zc, t.M, ST, p, W, t.ip, pp, 1.0)
    Sc = S.copy()
    K.discard_n(t.pol[p], Sc, Zc, ST, p, 2, 0, t.tr, False)
    return place, peek, start, join, target, list(Sc[p, L.C_H:L.C_H + L.NK]), list(ST)


@pytest.mark.parametrize("policies", [["counter", "saboteur", "random", "counter"],
                                      ["saboteur", "counter", "counter", "random"]])
def test_a_seats_decisions_do_not_change_when_cards_it_cannot_see_change(policies):
    """At every turn of several games, deal anew every card the seat to play
    cannot see (the deck, the other hands, the field runes it has not
    peeked, the face-down magic deck): its placement, peek, start, join,
    dissolve target and discard choices, and the random numbers they draw,
    are unchanged. (The order of the rune deck and of the magic deck is not
    even an argument of the choice functions; both are dealt anew all the
    same.)"""
    rng = np.random.default_rng(0)
    checked = 0
    for game in range(4):
        t = Table(players=4, policies=policies, seed=5, game=game)
        cur, turns = 0, 0
        while turns < 200:
            for p in range(4):
                if t.S[p, L.C_IN] == 0:
                    continue
                mine = decisions(t, p, t.S.copy(), t.F.copy(), t.Z.copy(), t.ST)
                for _ in range(3):
                    S, F, Z, pile, MD = hidden_from(t, p, rng)
                    assert decisions(t, p, S, F, Z, t.ST) == mine, (game, turns, p)
                    checked += 1
            turns += 1
            t.Z[L.Z_TURN] = turns
            e = t.turn(cur)
            if e >= 0:
                break
            nxt = int(t.Z[L.Z_NEXT])
            cur = nxt if nxt >= 0 else int(t.K.next_in(t.S, cur, 4))
    assert checked > 300


def test_the_same_game_replays_identically_when_deep_deck_cards_change():
    """Cards no seat has drawn yet cannot change any decision made before
    they are drawn: swap the bottom of the deck, and the trace up to the
    first draw that reaches the swapped part is identical."""
    a = Table(players=4, policies=["counter", "saboteur", "random", "counter"], seed=2, game=9)
    b = Table(players=4, policies=["counter", "saboteur", "random", "counter"], seed=2, game=9)
    n = int(a.Z[L.Z_DECK])
    b.pile[0, :20] = np.random.default_rng(1).permutation(b.pile[0, :20])
    a.play(0)
    b.play(0)
    ta, tb = a.events(), b.events()
    # the first draw of a card from the swapped part: deck index < 20 drawn
    draws = np.flatnonzero(np.isin(ta[:, 0], (L.E_DRAW,)))
    limit = len(ta)
    taken = 0
    for i in draws:
        taken += 1
        if n - taken < 20:
            limit = i
            break
    assert limit > 100
    np.testing.assert_array_equal(ta[:limit], tb[:limit])
