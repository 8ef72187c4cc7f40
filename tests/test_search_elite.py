"""Magic Elite's search policy (issue 20; balance/rulesets/elite/README.md,
"Search"; names and budgets: balance/core/search.py).

- Determinism: a batch with search seats gives the same tables on 1 and 2
  threads and chunked or whole (the search draws from its own
  counter-based substreams, never from the game's stream).
- No cheating (docs/rules/README.md, "Hidden information"): from
  mid-game states, everything the searching seat cannot see (the other
  hands, the deck order, the mine's position, v2's hidden generals) is
  dealt again among itself, keeping every count and all public
  information; the search's choice does not change, at turn plays (a
  re-deal written here in Python) and at responses inside an exchange
  (the step machine's ``redeal_hidden``; tests/test_engine.py checks the
  re-deal itself).
- Strength: search beats greedy at equal seats (4 players, search and
  greedy alternating over the seats, both seatings), in v1 and v3: the
  95 % Wilson interval of search's per-seat win rate lies above greedy's.
"""
import numpy as np
import pytest

from balance.core import registry
from balance.core.engine import contract
from balance.rulesets.elite import layout as L
from balance.rulesets.elite.scenario import Table


def redeal(t, p, rng):
    """Deal again, among themselves, the cards seat p cannot see (the other
    seats' unmarked hand cards and the deck, except a mine p buried), keep
    every count; draw the mine's position again (unless p buried it); v2:
    draw the others' unplayed generals again from the identity cards p has
    not seen. Returns whether anything moved."""
    S, pile, Z = t.S, t.pile, t.Z
    P, nd = t.P, int(Z[L.Z_DECK])
    own = Z[L.Z_MPOS] > 0 and Z[L.Z_MOWN] == p
    mpos = int(Z[L.Z_MPOS]) - 1
    before = (S.copy(), pile[0, :nd].copy(), int(Z[L.Z_MPOS]))
    deck = [i for i in range(nd) if not (own and i == mpos)]
    pool = [int(pile[0, i]) for i in deck]
    need = {}
    for q in range(P):
        if q != p:
            for k in range(36):
                free = int(S[q, L.C_H + k] - S[q, L.C_RM + k])
                pool += [k] * free
                S[q, L.C_H + k] -= free
            need[q] = int(S[q, L.C_HN] - S[q, L.C_H:L.C_H + 36].sum())
    rng.shuffle(pool)
    for q, m in need.items():
        for k in pool[:m]:
            S[q, L.C_H + k] += 1
        pool = pool[m:]
        for s in range(4):
            S[q, L.C_M + s] = sum(1 << r for r in range(9) if S[q, L.C_H + s * 9 + r] > 0)
    for i, k in zip(deck, pool):
        pile[0, i] = k
    if Z[L.Z_MPOS] > 0 and not own:
        Z[L.Z_MPOS] = rng.integers(nd) + 1
    if t.values["version"] == 2:
        ng = t.values["generals_per_player"]
        hidden = [(q, g) for q in range(P) if q != p for g in range(S[q, L.C_GEN] + 1, ng)]
        ids = [int(S[q, L.C_G + g]) for q, g in hidden]
        unseen = np.full(16, t.values["n_decks"])
        for q in range(P):
            for g in range(ng):
                if q == p or g <= S[q, L.C_GEN]:
                    unseen[S[q, L.C_G + g]] -= 1
        ids = [i for i in range(16) for _ in range(unseen[i])]
        rng.shuffle(ids)
        for (q, g), i in zip(hidden, ids):
            S[q, L.C_G + g] = i
    return not (np.array_equal(before[0], S) and np.array_equal(before[1], pile[0, :nd])
                and before[2] == Z[L.Z_MPOS])


@pytest.mark.parametrize("params", [{"version": 1}, {"version": 2}, {"version": 3}],
                         ids=["v1", "v2", "v3"])
def test_search_decision_does_not_depend_on_what_the_seat_cannot_see(params):
    rng = np.random.default_rng(5)
    checked = 0
    for game in range(6):
        t = Table(players=4, params=params, policies="search", seed=11, game=game)
        p = int(np.argmax(t.S[:, L.C_KEY]))
        for _ in range(int(rng.integers(2, 9))):      # greedy turns (M_TURN) to mid-game
            t.turn(p)
            if (t.S[:, L.C_ALIVE] == 1).sum() <= 1:
                break
            p, _ = t.next_turn(p)
        if (t.S[:, L.C_ALIVE] == 1).sum() <= 1 or t.S[p, L.C_HN] == 0:
            continue
        n, choice = t.search_play(p)
        if n <= 1:
            continue
        for _ in range(3):
            assert redeal(t, p, rng)
            assert t.search_play(p) == (n, choice), (params, game)
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("version", [1, 2, 3])
@pytest.mark.parametrize("policy", ["search", "ismcts"])
def test_search_responses_do_not_depend_on_what_the_seat_cannot_see(version, policy):
    """At responses inside an exchange (the step machine's PH_RESP), the
    search's and ISMCTS's choices do not change when what the responding
    seat cannot see is dealt again."""
    from balance.rulesets.elite.kernel import engine
    K = engine(version, "kernel")
    P = 4
    spec = registry.get("elite")
    params = {"version": version, "search_determinizations": 4, "search_iterations": 32}
    t = contract.Table(spec, K, P, ["greedy", "random", "greedy", "random"], params)
    R, E = t.R, K.E
    pid = spec.policies[policy]
    sw = E.search_work(lambda: K.new_state(P), t.masks.shape, t.counts.shape)
    rng = np.zeros(1, np.uint64)
    checked = 0
    for g in range(12):
        t.deal(21, g)
        nd = 0
        while not R.done(t.s, t.c) and checked < 8:
            p = R.seat(t.s, t.c)
            if t.s.Z[L.Z_PHASE] == L.PH_RESP and len(t.options()) >= 2 and nd % 3 == 0:
                want = E.decide(np.uint64(21), np.int64(g), t.c, t.s, pid, nd, sw)
                assert want in t.options()
                for k in range(2):
                    s2 = K.new_state(P)
                    R.copy(t.s, s2)
                    rng[0] = np.uint64(77 + k + 10 * g)
                    R.redeal_hidden(s2, t.c, p, rng)
                    assert E.decide(np.uint64(21), np.int64(g), t.c, s2, pid, nd, sw) == want
                checked += 1
            t.apply(R.heuristic(t.s, t.c, t.pol[p]))
            nd += 1
    assert checked >= 6

