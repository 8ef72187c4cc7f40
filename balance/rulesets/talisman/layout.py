"""Talisman's record columns, state slots and codes, declared once by name.

Plain constants only (no numba, no kernel): ``__init__`` (the spec's
columns), ``replay``, ``reference`` and the tests import them without
loading compiled code. The kernel takes its record column indices from the
column names with ``core.layout.index`` (``G_*``, ``S_*`` in ``state_slots``).
"""
from ...core.layout import Z_TR, Z_TURN

# --- records (spec.game_columns, spec.seat_columns) ------------------------
GAME_COLUMNS = ("winner", "turns", "rounds", "end_reason", "combos", "casts")
SEAT_COLUMNS = ("hp", "out_turn", "damage_dealt", "healed", "combos", "casts", "guards_left")
END_REASONS = ("last_standing", "turn_cap")     # the end_reason column's codes
END_LAST = END_REASONS.index("last_standing")   # one seat (or none) left
END_CAP = END_REASONS.index("turn_cap")         # max_turns reached: a draw

# --- S int64[P, NS]: one row of per-seat state -----------------------------
C_HP = 0            # HP 元气
C_ALIVE = 1         # 1 while in the game, 0 once out
C_GUARDS = 2        # guards held (each absorbs one damage instance)
C_SKIPS = 3         # turns still to skip (wind)
C_HN = 4            # cards in hand (hand[p, :C_HN])
C_ARRN = 5          # cards in the array
C_DMG = 6           # damage dealt (seat column damage_dealt)
C_COMBOS = 7        # combos fired
C_CASTS = 8         # specials cast
C_OUT = 9           # the turn the seat went out, -1 while in
C_HEALED = 10       # HP healed
C_BITS = 11         # 5 columns: the array, bit v-1 of column C_BITS + e = value v of element e
C_SPEC = 16         # 5 columns: copies of special kind s in hand at C_SPEC + s
C_NB = 21           # the number of basic kinds, 5V (special s is card C_NB + s)
C_JUNK = 22         # scratch: branch-free "special count" updates for a basic card
NS = 23

# --- Z int64[NZ]: one game's globals ---------------------------------------
Z_DECK = 0          # cards in the deck, pile[0, :Z_DECK] (top = last)
Z_DISC = 1          # cards in the discard pile, pile[1, :Z_DISC]
#    Z_TURN = 2     # the turn being played (core.layout: the trace writer reads it)
#    Z_TR = 3       # trace rows written so far (core.layout)
Z_NC = 4            # cards in the unshuffled deck, pile[2, :Z_NC] (per batch)
# the phase machine (``step``): whose turn, what it decides, how the game stands
Z_CUR = 5           # the seat whose turn it is
Z_PHASE = 6         # PH_DISCARD or PH_ACTION: the pending decision
Z_ALIVE = 7         # seats still in
Z_ROUNDS = 8        # rounds begun
Z_END = 9           # the end reason once the game is over, -1 while it goes on
NZ = 10
assert len({Z_DECK, Z_DISC, Z_TURN, Z_TR, Z_NC, Z_CUR, Z_PHASE, Z_ALIVE, Z_ROUNDS, Z_END}) == NZ
PH_DISCARD = 0      # discard one card (the hand is above hand_limit): option = hand index
PH_ACTION = 1       # the turn's action: option = an action code (``policies.list_actions``)

# --- workspace sizes ---------------------------------------------------------
HCAP = 40                   # hand capacity (hand_limit <= 20, plus the draw and steals)
NC_MAX = 12 * 5 + 5 * 12    # deck capacity: 12 values x 5 elements + 5 specials x 12 copies

# --- actions: a policy's choice is (kind, arg, target) -----------------------
A_PASS = 0          # arg 0, target -1
A_PLACE = 1         # arg = the card's index in hand
A_CAST = 2          # arg = special kind (rules.THUNDER..GAMBLE)
A_COMBO = 3         # arg = combo type (rules.FLUSH..CHAOS)

# --- policy ids (rules.POLICIES) -------------------------------------------
POL_RANDOM = 0
POL_GREEDY = 1
POL_PATIENT = 2
POL_SEARCH_FAST = 3     # the search policies: search_fast, search, search_strong, oracle,
POL_SEARCH = 4          # in this order (the kernel's budget level is the id - POL_SEARCH_FAST)
POL_SEARCH_STRONG = 5
POL_ORACLE = 6
POL_ISMCTS = 7          # information-set MCTS (core.engine.search)

# --- trace events: row = [type, turn, seat, a, b, c, d, e] -----------------
E_TURN = 1          # a = round, b = HP, c = hand size, d = guards
E_SKIP = 2          # a = skips left
E_DRAW = 3          # a = card
E_RESHUFFLE = 4     # seat -1, a = cards reshuffled into the deck
E_DISCARD = 5       # a = card (hand limit)
E_PLACE = 6         # a = card, b = array size after
E_CAST = 7          # a = special kind, b = target or -1
E_COMBO = 8         # a = combo type, b = target or -1, c = size, d = amount, e = chaos value
E_DAMAGE = 9        # seat = target, a = amount, b = 1 if a guard absorbed it, c = HP, d = source
E_HEAL = 10         # a = HP healed, b = HP
E_STEAL = 11        # a = victim, b = card or -1
E_WIND = 12         # a = the seat that will skip, b = its skips pending
E_GUARD = 13        # a = guards held
E_GAMBLE = 14       # a = cards discarded (and redrawn)
E_DESTROY = 15      # seat = the array's owner, a = cards destroyed
E_OUT = 16          # the seat is out
E_END = 17          # seat = winner or -1, a = end reason, b = turns, c = rounds
E_PASS = 18
E_DEAL = 19         # a = card (setup deal)
