"""Resonance's record columns, state slots and codes, declared once by name.

Plain constants only (no numba): ``__init__`` (the spec's columns),
``replay``, ``scenario`` and the tests import them without loading compiled
code. The kernel takes its record column indices from the names with
``core.layout.index``.
"""
from ...core.layout import Z_TR, Z_TURN

# --- records (spec.game_columns, spec.seat_columns) ------------------------
GAME_COLUMNS = ("winner", "turns", "rounds", "end_reason", "decisions", "resonances",
                "successes", "overdrafts", "joins", "dissolves", "magic_used",
                "magic_revealed", "magic_chosen", "magic_success", "magic_overdraft",
                "magic_joiners")
# magic_* masks: bit i = magic card i (table row i) was revealed / chosen /
# won by a success / by an overdraft; magic_joiners packs, 3 bits per card,
# how many seats joined the resonance on card i (each card is revealed once).
SEAT_COLUMNS = ("score", "markers", "magic_points", "cards_left", "magic_cards",
                "magic_owned", "won", "out_turn", "started", "succeeded", "overdrafted",
                "joined", "joined_ok", "placed", "peeks", "dissolves", "magic_used")
END_REASONS = ("players_out", "total_magic", "rune_deck_empty", "magic_deck_empty",
               "player_magic", "turn_cap")
END_PLAYERS, END_TOTAL, END_RUNES, END_MAGIC, END_PLAYER, END_CAP = range(6)

# --- card kinds ----------------------------------------------------------------
N_COLOURS = 3
VALUES = (1, 2, -1, -2)         # rune kind = colour * 4 + index in VALUES
DISSOLVE = 12                   # the dissolve card's kind
NK = 13                         # card kinds
N_MAGIC = 18                    # magic cards in a table

# --- the magic table M int64[N_MAGIC, NM] -----------------------------------
M_PTS = 0
M_BASE = 1          # 3 columns: base requirement red, green, blue
M_OVER = 4          # 3 columns: overdraft requirement red, green, blue
M_NEFF = 7          # normal effect (EF_*), M_NEFF + 1 its n
M_OEFF = 9          # overdraft effect, M_OEFF + 1 its n
M_UEFF = 11         # use effect (U_*), M_UEFF + 1 its n
NM = 13
EFFECTS = ("GAIN", "LOSE", "DRAW", "DISCARD", "HIT")
EF_GAIN, EF_LOSE, EF_DRAW, EF_DISCARD, EF_HIT = range(5)
USES = ("PEEK", "DISSOLVE", "DRAW")
U_PEEK, U_DISSOLVE, U_DRAW = range(3)

# --- S int64[P, NS]: one row of per-seat state -----------------------------
C_IN = 0            # 1 while the seat holds cards, 0 once out
C_HN = 1            # cards in hand
C_H = 2             # 13 columns: hand count of kind k at C_H + k
C_MARK = 15         # score markers held
C_MPTS = 16         # magic-card points owned
C_MN = 17           # magic cards owned
C_OWN = 18          # bitmask of magic cards owned
C_USED = 19         # bitmask of magic cards whose use effect is spent
C_OUT = 20          # turn the seat went out, -1 while in
C_STARTED = 21      # resonances started
C_SUCC = 22         # ... of which succeeded
C_OVER = 23         # ... of which were overdrafts
C_JOINED = 24       # resonances joined (not started)
C_JOINOK = 25       # ... of which succeeded
C_PLACED = 26       # runes placed
C_PEEKS = 27        # runes peeked
C_DISS = 28         # dissolve cards used (either way)
C_USES = 29         # magic cards used
NS = 30

# --- capacity of the field F and the piles (state.State) -----------------------
NC_MAX = 3 * 4 * 40 + 40        # rune-deck cards at most: copies bounded by 40 per kind

# --- F int64[3, NC_MAX]: the field, in placement order -------------------------
F_KIND = 0          # rune kind, -1 once dissolved
F_OWNER = 1         # the seat whose column it is in
F_KNOW = 2          # bitmask of seats that know it (the owner, peekers)

# --- Z int64[NZ]: one game's globals ---------------------------------------
Z_DECK = 0          # cards in the rune deck, pile[0, :Z_DECK] (top = last)
Z_FN = 1            # field slots used (dissolved runes keep their slot)
#    Z_TURN = 2     # the turn being played (core.layout: the trace writer reads it)
#    Z_TR = 3       # trace rows written so far (core.layout)
Z_MD = 4            # magic cards left in the magic deck MD[:Z_MD] (top = last)
Z_REV = 5           # 2 slots: the revealed magic cards (-1 = none)
Z_SUPPLY = 7        # markers in the supply
Z_ACQ = 8           # magic cards acquired in all
Z_DRY = 9           # 1 when a draw found the rune deck empty
Z_DRYM = 10         # 1 when a reveal found the magic deck empty
Z_DEC = 11          # decisions made
Z_RES = 12          # resonances
Z_SUCC = 13         # successful resonances
Z_OVERS = 14        # overdraft resonances
Z_JOINS = 15        # seats that joined, over all resonances
Z_MREV = 16         # magic_revealed mask
Z_MCHO = 17         # magic_chosen mask
Z_MSUC = 18         # magic_success mask
Z_MOVR = 19         # magic_overdraft mask
Z_MJOIN = 20        # magic_joiners, 3 bits per card
Z_MDISC = 21        # magic cards discarded
Z_NTOT = 22         # rune-deck cards in this game (126 unless kinds are removed)
Z_NC = 23           # cards in the unshuffled deck pile[1, :Z_NC]
Z_NEXT = 24         # the seat that plays next
Z_ROUND = 25        # rounds (1 + resonances)
Z_DISC = 26         # 13 slots: discard pile count of kind k at Z_DISC + k
Z_TOT = 39          # 13 slots: copies of kind k in this game's deck
# the phase machine (``step``): whose turn, what is pending, the resonance's joins
Z_CUR = 52          # the seat whose turn it is
Z_PHASE = 53        # PH_PLACE, PH_START or PH_JOIN: the pending decision
Z_END = 54          # the end reason once the game is over, -1 while it goes on
Z_INIT = 55         # the resonance's initiator
Z_CARD = 56         # the resonance's magic card
Z_PART = 57         # its participants' mask so far
Z_NJ = 58           # seats that joined so far
Z_Q = 59            # the seat asked to join
Z_JK = 60           # seats after the initiator asked so far (of P - 1)
NZ = 61
PH_PLACE = 0        # the rune kind to place (-1: nothing placeable)
PH_START = 1        # start a resonance on revealed slot 0 or 1, or not (-1)
PH_JOIN = 2         # join (1) or not (0)

# --- policy ids (rules.POLICIES) ---------------------------------------------
POL_RANDOM = 0
POL_COUNTER = 1
POL_SABOTEUR = 2
POL_SEARCH_FAST = 3 # search levels (core.search.LEVELS): determinizations x1/4, x1, x4
POL_SEARCH = 4
POL_SEARCH_STRONG = 5
POL_ISMCTS = 6      # information-set MCTS (core.engine.search)
POL_SCRIPT = 9      # scenario tests: choices come from a script (scenario.py)

# --- discard reasons -------------------------------------------------------------
WHY_FAIL, WHY_DISCARD, WHY_HIT = range(3)

# --- trace events: row = [type, turn, seat, a, b, c, d, e] -----------------
E_DEAL = 1          # a = kind (setup deal)
E_REVEAL = 2        # seat -1, a = magic card, b = slot
E_TURN = 3          # a = round, b = hand size, c = markers, d = magic points
E_DRAW = 4          # a = kind, b = why (0 turn, 1 redraw, 2 DRAW effect, 3 DRAW use)
E_DRY = 5           # a = 0 rune deck / 1 magic deck found empty
E_USE = 6           # a = magic card, b = use effect, c = n
E_DISSOLVE = 7      # a = field slot, b = the rune removed, c = its column, d = 1 by a magic card
E_REDRAW = 8        # a dissolve card discarded to draw (the draw follows)
E_PLACE = 9         # a = kind, b = field slot, c = runes in the column
E_NOPLACE = 10      # no rune to place
E_PEEK = 11         # a = field slot, b = kind seen, c = its column, d = 1 by a magic card
E_START = 12        # a = magic card chosen, b = the other (discarded)
E_JOIN = 13         # a = 1 joins / 0 declines, b = magic card
E_TOTALS = 14       # a, b, c = red, green, blue totals, d = runes revealed
E_OUTCOME = 15      # a = magic card, b = 0 fail / 1 normal / 2 overdraft, c = participants mask
E_EFFECT = 16       # a = effect, b = n asked, c = n done
E_DISCARD = 17      # a = kind, b = why (WHY_*)
E_AWARD = 18        # a = magic card
E_STATE = 19        # a = markers, b = hand size, c = magic points, d = 1 in, e = supply
E_HAND = 20         # a = kinds 0..6 packed 8 bits each, b = kinds 7..12
E_OUT = 21          # the seat is out
E_END = 22          # seat = winner or -1, a = end reason, b = turns, c = rounds, d = winners mask
E_SCORE = 23        # a = score, b = markers, c = magic points, d = cards left
E_NOSTART = 24      # the seat does not start a resonance
