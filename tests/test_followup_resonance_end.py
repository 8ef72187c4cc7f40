"""Issue 34 item 1: after a resonance the field goes to the discard pile,
then the end conditions are checked, and only a game that goes on reveals
2 new magic cards (docs/rules/resonance.md, "A turn": "Either way all
field runes go to the discard pile; then the end conditions are checked,
and only a game that goes on reveals 2 new magic cards (a game that ends on
this resonance reveals nothing)"). So a resonance that gives a seat its
third magic card while the magic deck is empty ends ``player_magic``, not
``magic_deck_empty``; a search seat's turn, played on the engine, resolves
the resonance with the same ``res_close``.

Card used (default table): #1 Spark, base R2, overdraft R5 G3 B3."""
import numpy as np

from balance.rulesets.resonance import layout as L
from balance.rulesets.resonance.scenario import Table

HANDS = {p: "R+1 G+1 B+1 B+1" for p in range(4)}


def table(policies="counter", **kw):
    t = Table(players=4, policies=policies)
    t.arrange(hands=HANDS, deck="G+1 " * 30, discard="", supply=40, revealed=(1, 2), **kw)
    t.set_mark()           # events from here on (not the deal's reveals)
    return t


def test_a_third_card_with_the_magic_deck_empty_ends_player_magic_and_reveals_nothing():
    t = table(magic_deck=(), owned={0: [4, 5]}, field=[(0, "R+2"), (1, "R+1")])
    assert t.end() == -1
    assert t.resonate(0, slot=0, joiners=[]) == 1            # Spark, normal
    assert t.S[0, L.C_MN] == 3
    assert t.end() == L.END_PLAYER                            # not magic_deck_empty
    assert t.events(etype=L.E_REVEAL).shape[0] == 0
    dry = t.events(etype=L.E_DRY)
    assert not (dry[:, 3] == 1).any()                         # no reveal found the deck empty
    assert t.Z[L.Z_REV] == -1 and t.Z[L.Z_REV + 1] == -1
    assert t.broken() == 0


def test_a_game_that_ends_on_the_resonance_leaves_the_magic_deck_unrevealed():
    t = table(magic_deck=(7, 8, 9), owned={0: [4, 5]}, field=[(0, "R+2")])
    assert t.resonate(0, slot=0, joiners=[]) == 1
    assert t.end() == L.END_PLAYER
    assert t.events(etype=L.E_REVEAL).shape[0] == 0 and t.Z[L.Z_MD] == 3
    assert t.broken() == 0


def test_a_game_that_goes_on_reveals_two_and_an_empty_magic_deck_then_ends_it():
    t = table(magic_deck=(7, 8, 9), owned={0: [4]}, field=[(0, "R+2")])
    assert t.resonate(0, slot=0, joiners=[]) == 1
    assert t.end() == -1
    assert list(t.events(etype=L.E_REVEAL)[:, 3]) == [7 - 1, 8 - 1]    # top first
    t = table(magic_deck=(), owned={0: [4]}, field=[(0, "R+2")])
    assert t.resonate(0, slot=0, joiners=[]) == 1
    assert t.end() == L.END_MAGIC and t.S[0, L.C_MN] == 2


def test_the_search_turn_ends_player_magic_too():
    """A search_fast seat whose start on Spark wins the game at once (its
    third card; the rune deck's last card is its own turn draw, so not
    starting loses on the next seat's draw): played step by step on the
    engine, the search starts, and the turn ends ``player_magic`` with
    nothing revealed (the engine resolves every resonance with the same
    ``res_close``)."""
    from balance.rulesets.resonance import kernel as K
    from balance.rulesets.resonance.state import State
    t = Table(players=4, policies=["search_fast", "counter", "counter", "counter"],
              params={"search_determinizations": 4})
    t.arrange(hands={0: "R+1 R+1", 1: "G+1", 2: "G+1", 3: "G+1"}, deck="G+1", discard="",
              supply=40, revealed=(1, 2), magic_deck=(), owned={0: [4, 5]},
              markers={0: 14, 1: 18}, field=[(0, "R+2"), (1, "R+1")])
    t.set_mark()
    s = State(t.S, t.F, t.pile, t.Z, t.MD, t.st, t.ST)
    c = K.context(4, t.pol, t.ip, t.pp, t.ban, t.M)
    R = K.E.R
    t.Z[L.Z_CUR] = 0
    t.Z[L.Z_END] = -1
    R.turns_on(s, c, np.int64(-1), True, t.masks, t.counts, t.tr, True, False)   # the draw
    sw = K.E.search_work(lambda: K.new_state(4), t.masks.shape, t.counts.shape)
    nd = 0
    while not R.done(s, c) and t.Z[L.Z_TURN] == 1:      # seat 0's turn, the joins included
        q = R.seat(s, c)
        code = (K.E.decide(np.uint64(12345), np.int64(0), c, s, t.pol[q], nd, sw) if q == 0
                else R.heuristic(s, c, t.pol[q]))
        R.apply(s, c, code, t.masks, t.counts, t.tr, True, False)
        nd += 1
    assert t.events(etype=L.E_START)[:, 3].tolist() == [1 - 1] and t.S[0, L.C_MN] == 3
    assert t.Z[L.Z_END] == L.END_PLAYER                       # not magic_deck_empty
    assert t.events(etype=L.E_REVEAL).shape[0] == 0
    assert t.broken() == 0
