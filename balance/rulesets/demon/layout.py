"""Demon Faction's record columns, state slots and codes, declared once by name.

Plain constants and the engine's two tuple classes only (no numba): ``__init__``, ``replay``, ``scenario`` and
the tests import them without loading compiled code.
"""
from collections import namedtuple

from ...core.layout import Z_TR, Z_TURN

# --- records (spec.game_columns, spec.seat_columns) ------------------------
GAME_COLUMNS = ("winner", "turns", "rounds", "end_reason", "decisions", "attacks", "destroyed",
                "clashes", "end_cause")
# end_cause: the cause (CAUSES index) of the game's last HP loss, -1 if none
# per seat; the kernel keeps each in the S column C_STATS + its index (same order)
# The damage a seat took by cause (attack_taken .. reply_taken) is in CAUSES order.
# An attack *hits* when it destroyed at least one card or hit the player.
SEAT_COLUMNS = ("hp", "damage_taken", "healed",
                "attack_taken", "passive_taken", "j_taken", "direct_taken", "clash_taken",
                "reply_taken",
                "attacks_row1", "attacks_row2", "attacks_row3",
                "hits_row1", "hits_row2", "hits_row3",
                "destroyed_row1", "destroyed_row2", "destroyed_row3",
                "direct_hits_row1", "direct_hits_row2", "direct_hits_row3",
                "direct_row1", "direct_row2", "direct_row3",
                "j_placed", "q_placed", "k_placed", "heart_faces", "j_fired",
                "q_chances", "q_fired", "q_opt1", "q_opt2",
                "k_chances", "k_fired", "k_opt1", "k_opt2",
                "slots", "pairs", "big_joker", "joker_heals", "joker_normal", "joker_effects",
                "small_joker", "small_replies", "clash_yield", "clash_lay",
                "clashes_won", "clashes_lost")
NG = len(GAME_COLUMNS)
NSEAT = len(SEAT_COLUMNS)
END_REASONS = ("hp", "draw", "stalemate", "turn_cap")
END_HP, END_DRAW, END_STALE, END_CAP = range(4)

# --- S int64[2, NS]: one row of per-seat state -----------------------------
C_HP = 0            # HP
C_HAND = 1          # hand, mask of card ids
C_GRAVE = 2         # graveyard, mask
C_DECKM = 3         # deck, mask (the order is in pile[p])
C_DECKN = 4         # cards in the deck, pile[p, :C_DECKN] (top = last)
C_ROW = 5           # 3 columns: normal cards of row r, mask
C_POW = 8           # 3 columns: power of row r (sum of its normal cards)
C_FACE = 11         # 6 columns: face cards of row r at C_FACE + 2r + j, card id or -1
C_FACT = 17         # 6 columns: 1 when that face card is active (from its owner's next turn)
C_BJ = 23           # the row holding the seat's big joker, -1 if none
C_KPTS = 24         # 3 columns: regeneration points of the K of row r
C_STATS = 27        # NSEAT columns: the seat record, in SEAT_COLUMNS order
NS = C_STATS + NSEAT
ST = {n: C_STATS + i for i, n in enumerate(SEAT_COLUMNS)}

# --- Z int64[NZ]: one game's globals ---------------------------------------
Z_ON = 0            # 1 while tracing
Z_DONE = 1          # 1 once an HP check found a player at 0 or below
#    Z_TURN = 2     # the turn being played (core.layout)
#    Z_TR = 3       # trace rows written so far (core.layout)
Z_SOWN = 4          # 3 slots: owner of extra-zone slot s (-1 empty)
Z_SCARD = 7         # 3 slots: its card
Z_SACT = 10         # 3 slots: 1 when active (from its owner's next turn)
Z_FLAGS = 13        # this turn's placements used: bits F_*
Z_NOATK = 14        # rows (bits) that may not attack this turn (K option 2)
Z_HPCH = 15         # 1 when an HP changed this turn
Z_DEC = 16          # decisions made (game column)
Z_FORBID = 17       # mask of forbidden card ids (ban mode forbid)
Z_NC = 18           # cards in the unshuffled deck pile[2, :Z_NC]
Z_SERR = 19         # scenario scripts: rows that matched no legal choice
Z_SPOS = 20         # scenario scripts: next script row
Z_ATT = 21          # attacks (game column)
Z_DESTR = 22        # cards destroyed by attacks (game column)
Z_CLASH = 23        # joker clashes (game column)
Z_STALE = 24        # consecutive turns without an HP change
Z_FIRST = 25        # 1 during the first player's first turn (no attack)
Z_LASTC = 26        # 1 + the cause of the last HP loss (0: none yet; game column end_cause)
# the phase machine (``step``): whose turn, what is pending, the end
Z_CUR = 27          # the seat whose turn it is
Z_PHASE = 28        # PH_PLACE or PH_ATTACK: the pending decision
Z_END = 29          # the end reason once the game is over, -1 while it goes on
Z_WIN = 30          # the winner once the game is over, -1 for none
Z_LISTED = 31       # 1 + the policy whose scored rows of the pending pick State.rows holds, 0: none
Z_NROWS = 32        # how many rows State.rows holds then
NZ = 33
PH_PLACE = 0        # a placement pick (a placement row, or end placement)
PH_ATTACK = 1       # the attack choice (an attack row, or no attack)

F_ROW = 1           # bits 0-2: a normal card (or pair, or big joker) went into row r
F_SLOT = 8          # an extra-zone card was placed
F_PAIR = 16         # a pair placement was made
F_FACE = 32         # bits 5-7: a face card went into row r
F_HEART = 256       # a ♥ face card was used

# --- workspace sizes ---------------------------------------------------------
NO = 2048           # rows of the choice list
NSCRIPT = 256       # rows of a scenario script

# --- choices: rows [group, a, b, c, d, e] --------------------------------------
D_PLACE, D_ATTACK, D_OPT = 1, 2, 3          # decision types (scripts name them)
WILD = -99          # a scenario script's wildcard: matches any value
A_END, A_ROW, A_SLOT, A_PAIR, A_FACE, A_HEART, A_BIG, A_SMALL = range(8)
# placement rows: [key, type, card, arg, arg2, 0]
#   A_ROW card row; A_SLOT card slot; A_PAIR card1 row card2; A_FACE card row replaced-index|-1;
#   A_HEART card seat*3+row which(0 first, 1 second, 2 both); A_BIG card row; A_SMALL card row
# attack rows: [key, row, target(-1 direct), mode(0 normal, 1 joker effect), 0, 0]; no attack: row -1

# --- policy ids (rules.POLICIES) -------------------------------------------
POL_RANDOM = 0
POL_GREEDY = 1
POL_DEFENSIVE = 2
POL_SEARCH_FAST = 3     # the search levels (core.search.LEVELS): the engine's flat Monte Carlo
POL_SEARCH = 4
POL_SEARCH_STRONG = 5
POL_ISMCTS = 6          # information-set MCTS (core.engine.search)
POL_SCRIPT = 9      # scenario tests only: scripted choices, greedy where the script is silent

# --- trace events: row = [type, turn, seat, a, b, c, d, e] -----------------
E_DEAL = 1          # a = card
E_TURN = 2          # a = round, b = HP of seat 0, c = HP of seat 1, d = hand size
E_JFX = 3           # J of row a: b = own card gone or -1, c = opposing card gone or -1
E_KOPT = 4          # K of row a: b = option, c = card placed, d = points spent
E_DISCARD = 5       # a = card
E_DRAW = 6          # a = card
E_NODRAW = 7        # the deck is empty
E_ROW = 8           # a = card, b = row, c = power after
E_SLOT = 9          # a = card, b = slot
E_PAIR = 10         # a, b = cards, c = row, d = power after
E_FACE = 11         # a = card, b = row, c = replaced card or -1
E_HEART = 12        # a = card, b = seat whose row, c = row, d = which (0, 1, 2 both)
E_BIG = 13          # a = row, b = 1 stays / 0 into an empty row, c = healed
E_SMALL = 14        # a = victim seat, b = row, c = 1 in reply
E_ATTACK = 15       # a = row, b = target row or -1 direct, c = mode, d = power, e = target power
E_GONE = 16         # owner's normal card a leaves the field from b (row 0-2, 3+s slot s)
E_FACEGONE = 17     # owner's face card a leaves row b
E_JOKERGONE = 18    # owner's big joker leaves row a
E_HP = 19           # a = change, b = HP after, c = cause (CAUSES)
E_CLASH = 20        # attacker's row a against the defender's row b
E_CLASHCH = 21      # a = 1 fight, 0 yield
E_LAY = 22          # a = card laid into row b
E_CLASHRES = 23     # a = losing seat or -1 (equal), b = attacker total, c = defender total
E_Q = 24            # Q of row a: b = option, c = destroyed card counted, d = card placed, e = row
E_NOATTACK = 25     # a = 0 chose not to, 1 first player's first turn, 2 nothing legal
E_END = 26          # seat = winner or -1, a = end reason, b = turns, c = rounds
E_ACT = 27          # face and extra-zone cards of seat become active (a = how many)
# the board after each turn (only while tracing): E_BSEAT and E_BROW for seat 0 then
# seat 1, then E_BSLOT for the three extra slots
E_BSEAT = 28        # a = HP, b = hand, c = deck, d = graveyard sizes, e = big joker's row or -1
E_BROW = 29         # row a: b = power, c = mask of its normal cards, d, e = its face cards (codes)
E_BSLOT = 30        # slot a: seat = holder or -1, b = card or -1, c = 1 active
FACE_ACTIVE = 256   # E_BROW face card code: card id (+ FACE_ACTIVE when active), -1 none
CAUSES = ("attack", "passive", "J", "direct", "clash", "reply cost", "heal")
H_ATTACK, H_PASSIVE, H_J, H_DIRECT, H_CLASH, H_REPLY, H_HEAL = range(7)

# --- the engine's tuples (``state``: what they hold; ``step_board``: their numba types) ---
State = namedtuple("State", "S Z pile st rows sc")
Ctx = namedtuple("Ctx", "pol P ip pp ban sp rows sc script tmp")
