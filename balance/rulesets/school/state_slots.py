"""Magic School's slots by name: where each rule and policy parameter sits
in the context's vectors (``P_*`` in ``ip``, ``Q_*`` in a seat's row of
``pp``), the game record's columns (``G_*``), the seat record's columns,
which are also the first columns of the state's per-seat array ``S``
(``S_*``), and the game statistics kept in ``Z`` (``ZG_*``).

Plain constants taken from the names (``rules.IDX``/``PIDX``,
``layout.GAME_COLUMNS``/``SEAT_COLUMNS``, ``core.layout.index``), checked
where a kernel loop relies on consecutive slots; no numba, so every
compiled module can import them first.
"""
from ...core.layout import index
from .layout import GAME_COLUMNS, SEAT_COLUMNS, ZG_NAMES, Z_GSTAT
from .rules import IDX, PIDX

# --- parameter slots -----------------------------------------------------
P_DECKS = IDX["n_decks"]
P_START = IDX["start_hand"]
P_FATE = IDX["fate_cards"]
P_LIMIT = IDX["hand_limit"]
P_SETUP = IDX["setup_score"]
P_HIDDEN = IDX["hidden_per_book"]
P_RDRAW = IDX["round_draw"]
P_SDRAW = IDX["steal_draw"]
P_MEET = IDX["meeting_cards"]
P_MAXC = IDX["max_casts"]
P_HOS = IDX["house_of_spade"]          # four consecutive slots
Q_SWAP = PIDX["swap_min_gain"]
Q_STEAL = PIDX["steal_min_hand"]
Q_DRAW = PIDX["draw_max_hand"]
Q_FATES = PIDX["peek_fates"]
Q_JOKER = PIDX["joker_keep"]
assert [IDX[f"house_of_{s}"] for s in ("spade", "heart", "diamond", "club")] == list(range(P_HOS, P_HOS + 4))

# --- record columns, by name (layout) -----------------------------------------
GI = index(GAME_COLUMNS)
NG = len(GAME_COLUMNS)
G_WINNER = GI["winner"]
G_TURNS = GI["turns"]
G_ROUNDS = GI["rounds"]
G_END = GI["end_reason"]
G_FIRST = GI["first_seat"]
G_DEC = GI["decisions"]
G_WMASK = GI["win_houses"]
G_NWIN = GI["n_winners"]
G_TOP = GI["top_total"]
G_TOTAL = GI["total_wizard"]           # four consecutive columns (house order)
G_MEMBERS = GI["members_wizard"]
G_PVALS = GI["pile_values_wizard"]
G_WVALS = GI["white_values"]
G_BVALS = GI["black_values"]
G_STAT = GI["casts_white"]             # ZG_NAMES, consecutive
G_INV6 = GI["invisible6"]
G_CLOAK6 = GI["cloak6"]
assert [GI[n] for n in ZG_NAMES] == list(range(G_STAT, G_STAT + len(ZG_NAMES)))
for _i, _n in enumerate(("total", "members", "pile_values")):
    assert [GI[f"{_n}_{h}"] for h in ("wizard", "priest", "magister", "muggle")] == \
        list(range(GI[f"{_n}_wizard"], GI[f"{_n}_wizard"] + 4))
SI = index(SEAT_COLUMNS)
S_ROLE = SI["role"]
S_WON = SI["won"]
S_SCORE = SI["score"]
S_FW = SI["fate_white"]
S_FB = SI["fate_black"]
S_FVALS = SI["fate_values"]
S_FIRST = SI["first_sage"]
S_SAGE = SI["sage_rounds"]
S_INVR = SI["invisible_rounds"]
S_INV6 = SI["invisible6"]
S_CW = SI["casts_white"]
S_CB = SI["casts_black"]
S_PEEK = SI["peeks_hidden"]            # four consecutive: hidden, fate, hand, deck
S_STEAL = SI["steals"]
S_DRAWS = SI["draws"]
S_SWAPS = SI["swaps"]
S_GAIN = SI["swap_gain"]
S_VOTES = SI["votes_carried"]
S_DEC = SI["decisions"]
assert [SI[n] for n in ("peeks_hidden", "peeks_fate", "peeks_hand", "peeks_deck")] == \
    list(range(S_PEEK, S_PEEK + 4))
ZG_CW, ZG_CB, ZG_PEEK, ZG_STEAL, ZG_DRAW, ZG_SWAP, ZG_CLOAKED, ZG_RESH = (
    Z_GSTAT + 0, Z_GSTAT + 1, Z_GSTAT + 2, Z_GSTAT + 6, Z_GSTAT + 7, Z_GSTAT + 8, Z_GSTAT + 9,
    Z_GSTAT + 10)
