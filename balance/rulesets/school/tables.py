"""Magic School's own tables, from a Result's games and seats: houses (share,
house wins, win rate by house, winning houses without members), the sage
and the round-6 invisible, spells per game (white, black, each option),
and per card value its power as a book spell, a fate card and a score card.

``summary`` gathers them as the ruleset's figures (``SPEC.summary``): every
Result's summary (``summary.json`` of ``balance run school``) and the
"Ruleset figures" of ``balance report school`` hold them, and each table
is a function of a Result here (``notebooks/school.ipynb`` calls them).
Pure pandas over the records; no kernel.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...core import stats
from ...core.records import mask_bit
from .layout import HOUSES
from .rules import N_KINDS, RANKS, card_kinds

VALUES = ("joker",) + RANKS
POP = np.array([bin(i).count("1") for i in range(16)])          # value code 0 = joker, 1..13 = A..K


def _rate(k, n):
    lo, hi = stats.wilson(int(k), int(n))
    return {"n": int(n), "wins": int(k), "win_rate": k / n if n else float("nan"),
            "ci_low": float(lo), "ci_high": float(hi)}


def houses(result) -> pd.DataFrame:
    """Per house: share of seats ending in it, share of games it wins (ties:
    every tied house), share of games it wins with no member, and the win
    rate of its members (95% Wilson)."""
    g, s = result.games, result.seats
    n = len(g)
    rows = []
    for h, name in enumerate(HOUSES):
        won = (g["win_houses"].to_numpy() >> h) & 1
        empty = g[f"members_{name}"].to_numpy() == 0
        m = s["role"].astype(str) == name
        r = _rate(int(s.loc[m, "won"].sum()), int(m.sum()))
        wlo, whi = stats.wilson(int(won.sum()), n)
        rows.append({"house": name, "seat_share": float(m.mean()),
                     "house_wins": float(won.mean()), "house_wins_low": float(wlo),
                     "house_wins_high": float(whi),
                     "wins_without_member": float((won.astype(bool) & empty).mean()),
                     "mean_total": float(g[f"total_{name}"].mean()),
                     "member_win_rate": r["win_rate"], "member_ci_low": r["ci_low"],
                     "member_ci_high": r["ci_high"]})
    return pd.DataFrame(rows)


def outcomes(result) -> dict:
    """Games with no winner, shared wins, ties between houses."""
    g = result.games
    n = len(g)
    nobody = int((g["n_winners"] == 0).sum())
    ties = int((POP[g["win_houses"].to_numpy()] > 1).sum())
    lo, hi = stats.wilson(nobody, n)
    tlo, thi = stats.wilson(ties, n)
    return {"games": n, "no_winner": nobody, "no_winner_share": nobody / n if n else float("nan"),
            "no_winner_ci": [float(lo), float(hi)],
            "house_ties": ties, "house_tie_share": ties / n if n else float("nan"),
            "house_tie_ci": [float(tlo), float(thi)],
            "winners_per_game": float(g["n_winners"].mean())}


def roles_of_rounds(result) -> pd.DataFrame:
    """Win rate of the first sage vs the others, by rounds spent as sage and
    as invisible, and of the round-6 invisible vs the others (its cost: no
    turn, no vote, never sage after)."""
    s = result.seats
    rows = []
    for label, m in (("first sage", s["first_sage"] == 1), ("not first sage", s["first_sage"] == 0),
                     ("invisible in round 6", s["invisible6"] == 1),
                     ("not invisible in round 6", s["invisible6"] == 0)):
        rows.append({"group": label, **_rate(int(s.loc[m, "won"].sum()), int(m.sum()))})
    for k in sorted(s["sage_rounds"].unique()):
        m = s["sage_rounds"] == k
        rows.append({"group": f"sage in {k} round(s)", **_rate(int(s.loc[m, "won"].sum()), int(m.sum()))})
    return pd.DataFrame(rows)


def advantages(result) -> dict:
    """The first sage's win rate minus the other seats', and the round-6
    invisible's minus the other seats', each paired by game
    (``stats.paired_ratio_diff``: the seats of one game are compared with
    each other), with 95% intervals."""
    s = result.seats
    P = result.setup.n_players
    won = s["won"].to_numpy().reshape(-1, P).astype(float)
    out = {}
    for key, col in (("first_sage_minus_others", "first_sage"),
                     ("invisible6_minus_others", "invisible6")):
        m = s[col].to_numpy().reshape(-1, P) == 1
        wa, na = (won * m).sum(axis=1), m.sum(axis=1)
        wb, nb = (won * ~m).sum(axis=1), (~m).sum(axis=1)
        d, lo, hi, _ = stats.paired_ratio_diff(wa, na, wb, nb)
        out[key] = float(d)
        out[key + "_low"] = float(lo)
        out[key + "_high"] = float(hi)
        out[col + "_win_rate"] = float(wa.sum() / na.sum())
        out["not_" + col + "_win_rate"] = float(wb.sum() / nb.sum())
    return out


SPELL_COLS = ("casts_white", "casts_black", "peeks_hidden", "peeks_fate", "peeks_hand",
              "peeks_deck", "steals", "draws", "swaps")


def spells(result) -> pd.DataFrame:
    """Spells cast per game (all seats) and per seat-game by policy: white,
    black, and each option (peek hidden / fate / hand / deck; steal, draw,
    swap)."""
    g, s = result.games, result.seats
    rows = [{"who": "per game (all seats)", **{c: float(g[c].mean()) for c in SPELL_COLS},
             "swap_gain": float(s.groupby("game")["swap_gain"].sum().mean())}]
    for pol, d in s.groupby("policy", observed=True):
        rows.append({"who": f"per seat-game: {pol}", **{c: float(d[c].mean()) for c in SPELL_COLS},
                     "swap_gain": float(d["swap_gain"].mean())})
    return pd.DataFrame(rows)


def card_values(result) -> pd.DataFrame:
    """Per card value (joker, A..K):
    - book spell: share of games it ends in the white / black book (hidden
      included), spells cast with cards of that value per game, and the win
      rate of seats that cast one vs seats that did not;
    - fate card: the win rate of seats holding it as a fate card vs not;
    - score card: the share of games it ends in a pile, and how often a pile
      holding it wins vs a pile without it."""
    g, s = result.games, result.seats
    b = result.batch
    n = len(g)
    kinds = card_kinds()
    val_of_kind = np.array([0 if k >= 52 else k % 13 + 1 for k in range(N_KINDS)])
    won = s["won"].to_numpy().astype(bool)
    fv = s["fate_values"].to_numpy()
    wv, bv = g["white_values"].to_numpy(), g["black_values"].to_numpy()
    wh = g["win_houses"].to_numpy()
    rows = []
    P = b.seats.shape[1]
    for v in range(14):
        row = {"value": VALUES[v]}
        if v > 0:
            row["in_white_book"] = float(((wv >> v) & 1).mean())
            row["in_black_book"] = float(((bv >> v) & 1).mean())
        else:
            row["in_white_book"] = row["in_black_book"] = float("nan")
        ks = [k for k in range(N_KINDS) if val_of_kind[k] == v]
        row["casts_per_game"] = float(b.counts[1, ks].sum() / n) if n else float("nan")
        cast = np.zeros((b.n, P), bool)
        for k in ks:
            cast |= mask_bit(b.masks, 1, k)
        cast = cast.reshape(-1)
        row["wr_cast"] = float(won[cast].mean()) if cast.any() else float("nan")
        row["wr_not_cast"] = float(won[~cast].mean()) if (~cast).any() else float("nan")
        has = ((fv >> v) & 1).astype(bool)
        r1, r0 = _rate(won[has].sum(), has.sum()), _rate(won[~has].sum(), (~has).sum())
        row.update({"wr_fate": r1["win_rate"], "wr_fate_low": r1["ci_low"],
                    "wr_fate_high": r1["ci_high"], "wr_not_fate": r0["win_rate"],
                    "fate_improvement": r1["win_rate"] - r0["win_rate"]})
        pile_has = np.stack([((g[f"pile_values_{h}"].to_numpy() >> v) & 1).astype(bool)
                             for h in HOUSES], axis=1)
        pile_won = np.stack([((wh >> h) & 1).astype(bool) for h in range(4)], axis=1)
        row["in_a_pile"] = float(pile_has.any(axis=1).mean())
        k1, n1 = int((pile_has & pile_won).sum()), int(pile_has.sum())
        r = _rate(k1, n1)
        row.update({"pile_win_with": r["win_rate"], "pile_win_with_low": r["ci_low"],
                    "pile_win_with_high": r["ci_high"],
                    "pile_win_without": float(pile_won[~pile_has].mean())
                    if (~pile_has).any() else float("nan")})
        rows.append(row)
    del kinds
    return pd.DataFrame(rows)


def _pct(x, lo=None, hi=None):
    return f"{x:.2%}" + ("" if lo is None else f" [{lo:.2%}, {hi:.2%}]")


def _pts(d, lo, hi):
    return f"{d * 100:+.2f} [{lo * 100:+.2f}, {hi * 100:+.2f}] points"


def summary(result) -> dict:
    """The ruleset's own figures (summary.json, and the report's "Ruleset
    figures"): headline sentences, the numbers behind them, and the game's
    tables as lists of rows (houses, the sage and the invisible, spells, card
    values), which ``balance report`` renders as tables."""
    o = outcomes(result)
    a = advantages(result)
    return {
        "no_winner": f"{_pct(o['no_winner_share'], *o['no_winner_ci'])} of games "
                     f"({o['no_winner']:,} of {o['games']:,}): the winning house had no member, "
                     f"so nobody won (a draw in the generic tables)",
        "house_ties": f"{_pct(o['house_tie_share'], *o['house_tie_ci'])} of games had several "
                      f"winning houses (each tied house's members win); "
                      f"{o['winners_per_game']:.2f} winning seats per game",
        "sage_advantage": f"the first sage wins {_pct(a['first_sage_win_rate'])} against "
                          f"{_pct(a['not_first_sage_win_rate'])} for the other seats of its "
                          f"games: {_pts(a['first_sage_minus_others'], a['first_sage_minus_others_low'], a['first_sage_minus_others_high'])} "
                          f"(paired by game)",
        "round6_invisible_cost": f"the round-6 invisible player (no turn, no vote, never "
                                 f"sage after) wins {_pct(a['invisible6_win_rate'])} against "
                                 f"{_pct(a['not_invisible6_win_rate'])} for the other seats: "
                                 f"{_pts(a['invisible6_minus_others'], a['invisible6_minus_others_low'], a['invisible6_minus_others_high'])} "
                                 f"(paired by game)",
        "outcomes": o,
        "advantages": a,
        "houses": houses(result).to_dict(orient="records"),
        "sage_and_invisible": roles_of_rounds(result).to_dict(orient="records"),
        "spells": spells(result).to_dict(orient="records"),
        "card_values": card_values(result).to_dict(orient="records"),
    }
