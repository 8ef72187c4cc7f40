"""Magic School's record columns, state slots and codes, declared once by name.

Plain constants only (no numba, no kernel): ``__init__`` (the spec's
columns), ``replay``, ``scenario``, ``tables`` and the tests import them
without loading compiled code. The kernel takes its record column indices
from the column names with ``core.layout.index``.
"""
from ...core.layout import Z_TR, Z_TURN

# --- records (spec.game_columns, spec.seat_columns) ------------------------
HOUSES = ("wizard", "priest", "magister", "muggle")      # house codes 0..3 (seat column role)
HOUSES_ZH = ("巫师", "牧师", "魔导士", "麻瓜")
WIZ, PRIEST, MAG, MUGGLE = range(4)

GAME_COLUMNS = (
    "winner", "turns", "rounds", "end_reason",
    "first_seat",            # the first sage (random)
    "decisions",             # policy choices among 2+ options (spells incl. stop, fate card peeked, votes, ties, names, cloaks, jokers, discards)
    "win_houses",            # bitmask of the winning houses (bit = house code)
    "n_winners",             # seats that won (0: nobody)
    "top_total",             # the winning total
    "total_wizard", "total_priest", "total_magister", "total_muggle",     # final pile totals
    "members_wizard", "members_priest", "members_magister", "members_muggle",
    "pile_values_wizard", "pile_values_priest", "pile_values_magister", "pile_values_muggle",
    "white_values", "black_values",   # bitmask (bit v, v = 1..13) of values in the final books, hidden included
    "casts_white", "casts_black",
    "peeks_hidden", "peeks_fate", "peeks_hand", "peeks_deck",
    "steals", "draws", "swaps",
    "cloaked_discards",      # cards discarded because their pile was cloaked
    "reshuffles",
    "invisible6",            # the round-6 invisible seat
    "cloak6",                # the house it cloaked
)
SEAT_COLUMNS = (
    "role",                  # final house (HOUSES)
    "won", "score",          # won: a member of a winning house; score: house total // members
    "fate_white", "fate_black",   # fate cards that are white / black at the end
    "fate_values",           # bitmask of its fate card values (bit 0 = a joker)
    "first_sage",            # 1 for the first sage
    "sage_rounds", "invisible_rounds",
    "invisible6",            # 1 when invisible in round 6 (never sage after)
    "casts_white", "casts_black",
    "peeks_hidden", "peeks_fate", "peeks_hand", "peeks_deck",
    "steals", "draws", "swaps",
    "swap_gain",             # points its swaps added to the piles (given - taken)
    "votes_carried",         # votes it cast for the option that was chosen
    "decisions",
)
END_REASONS = ("house_won", "no_member")     # no_member: no winning house has a member
END_WON = 0
END_NOBODY = 1

# --- S int64[P, NS]: per-seat state (stats first, in SEAT_COLUMNS order) ------
# columns 0..NSEAT-1 mirror SEAT_COLUMNS; then working slots:
NSEAT = len(SEAT_COLUMNS)
C_HN = NSEAT            # cards in hand, hand[p, :C_HN]
C_HOUSE = NSEAT + 1     # scratch: believed / final house
NS = NSEAT + 2

# --- Z int64[NZ]: one game's globals -----------------------------------------
Z_DECK = 0          # cards in the deck, cards[0, :Z_DECK] (top = last)
Z_DISC = 1          # cards in the discard pile, cards[1, :Z_DISC]
#    Z_TURN = 2     # turns played (core.layout: the trace writer reads it)
#    Z_TR = 3       # trace rows written (core.layout)
Z_NC = 4            # cards in the full deck, cards[2, :Z_NC] (per batch)
Z_ROUND = 5         # the round, 1..6 (0 = setup)
Z_SAGE = 6          # this round's sage
Z_INV = 7           # this round's invisible seat (-1 at setup)
Z_CLOAK = 8         # the cloaked house (-1: none)
Z_BN = 9            # 2 slots: cards in the white / black book
Z_UP = 11           # 2 slots: bitmask of face-up values (bit v) in the white / black book
Z_PN = 13           # 4 slots: cards in each house pile
Z_DEC = 17          # decisions
Z_FIRST = 18        # the first sage
Z_GSTAT = 19        # 12 slots: casts_white .. reshuffles counters (GAME_COLUMNS order)
Z_SCR = 31          # script rows consumed (scenario policy)
Z_ERR = 32          # broken invariants (check mode)
Z_CLOAK6 = 33       # the house cloaked in round 6
Z_PT = 34           # 4 slots: each house pile's total (kept up to date as cards enter or are swapped)
# the phase machine (``step``): the pending decision, where play goes on after it, the meeting
Z_CUR = 38          # the seat whose turn it is
Z_PHASE = 39        # the pending decision (PH_*)
Z_SEAT = 40         # the seat that decides it
Z_OVER = 41         # 1 once the game is over
Z_CASTS = 42        # spells cast in this turn
Z_MKIND = 43        # the meeting's kind (0 add white, 1 add black, 2 delete white, 3 delete black)
Z_NOPT = 44         # the meeting's options
Z_VK = 45           # seats stepped over by the vote so far (from the sage's left, of P)
Z_TIED = 46         # bitmask of the options tied at the top of the vote
Z_CLN = 47          # the cloaked pile's size when it was cloaked (check mode)
Z_CLSUM = 48        # ... and its weighted sum of cards (check mode)
Z_HALT = 49         # scenario only: bitmask of the stages (G_*) at which play halts
Z_STAGE = 50        # the stage play halted at (scenario)
Z_OPT = 51          # 16 slots: the meeting's options (cards turned, or book places)
Z_VOTE = 67         # 8 slots: each seat's vote (-1: none)
NZ = 75
NOPT = 16           # meeting options at most
NVOTE = 8           # seats at most
ZG_NAMES = ("casts_white", "casts_black", "peeks_hidden", "peeks_fate", "peeks_hand",
            "peeks_deck", "steals", "draws", "swaps", "cloaked_discards", "reshuffles")

# --- workspace sizes ---------------------------------------------------------
NK = 54             # card kinds
NCMAX = 108         # physical cards (two decks)
KN_MASK = NCMAX     # KN[p, KN_MASK + b]: value mask of the hidden cards of book b seat p has seen
KN_FATE = NCMAX + 2  # KN[p, KN_FATE]: value mask of seat p's own fate cards (fate cards never move)
KNW = NCMAX + 3     # KN's row width
HCAP = 128          # hand capacity (limit <= 10, + the draw, + 2 x casts)
FCAP = 5            # fate cards per seat (at most)
BCAP = 16           # book places (at most)
PCAP = 128          # cards per house pile (at most)

# --- spell entries: (effect, hand index of the cast card, a, b) ---------------
EF_STOP = 0
EF_PEEK_BOOK = 1    # a = book (0 white, 1 black), b = slot
EF_PEEK_FATE = 2    # a = seat, b = fate index
EF_PEEK_HAND = 3    # a = seat (the card: random, from the game's stream)
EF_PEEK_DECK = 4
EF_STEAL = 5        # a = seat (the card: random, from the game's stream)
EF_DRAW = 6         # draw `steal_draw` cards
EF_SWAP = 7         # a = hand index of the given card, b = house * PCAP + pile index
EFFECTS = ("stop", "peek book", "peek fate", "peek hand", "peek deck", "steal", "draw", "swap")

# --- decision types (scenario scripts) -----------------------------------------
D_NAME = 1          # sage names the invisible: v0 = seat
D_CLOAK = 2         # invisible cloaks: v0 = house
D_JOKER = 3         # sage places a joker: v0 = house
D_SPELL = 4         # v0 = effect, v1 = card id cast, v2 = a, v3 = b (EF_SWAP: a = given card id)
D_VOTE = 5          # v0 = option
D_TIE = 6           # sage breaks a tie: v0 = option
D_DISCARD = 7       # v0 = card id

# --- policy ids (rules.POLICIES) -------------------------------------------
POL_RANDOM = 0
POL_INFORMED = 1
POL_SEARCH_FAST = 2  # search levels (core.search.LEVELS, in that order): ids >= POL_SEARCH_FAST
POL_SEARCH = 3
POL_SEARCH_STRONG = 4
POL_ISMCTS = 5      # information-set MCTS (core.engine.search)
POL_SCRIPT = 9      # scenario tests only: scripted choices, else random

# --- the phase machine (``step``): decisions (Z_PHASE) ---------------------------------
PH_NAME = 0         # the sage names the invisible: option = a seat
PH_CLOAK = 1        # the invisible cloaks a house: option = a house
PH_SPELL = 2        # seat Z_CUR's next spell: option = step.spell_code(effect, card, a, b), 0 stop
PH_VOTE = 3         # seat Z_SEAT's sealed vote: option = a meeting option
PH_TIE = 4          # the sage breaks the tie: option = a tied meeting option
PH_HALT = 5         # scenario only: play halted at stage Z_STAGE (no decision)
# ... and the stages play goes through between them (step.advance)
G_ROUND = 0         # a round begins (then PH_NAME)
G_DRAWS = 1         # the round's draws (after PH_CLOAK), then the first turn
G_TURN = 2          # seat Z_CUR's turn begins (Z_TURN counted)
G_TURNEV = 3        # ... its trace row, no spell cast yet
G_SPELLS = 4        # it may cast again (then PH_SPELL) or stops
G_STOPPED = 5       # it stopped: the sage's meeting, or its discard
G_MEET = 6          # the sage's meeting opens (then PH_VOTE for each voter)
G_VOTES = 7         # the next voter, or the tally (then PH_TIE on a tie)
G_DISCARD = 8       # seat Z_CUR discards down to the limit, then the next turn or the round's end
G_ROUNDEND = 9      # the round's checks and end
G_NEXT = 10         # the next round
G_END = 11          # the game is over

# --- trace events: row = [type, turn, seat, a, b, c, d, e] -----------------
E_DEAL = 1          # a = card (hand)
E_FATE = 2          # a = card (fate)
E_BOOKSET = 3       # a = book, b = card, c = 1 face up / 0 hidden
E_FIRST = 4         # seat = first sage
E_SCORE = 5         # seat = sage, a = card, b = house, c = 1 if discarded (cloak)
E_ROUND = 6         # seat = sage, a = round
E_INVISIBLE = 7     # seat = sage, a = invisible seat
E_CLOAK = 8         # seat = invisible, a = house
E_DRAW = 9          # a = card
E_RESHUFFLE = 10    # a = cards reshuffled
E_TURN = 11         # a = hand size
E_SPELL = 12        # a = effect, b = card cast, c = target a, d = target b, e = card seen / taken / -1
E_SWAP = 13         # a = given card, b = taken card, c = house
E_MEET = 14         # seat = sage, a = meeting kind (0 add white, 1 add black, 2 delete white, 3 delete black), b, c = options count, first option
E_OPTION = 15       # a = option index, b = card
E_VOTE = 16         # seat = voter, a = option
E_TIE = 17          # seat = sage, a = option chosen among the tied
E_TOBOOK = 18       # a = book, b = card
E_DELETE = 19       # a = book, b = card
E_DISCARD = 20      # a = card (hand limit)
E_BOOKS = 21        # a = book, b..e = first 4 places, card + 1 face up, -(card + 1) hidden, 0 empty
E_PILES = 22        # a..d = totals (wizard, priest, magister, muggle), e = cloak
E_HOUSE = 23        # seat, a = house, b = white fate cards, c = black, d = won, e = score
E_END = 24          # a = winning houses mask, b = top total, c = winners, d = end reason
E_STOPPED = 25      # seat stops casting
E_PILE = 26         # a = house, b..e = up to 4 cards (+1), repeated rows for more
E_FATEREVEAL = 27   # seat, a..c = fate cards
