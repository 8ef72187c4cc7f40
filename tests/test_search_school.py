"""Magic School's search policies on the game engine (``search_fast``,
``search``, ``search_strong``, ``ismcts``; ``core.engine.search``):
deterministic whatever the threads and chunks, blind to what the searching
seat cannot see at every kind of decision it searches (a sealed vote
included), and measured against informed."""
import numpy as np

from balance.core import engine, registry, search
from balance.core.engine import contract
from balance.rulesets.school.cards import CBIT
from balance.rulesets.school import kernel as K
from balance.rulesets.school import layout as L
from balance.rulesets.school import rules

# a small budget where the property does not depend on it (speed)
SMALL = {"search_determinizations": 4, "search_rollouts": 1, "search_top_k": 4,
         "search_iterations": 16}


def test_names_budgets_and_docs_follow_core_search():
    assert list(rules.POLICIES)[2:5] == list(search.LEVELS)
    for name in search.LEVELS:
        assert rules.POLICY_DOCS[name] == search.DOCS[name]
    kind, num, den = engine.kinds(rules.POLICIES)
    for name, (n, d) in search.LEVELS.items():
        i = rules.POLICIES[name]
        assert (kind[i], num[i], den[i]) == (engine.K_FLAT, n, d)
    assert kind[rules.POLICIES["ismcts"]] == engine.K_ISMCTS
    assert kind[rules.POLICIES["informed"]] == kind[rules.POLICIES["random"]] == engine.K_NONE
    v = registry.get("school").space.defaults()
    assert search.budget(v, "search") == v["search_determinizations"] * v["search_rollouts"]
    c = K.context(4, np.array([L.POL_SEARCH] * 4), *registry.get("school").kernel_arrays(
        registry.get("school").space.resolve({"search_top_k": 3, "search_iterations": 9}),
        np.zeros(54, np.int64)))
    assert c.sp[engine.SP_TOPK] == 3 and c.sp[engine.SP_ITER] == 9
    assert list(c.bpol) == [L.POL_INFORMED] * 4


# --- no cheating ------------------------------------------------------------------
# The engine's contract (tests/test_engine.py) re-deals what the seat cannot
# see at the first decision of a few turns; here at every kind of decision
# the search makes: the name, the cloak, spells, each sealed vote (the votes
# already cast are hidden: the re-deal casts them again) and the tie break.
PHASES = (L.PH_NAME, L.PH_CLOAK, L.PH_SPELL, L.PH_VOTE, L.PH_TIE)


def positions(games, per_phase, seed=4):
    """States of games played by informed and random, at decisions of every
    phase with two options or more: (game, decision number, state, seat)."""
    spec = registry.get("school")
    t = contract.Table(spec, K, 4, ["informed", "random", "informed", "random"], SMALL)
    R = t.R
    out = {ph: [] for ph in PHASES}
    for g in range(games):
        t.deal(seed, g)
        nd = 0
        while not R.done(t.s, t.c):
            ph = int(t.s.Z[L.Z_PHASE])
            if len(out[ph]) < per_phase and len(t.options()) > 1 and (
                    ph == L.PH_TIE or (nd + g) % 3 == 0):
                s = K.new_state(4)
                R.copy(t.s, s)
                out[ph].append((g, nd, s, int(R.seat(t.s, t.c))))
            t.apply(R.heuristic(t.s, t.c, t.pol[R.seat(t.s, t.c)]))
            nd += 1
    return t, out


def own_fate_dealt(t, s, p, rng):
    """The control: seat p's fate cards swapped with random deck cards (its
    house changes; nothing else it sees does)."""
    Z = s.Z
    F = t.values["fate_cards"]
    for i in range(F):
        j = int(rng.integers(Z[L.Z_DECK]))
        s.fate[p, i], s.cards[0, j] = s.cards[0, j], s.fate[p, i]
    s.KN[p, L.KN_FATE] = 0
    for i in range(F):
        s.KN[p, L.KN_FATE] |= int(CBIT[s.fate[p, i]])


def blind(policy, own_fate=False, games=24, per_phase=6, seed=4):
    t, pos = positions(games, per_phase, seed)
    R, E = t.R, K.E
    pid = rules.POLICIES[policy]
    sw = E.search_work(lambda: K.new_state(4), t.masks.shape, t.counts.shape)
    rng = np.zeros(1, np.uint64)
    gen = np.random.default_rng(seed)
    n, changed = {}, 0
    for ph, rows in pos.items():
        for g, nd, s, p in rows:
            want = E.decide(np.uint64(seed), np.int64(g), t.c, s, pid, np.int64(nd), sw)
            s2 = K.new_state(4)
            R.copy(s, s2)
            rng[0] = np.uint64(1000 + 7 * g + nd)
            R.redeal_hidden(s2, t.c, p, rng)
            if own_fate:
                if s2.Z[L.Z_DECK] == 0:
                    continue
                own_fate_dealt(t, s2, p, gen)
            got = E.decide(np.uint64(seed), np.int64(g), t.c, s2, pid, np.int64(nd), sw)
            if own_fate:
                changed += got != want
            else:
                assert got == want, (policy, ph, g, nd, p, want, got)
            n[ph] = n.get(ph, 0) + 1
    return n, changed


def test_a_search_decision_does_not_change_when_cards_it_cannot_see_change():
    """At decisions of every kind (names, cloaks, spells, sealed votes, tie
    breaks) from games of informed and random seats, deal anew everything
    the deciding seat cannot see (``redeal_hidden``: the other hands, the
    fate cards and hidden spells it has not peeked, the deck, the votes
    already cast): search and ismcts (same seed) choose the same."""
    for policy in ("search", "ismcts"):
        n, _ = blind(policy)
        assert set(n) == set(PHASES) and min(n.values()) >= 3, (policy, n)


def test_the_check_sees_a_search_that_reads_its_own_fate_cards():
    """The control: dealing the seat's own fate cards anew as well (its
    house) changes some of its choices, so the check above has teeth."""
    n, changed = blind("search", own_fate=True, games=12, per_phase=4)
    assert changed > 0.05 * sum(n.values()), (changed, n)


