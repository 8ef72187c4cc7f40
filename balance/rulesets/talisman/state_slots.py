"""Talisman Poker's slots by name: where the compiled rules find each
number in the vectors they are given.

- ``P_*``: the int rule parameters in ``Ctx.ip`` (``rules.IDX``); ``Q_*``:
  the float policy parameters in a seat's row of ``Ctx.pp``
  (``rules.PIDX``) (the int policy parameters, the search budget, follow
  the rules in ``Ctx.ip``: ``rules.QIDX``, read by ``state.context``);
- ``G_*``, ``S_*``: the game's and each seat's record columns (``grow``,
  ``srow``), from the column names of ``layout``; ``NG``, ``NSEAT`` their
  widths;
- ``SM``: the offset of a seat's array summary in the scratch ``Ctx.sizes``
  (``step_combos.summarize``);
- the numba types of the state's arrays, for the explicit signatures of the
  functions compiled on their own.

Constants only (nothing compiled): every compiled module of the package
imports its slots from here.
"""
from numba import types as nt

from ...core.layout import index
from .layout import GAME_COLUMNS, SEAT_COLUMNS
from .rules import IDX, PIDX

# --- parameter slots ---------------------------------------------------------
P_HP = IDX["hp"]
P_CAP = IDX["hp_cap"]
P_START = IDX["start_hand"]
P_LIMIT = IDX["hand_limit"]
P_THUNDER = IDX["thunder_damage"]
P_FLUSH = IDX["flush_per_card"]
P_GEN = IDX["generating_per_card"]
P_OVER = IDX["overcoming_per_card"]
P_HEAL = IDX["four_symbols_heal_factor"]
P_CHAOS = IDX["chaos_factor"]
P_COPIES = IDX["copies_thunder"]          # five consecutive slots
P_V = IDX["values_per_element"]
P_MAXT = IDX["max_turns"]
Q_MIN = PIDX["min_combo_value"]
Q_STEAL = PIDX["value_steal"]
Q_WIND = PIDX["value_wind"]
Q_GUARD = PIDX["value_guard"]
Q_GAMBLE = PIDX["value_gamble"]
Q_DESTROY = PIDX["destroy_value"]
Q_HEALV = PIDX["heal_value"]

# --- record columns, by name (layout) -----------------------------------------
GI = index(GAME_COLUMNS)
G_WINNER = GI["winner"]
G_TURNS = GI["turns"]
G_ROUNDS = GI["rounds"]
G_END = GI["end_reason"]
G_COMBOS = GI["combos"]
G_CASTS = GI["casts"]
SI = index(SEAT_COLUMNS)
S_HP = SI["hp"]
S_OUT = SI["out_turn"]
S_DMG = SI["damage_dealt"]
S_HEALED = SI["healed"]
S_COMBOS = SI["combos"]
S_CASTS = SI["casts"]
S_GUARDS = SI["guards_left"]
NG, NSEAT = len(GI), len(SI)   # record widths (the ruleset contract checks them)

SM = 8            # offset of a seat's array summary in the scratch ``Ctx.sizes``

# --- numba types, for the explicit signatures ---------------------------------
# of the functions compiled on their own: without one, numba compiles an
# extra version per combination of constant (literal) arguments it meets
# while typing a caller.
I64 = nt.int64
A1, A2 = nt.int64[::1], nt.int64[:, ::1]
U1, U3 = nt.uint64[::1], nt.uint64[:, :, ::1]
B1 = nt.boolean
