"""Demon Faction's rule parts played whole, for the scenario tests: a
placement phase and an attack phase (one ``choose`` per pick), a turn, a
game played on from a set-up position (``play_on``, check mode), and
``entry``, the one compiled function ``scenario.Table`` calls (``M_*``:
which step).

The engine's games do not use these: ``step`` plays the same parts
(``step_turn``, ``step_fight``) one decision at a time. They are kept
apart so that the step machine's modules hold only what the engine plays.
``entry`` inlines the turn again, so the scenario tests' first (uncached)
run compiles it once more.
"""
from balance.core.compiled import allocating, inlined, internal

from ...core import jit
from ...core.rng import game_state
from .layout import A_END, D_ATTACK, D_PLACE, END_CAP, Z_DONE, Z_ON
from .policies import choose, choose_inlined
from .step_board import P_MAXT, P_STALE, targets
from .step_fight import attack_choice, list_attack, no_first_attack
from .step_turn import (apply_place, begin, board_events, broken_invariants, fill_deck, finish,
                        front, list_place, outcome, start, turn_head, turn_tail)

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


@inlined
def attack_phase(s, c, masks, counts, tr, p):
    """Seat p's attack phase: none in the first player's first turn, else
    one ``choose`` among the legal attacks (``step_fight.list_attack``)."""
    Z, rows = s.Z, c.rows
    if no_first_attack(Z, tr, p):
        return
    n = list_attack(s.S, Z, c.ip, c.pp, rows, c.sc, c.tmp, p)
    i = choose_inlined(s.st, Z, c.pol[p], c.script, rows, c.sc, n, D_ATTACK)
    attack_choice(s, c, masks, counts, tr, p, rows[i, 1], rows[i, 2], rows[i, 3], n)


@internal
def placement(s, c, masks, counts, tr, p):
    """Seat p's placement picks, one ``choose`` each, until "end placement"
    or the game's end (the scenario turn)."""
    Z, rows, pl = s.Z, c.rows, c.pol[p]
    while True:
        n = list_place(s.S, Z, c.ip, c.pp, rows, c.sc, c.tmp, p, pl)
        i = choose_inlined(s.st, Z, pl, c.script, rows, c.sc, n, D_PLACE)
        t = rows[i, 1]
        if t == A_END:
            return
        apply_place(s, c, masks, counts, tr, p, t, rows[i, 2], rows[i, 3], rows[i, 4])
        if Z[Z_DONE]:
            return


@inlined
def turn(s, c, masks, counts, tr, p):
    """One turn of seat p (the scenario tests; ``step`` plays the same
    parts one decision at a time)."""
    Z = s.Z
    front(s, c, masks, counts, tr, p)
    if not Z[Z_DONE]:
        placement(s, c, masks, counts, tr, p)
        if not Z[Z_DONE]:
            attack_phase(s, c, masks, counts, tr, p)
    if Z[Z_ON]:
        board_events(s.S, Z, tr)


@internal
def play_on(s, c, masks, counts, tr, cur, turns, check, grow, srow):
    """Play from the start of seat cur's turn (after ``turns`` turns) to the
    end of the game; returns the number of broken invariants (check mode).
    The scenario tests' loop (``entry``); games are the engine's
    (``step``), which plays the same turn one decision at a time."""
    S, Z, ip = s.S, s.Z, c.ip
    maxt = ip[P_MAXT]
    stale = 2 * ip[P_STALE]
    errors = 0
    end = END_CAP
    while turns < maxt:
        turns += 1
        turn_head(S, Z, tr, cur, turns)
        turn(s, c, masks, counts, tr, cur)
        if check:
            errors += broken_invariants(S, Z, s.pile, ip)
        e = turn_tail(Z, stale)
        if e >= 0:
            end = e
            break
        cur = 1 - cur
    winner, end = outcome(S, end)
    finish(S, Z, tr, winner, end, turns, (turns + 1) // 2, grow, srow)
    return errors


# --- the scenario tests' entry (scenario.Table): one step of a set-up position -----
M_DEAL, M_TURN, M_BEGIN, M_PLACE, M_ATTACK, M_CHECK, M_TARGETS, M_LIST, M_PICK, M_PLAY, \
    M_FILL, M_ALIST, M_APICK = range(13)


@allocating
def entry(mode, a, b, seed, game, s, c, masks, counts, tr, grow, srow):
    """Scenario entry: mode M_* on seat a (b: a row, or a turn count) of
    state ``s`` under context ``c`` (``scenario.Table``: one row buffer
    for both, and a script)."""
    S, Z, pile, st = s.S, s.Z, s.pile, s.st
    ip, pp, pol, rows, sc, tmp = c.ip, c.pp, c.pol, c.rows, c.sc, c.tmp
    if mode == M_FILL:
        fill_deck(c.ban, pile, Z)
        return 0
    if mode == M_DEAL:
        st[0] = game_state(seed, game)
        start(st, S, Z, pile, masks, counts, tr, ip, True)
        return 0
    if mode == M_TURN:
        turn(s, c, masks, counts, tr, a)
        return Z[Z_DONE]
    if mode == M_BEGIN:
        begin(s, c, masks, counts, tr, a)
        return Z[Z_DONE]
    if mode == M_PLACE:
        placement(s, c, masks, counts, tr, a)
        return Z[Z_DONE]
    if mode == M_ATTACK:
        attack_phase(s, c, masks, counts, tr, a)
        return Z[Z_DONE]
    if mode == M_CHECK:
        return broken_invariants(S, Z, pile, ip)
    if mode == M_TARGETS:
        return targets(S, 1 - a, b, tmp)
    if mode == M_LIST or mode == M_PICK:
        n = list_place(S, Z, ip, pp, rows, sc, tmp, a, pol[a])
        return n if mode == M_LIST else choose(st, Z, pol[a], c.script, rows, sc, n, D_PLACE)
    if mode == M_ALIST or mode == M_APICK:
        n = list_attack(S, Z, ip, pp, rows, sc, tmp, a)
        return n if mode == M_ALIST else choose(st, Z, pol[a], c.script, rows, sc, n, D_ATTACK)
    if mode == M_PLAY:
        return play_on(s, c, masks, counts, tr, a, b, True, grow, srow)
    return -1


jit.kernel_cache_end()
