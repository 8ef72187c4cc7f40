"""Magic School rule scenarios (docs/rules/school.md), each an exact
position run one step through the compiled kernel
(balance/rulesets/school/scenario.py)."""
import pytest

from balance.core.engine import contract
from balance.rulesets.school import layout as L
from balance.rulesets.school.scenario import Table


@pytest.fixture(scope="module")
def table():
    return lambda **kw: Table(**{"players": 4, "policies": "script", **kw})


def test_houses_every_case_including_a_fate_card_both_white_and_black(table):
    """End and houses: white only = priest, black only = wizard, both =
    magister (here one fate card, a 9, is in both books), neither = muggle;
    hidden spells count; a joker fate card is neither."""
    t = table()
    t.arrange(fates={0: ["H5", "C2", "D3"],        # 5 white (face up)
                     1: ["S8", "C3", "jk"],         # 8 black (hidden)
                     2: ["D9", "HA", "C4"],         # 9 in both books
                     3: ["JK", "SA", "DA"]},        # jokers and aces: nothing
              white=["S5", "H9"], white_hidden=["C7"], black=["S9"], black_hidden=["H8"],
              piles={"muggle": ["CK"]})
    g = t.finish()
    assert [s["role"] for s in t.seats] == [L.PRIEST, L.WIZ, L.MAG, L.MUGGLE]
    assert (t.seats[2]["fate_white"], t.seats[2]["fate_black"]) == (1, 1)
    assert g["white_values"] == (1 << 5) | (1 << 9) | (1 << 7)
    assert g["win_houses"] == 1 << L.MUGGLE and [s["won"] for s in t.seats] == [0, 0, 0, 1]
    assert t.seats[3]["score"] == 13


def test_hidden_spells_count_at_the_end_but_are_never_castable(table):
    """Magic cards: only face-up book cards cast; a peeked hidden card still
    cannot be cast; it is revealed at the end and decides houses."""
    t = table()
    t.arrange(hands={0: ["H9", "C7"]}, fates={0: ["S9", "C2", "D3"]},
              white=["D6"], white_hidden=["C9"], black=["DQ"], black_hidden=["S7"])
    assert t.entries(0) == []
    t.peeked(0, 0, 1)                         # seat 0 knows the hidden white 9
    assert t.entries(0) == []
    t.finish()
    assert t.seats[0]["role"] == L.PRIEST     # its fate 9 matches the hidden white 9


def test_the_cloak_discards_cards_bound_for_its_house(table):
    """Meeting round 1: the vote puts ♠3 in the white book; ♥5 goes to the
    priest pile, which is cloaked: discarded. A joker the sage sends to the
    cloaked pile is discarded too."""
    t = table()
    t.arrange(hands={p: [] for p in range(4)}, white=["D6"], white_hidden=["C9"],
              black=["DQ"], black_hidden=["S7"], piles={"priest": ["H2"]},
              deck=["H5", "S3"], sage=0, invisible=1, cloak="priest")
    t.script((2, "vote", 0), (3, "vote", 0), (0, "vote", 1))   # deck top S3 is option 0
    t.meeting(1)
    assert t.book(0)[-1] == ("S3", True)
    assert t.pile_of("priest") == ["H2"] and t.discard_pile()[-1] == "H5"
    assert t.Z[L.Z_GSTAT + 9] == 1           # cloaked_discards


def test_swaps_only_within_a_house_jokers_any_house_with_0_points(table):
    """Black magic swap: a hand card for a score card of its house; a joker
    on either side matches any house; the cloaked pile cannot be swapped."""
    t = table()
    t.arrange(hands={0: ["S7", "HK", "jk"]}, white=["D6"], black=["C7"],
              piles={"wizard": ["S2"], "priest": ["H3"], "magister": ["JK"], "muggle": ["C4"]},
              deck=["D2", "D3"], sage=0, invisible=1, cloak="muggle")
    swaps = {(e[1], e[2], e[3]) for e in t.entries(0) if e[0] == "swap"}
    assert ("S7", "HK", ("priest", 0)) in swaps and ("S7", "HK", ("magister", 0)) in swaps
    assert ("S7", "HK", ("wizard", 0)) not in swaps
    assert {s[2] for s in swaps if s[1] == "jk"} == {("wizard", 0), ("priest", 0), ("magister", 0)}
    assert not any(s[2][0] == "muggle" for s in swaps)
    t.script((0, "spell", "swap", "S7", "jk", ("priest", 0)), (0, "spell", "stop"))
    t.turn(0)
    assert t.pile_of("priest") == ["jk"] and "H3" in t.discard_pile() and "S7" in t.discard_pile()
    assert t.hand_of(0) == ["HK"] and t.S[0, L.SEAT_COLUMNS.index("swap_gain")] == -3
    assert t.Z[L.Z_ERR] == 0


def test_meetings_across_six_rounds_and_a_vote_tie_goes_to_the_sage(table):
    """Rounds 1 and 3 add a white spell, 2 and 4 a black one, 5 and 6 delete
    a face-up white / black one; books end with 3 cards each (4 - 1)."""
    t = Table(players=4, policies="random", seed=3)
    for r in range(1, 7):
        assert t.round(r) == 0
    ev = t.events()
    meets = ev[ev[:, 0] == L.E_MEET]
    assert list(meets[:, 3]) == [0, 1, 0, 1, 2, 3]
    assert len(t.book(0)) == 3 and len(t.book(1)) == 3
    assert sum(not up for _, up in t.book(0)) == 1          # the hidden one stays
    # a 2-2 tie with 5 players: the sage's tie-break decides
    t = Table(players=5, policies="script")
    t.arrange(hands={p: [] for p in range(5)}, white=["D6"], white_hidden=["C9"],
              black=["DQ"], black_hidden=["S7"], deck=["H5", "S3"], sage=0, invisible=4)
    t.script((1, "vote", 0), (2, "vote", 1), (3, "vote", 1), (0, "vote", 0), (0, "tie", 0))
    t.meeting(1)
    assert t.book(0)[-1] == ("S3", True)
    ev = t.events()
    assert list(ev[ev[:, 0] == L.E_TIE][:, 3]) == [0]
    # deletion meeting (round 5) among the 3 face-up white spells, a 1-1-1 tie
    t = Table(players=4, policies="script")
    t.arrange(hands={p: [] for p in range(4)}, white=["D6", "H2", "CK"], white_hidden=["C9"],
              black=["DQ"], sage=2, invisible=0)
    t.script((3, "vote", 0), (1, "vote", 1), (2, "vote", 2), (2, "tie", 2))
    t.meeting(5)
    assert [c for c, _ in t.book(0)] == ["D6", "H2", "C9"] and t.pile_of("muggle") == ["CK"]


def test_the_discard_pile_is_reshuffled_when_a_draw_finds_the_deck_empty(table):
    t = table()
    t.arrange(hands={p: [] for p in range(4)}, deck=[])
    n = int(t.Z[L.Z_DISC])
    c = t.draw()
    assert c >= 0 and t.Z[L.Z_DISC] == 0 and t.Z[L.Z_DECK] == n - 1
    assert t.Z[L.Z_GSTAT + 10] == 1


def test_draw_two_reshuffles_with_the_cast_card_in_the_discard_pile(table):
    """A cast spell card goes to the discard pile before its effect: a draw
    from an empty deck reshuffles it in with the rest."""
    t = table()
    t.arrange(hands={0: ["C7"]}, black=["D7"], deck=[], sage=0, invisible=1)
    n = int(t.Z[L.Z_DISC])
    t.script((0, "spell", "draw", "C7"), (0, "spell", "stop"))
    t.turn(0)
    assert len(t.hand_of(0)) == 2 and t.Z[L.Z_GSTAT + 10] == 1
    assert t.Z[L.Z_DISC] == 0 and t.Z[L.Z_DECK] == n + 1 - 2 and t.invariants() == 0


def test_tied_houses_all_win_and_each_member_scores_its_share(table):
    t = table()
    t.arrange(fates={0: ["H5", "C2", "D3"], 1: ["S8", "C3", "D2"], 2: ["D5", "S4", "D4"],
                     3: ["SA", "DA", "HA"]},
              white=["S5"], black=["D8"],
              piles={"priest": ["HK"], "wizard": ["S10", "S3"], "muggle": ["C4"]})
    g = t.finish()
    assert g["win_houses"] == (1 << L.PRIEST) | (1 << L.WIZ) and g["n_winners"] == 3
    assert [s["won"] for s in t.seats] == [1, 1, 1, 0]
    assert [s["score"] for s in t.seats] == [6, 13, 6, 0]      # 13 // 2 priests
    assert g["end_reason"] == L.END_WON and g["winner"] == 0


def test_a_winning_house_with_no_members_means_nobody_wins(table):
    t = table()
    t.arrange(fates={0: ["H5", "C2", "D3"], 1: ["SA", "DA", "HA"], 2: ["S3", "D4", "H4"],
                     3: ["S6", "H6", "D6"]},
              white=["S5"], black=["D8"], piles={"magister": ["DK"], "priest": ["H2"]})
    g = t.finish()
    assert [s["role"] for s in t.seats] == [L.PRIEST, L.MUGGLE, L.MUGGLE, L.MUGGLE]
    assert g["win_houses"] == 1 << L.MAG and g["members_magister"] == 0
    assert g["n_winners"] == 0 and g["winner"] == -1 and g["end_reason"] == L.END_NOBODY
    assert not any(s["won"] for s in t.seats)


def test_float_policy_parameters_are_read_per_seat():
    """The kernel reads seat p's float policy parameters from row p (its
    spells, its discards, the search's priorities): the contract of policy
    variants (``core.engine.contract.check_seat_rows``) with
    draw_max_hand=-1 (never cast to draw) at seat 2, and only that seat
    stops drawing."""
    from balance.rulesets.school import SPEC
    draws = L.SEAT_COLUMNS.index("draws")
    plain, _, one = contract.check_seat_rows(SPEC, 4, "informed", {"draw_max_hand": -1.0}, 2,
                                             seed=5)
    seats = one[1]                              # [game, seat, column]
    assert seats[:, 2, draws].sum() == 0 and seats[:, [0, 1, 3], draws].sum() > 0
    assert plain[1][:, 2, draws].sum() > 0
