"""Magic Elite 魔法精英: card ids, constants, parameters and the play table.

Contract: ``docs/rules/elite.md``. Decisions where it is silent are in
``balance/rulesets/elite/README.md``.

Play cards: kind = suit * 9 + rank index, suits in the order of the turn-order
rule ♠ ♥ ♣ ♦ (spade, heart, club, diamond) and rank indices 0..8 for
A 2 3 4 5 6 J Q K (values 1 2 3 4 5 6 11 12 13). The ``n_decks`` copies of a
card are one kind; hands are counts per kind.

Identity cards: id = (rank - 7) * 4 + suit for ranks 7..10.

A *play* is a run of one suit over consecutive rank indices ``lo..hi``; all
runs are numbered once in :func:`play_table` (the kernel's ``PT``/``PID``), so a
play is one small int everywhere (trace included).
"""
from dataclasses import dataclass, fields

import numpy as np

from ...core import search
from ...core.params import kernel_index, param

SUITS = ("spade", "heart", "club", "diamond")
SUIT_SYM = ("♠", "♥", "♣", "♦")
RANKS = ("A", "2", "3", "4", "5", "6", "J", "Q", "K")
VALUES = (1, 2, 3, 4, 5, 6, 11, 12, 13)
SPADE, HEART, CLUB, DIAMOND = range(4)
R_A, R_4, R_5, R_6, R_J, R_K = 0, 3, 4, 5, 6, 8
N_KINDS = 36
END_REASONS = ("last_standing", "turn_cap", "all_out")

V1_ROLES = {7: "7 killer", 8: "8 rogue", 9: "9 ninja", 10: "10 king"}
V2_ROLES = {7: "7 (x100)", 8: "8 bilocation/shield/control", 9: "9 judgment",
            10: "10 combined"}
V3_ROLES = {7: "7 glutton", 8: "8 bloodthirsty devil", 9: "9 rampage", 10: "10 king kong"}

BIG_MULT = (1, 2, 10, 100, 1000, 10_000, 10**8, 10**12)


@dataclass(frozen=True)
class Params:
    version: int = param(3, doc="rules version: 1 = 初代 (one character, last alive), "
                                "2 = 二代 (generals and score), 3 = 三代 (lives, shields, duels, diamonds)",
                         bounds=(1, 3), sweep=(1, 2, 3))
    n_decks: int = param(2, doc="poker decks mixed (General 1: 两副及两副以上); play deck = 36 x this",
                         bounds=(1, 6), sweep=(1, 2, 3, 4))
    hp_per_pip: int = param(1, doc="HP per star of the identity card: max HP = rank x this (General 2)",
                            bounds=(1, 100), sweep=(1, 2, 3, 5))
    start_hand: int = param(5, doc="cards dealt to each player at the start (General 4: 开局只能摸五张牌)",
                            bounds=(1, 20), sweep=(3, 4, 5, 6, 7))
    refill: int = param(5, doc="cards drawn at once when a hand becomes empty (General 5(2))",
                        bounds=(0, 20), sweep=(3, 4, 5, 6, 7))
    five_draw: int = param(5, doc="cards drawn for each 5 played, after the play (General 5(2): 每出一张5即可多摸5张牌)",
                           bounds=(0, 20), sweep=(0, 2, 3, 5, 7))
    ace_damage: int = param(6, doc="damage of ♠A, ♣A and ♦A each (General 4(2),(4): 5+1 = 6)",
                            bounds=(0, 100), sweep=(1, 3, 6, 10))
    heart_ace_damage: int = param(5, doc="damage of ♥A (General 4(6): 5点伤害)",
                                  bounds=(0, 100), sweep=(0, 3, 5, 8))
    heart_ace_heal: int = param(1, doc="heal of ♥A (General 4(6): 1点回复)",
                                bounds=(0, 100), sweep=(0, 1, 3))
    specials_keep_suit_value: bool = param(True, doc="4s and 5s also count their suit value (contract: 4 and 5 keep their suit value)",
                                           sweep=(True, False))
    six_j_adjacent: bool = param(False, doc="6 and J count as consecutive in a run (contract: a play; default not)",
                                 sweep=(False, True))
    max_exchange: int = param(50, doc="cap on responses in one exchange (OD chain); the pending damage then hits the defender",
                              bounds=(1, 10_000), sweep=(10, 50, 200))
    max_turns: int = param(1000, doc="turn cap (rules README: every game ends); v1: draw, v2: score decides",
                           bounds=(1, 100_000), sweep=(100, 300, 1000))
    # --- v1 初代 -----------------------------------------------------------
    killer_multiplier: int = param(1, doc="v1 7 Killer 杀手: damage x this (seed: skill 未定 undetermined)",
                                   bounds=(0, 10**12), sweep=BIG_MULT)
    king_multiplier: int = param(2, doc="v1 10 King 王者: damage x this (×2)",
                                 bounds=(0, 10**12), sweep=BIG_MULT)
    rogue_revives: int = param(4, doc="v1 8 Rogue 恶贼: revives in all (一共有四次复活机会)",
                               bounds=(0, 20), sweep=(0, 1, 2, 4, 6))
    rogue_free_revives: int = param(1, doc="v1 8 Rogue: the first this many revives need no 5 (首次复活不需要消耗技能卡)",
                                    bounds=(0, 20), sweep=(0, 1, 2))
    # --- v2 二代 -----------------------------------------------------------
    generals_per_player: int = param(3, doc="v2: identity cards (generals) per player, fought in order (数量由玩家之间商定)",
                                     bounds=(1, 8), sweep=(1, 2, 3, 4))
    teams: bool = param(False, doc="v2 with 4 players: seats 0+2 vs 1+3 (两两组队)", sweep=(False, True))
    v2_seven_multiplier: int = param(100, doc="v2 7: damage x this (×100)",
                                     bounds=(0, 10**12), sweep=BIG_MULT)
    decoys: int = param(4, doc="v2 8 with 2 players, bilocation 分身术: decoys (四个假身); damage x (1 + decoys left)",
                        bounds=(0, 20), sweep=(0, 2, 4, 6))
    eight_uses: int = param(4, doc="v2 8 with 3-4 players: shield/control uses (四次护盾或控制技能)",
                            bounds=(0, 20), sweep=(0, 1, 2, 4, 6))
    eight_free_uses: int = param(1, doc="v2 8: the first this many uses need no 5 in the response (首次触发不需要消耗技能卡)",
                                 bounds=(0, 20), sweep=(0, 1, 2, 4))
    shield_rounds: int = param(5, doc="v2 8 shield 护盾: rounds of immunity to damage (5个回合)",
                               bounds=(0, 50), sweep=(1, 3, 5, 8))
    control_rounds: int = param(5, doc="v2 8 control 控制: rounds of forced infighting (为时五个回合的内斗)",
                                bounds=(0, 50), sweep=(1, 3, 5, 8))
    judgment_damage: int = param(5, doc="v2 9 Judgment of the gods 天神的审判: HP and max HP lost (扣除5点血量)",
                                 bounds=(0, 100), sweep=(1, 3, 5, 8, 10))
    combined_seven_plays: int = param(1, doc="v2 10 combined skill 合体技能: plays with the 7's multiplier (只能使用一次)",
                                      bounds=(0, 20), sweep=(0, 1, 2, 3))
    combined_eight_uses: int = param(1, doc="v2 10 combined skill, 3-4 players: free shield/control uses (只能使用一次)",
                                     bounds=(0, 20), sweep=(0, 1, 2))
    # --- v3 三代 -----------------------------------------------------------
    storm_gods: int = param(1, doc="v3 lives: 风暴神 God of Storm revives (first death: damage void, full HP, order restarts)",
                            bounds=(0, 5), sweep=(0, 1, 2))
    pouches: int = param(1, doc="v3 lives: 救命锦囊 life-saving pouches (damage void, skill uses restored, play resumes here)",
                         bounds=(0, 5), sweep=(0, 1, 2))
    duel_base: int = param(20, doc="v3 大冒险 duel: winner gains this + the loser's HP before the final blow (20+剩余的血量值)",
                           bounds=(0, 10_000), sweep=(0, 10, 20, 50))
    duel_penalty: int = param(10, doc="v3 duel: diamonds the loser pays (扣除10颗钻石; may go negative)",
                              bounds=(0, 10_000), sweep=(0, 10, 20))
    max_duel_plays: int = param(200, doc="v3 duel: cap on cards played; then the higher HP wins, then the larger character",
                                bounds=(1, 100_000), sweep=(50, 200, 1000))
    start_diamonds: int = param(0, doc="v3 diamonds each player starts with", bounds=(0, 10_000),
                                sweep=(0, 20, 50, 100))
    gift_pack: int = param(20, doc="v3 钻石大礼包: diamonds for a draw that takes exactly the last card of the deck",
                           bounds=(0, 10_000), sweep=(0, 20, 50))
    shop: bool = param(True, doc="v3 shop on: at the start of its turn a player may buy one item", sweep=(True, False))
    leopard_price: int = param(20, doc="v3 shop 闪电豹 leopard (dodges one lethal damage): price",
                               bounds=(0, 10_000), sweep=(5, 20, 50))
    dragon_price: int = param(30, doc="v3 shop 爆爆龙 dragon (damage x dragon_multiplier for dragon_rounds): price",
                              bounds=(0, 10_000), sweep=(10, 30, 100))
    birds_price: int = param(70, doc="v3 shop a pair of 钻石鸟 diamond birds (50 + 20): price",
                             bounds=(0, 10_000), sweep=(20, 70, 150))
    kit_price: int = param(5, doc="v3 shop 小药箱 medical kit (no zombie after losing a duel to a 10): price",
                           bounds=(0, 10_000), sweep=(0, 5, 20))
    dragon_multiplier: int = param(1000, doc="v3 dragon: damage x this (既定的计算数值×1000)",
                                   bounds=(0, 10**12), sweep=BIG_MULT)
    dragon_rounds: int = param(5, doc="v3 dragon: rounds it lasts (5个回合)", bounds=(0, 50), sweep=(1, 3, 5, 8))
    birds_yield: int = param(20, doc="v3 birds: diamonds per round (一个回合可产出20颗钻石)", bounds=(0, 10_000),
                             sweep=(0, 10, 20, 40))
    birds_rounds: int = param(5, doc="v3 birds: rounds they lay (产期为5个回合)", bounds=(0, 50), sweep=(1, 3, 5, 8))
    glutton_ignore: int = param(20, doc="v3 7 贪吃鬼 Glutton: an incoming damage instance <= this counts 0 (≤20点)",
                                bounds=(0, 10**12), sweep=(0, 5, 10, 20, 50))
    glutton_extensions: int = param(1, doc="v3 7: HP extensions by an unused identity card (a decision: seed sets no limit)",
                                    bounds=(0, 16), sweep=(0, 1, 2, 4))
    glutton_mines: int = param(1, doc="v3 7: mines it may bury (地雷; a decision: once a game)", bounds=(0, 20),
                               sweep=(0, 1, 2, 4))
    mine_diamonds: int = param(10, doc="v3 mine on ♥: diamonds = value x this (牌面数值×10)", bounds=(0, 10_000),
                               sweep=(0, 10, 20))
    reflect_multiplier: int = param(10_000, doc="v3 7 反射盾 reflect shield: incoming x this hits every other player",
                                    bounds=(0, 10**12), sweep=(1, 10, 100, 1000, 10_000))
    bloodthirst_uses: int = param(3, doc="v3 8 嗜血魔王 bloodthirst uses (三次), each needs a 5 in the play",
                                  bounds=(0, 20), sweep=(0, 1, 3, 5))
    bloodthirst_rounds: int = param(5, doc="v3 8 bloodthirst: ticks (每个回合须扣除一格血量, 5个回合)",
                                    bounds=(0, 50), sweep=(1, 3, 5, 8))
    bloodthirst_damage: int = param(1, doc="v3 8 bloodthirst: HP and max HP lost per tick (一格血量)",
                                    bounds=(0, 100), sweep=(1, 2, 3))
    rampage_multiplier: int = param(100_000_000, doc="v3 9 暴走盾 rampage shield: damage cards in hand when the 4 "
                                                     "is played deal x this (乘以1亿)",
                                    bounds=(0, 10**12), sweep=(1, 100, 10_000, 100_000_000))
    kingkong_multiplier: int = param(10, doc="v3 10 僵王金刚 King Kong: damage x this (×10)",
                                     bounds=(0, 10**12), sweep=(1, 2, 10, 100))
    kingkong_divisor: int = param(2, doc="v3 10 僵王气浪: incoming damage // this (halved, rounded down)",
                                  bounds=(1, 1000), sweep=(1, 2, 3, 4))


@dataclass(frozen=True)
class PolicyParams:
    four_value: float = param(4.0, doc="greedy: damage-equivalent value of keeping a 4; it spends a 4 "
                                       "only when that saves more HP than this (or its life)",
                              bounds=(0.0, 1e6), sweep=(0.0, 2.0, 4.0, 8.0, 16.0))
    five_value: float = param(2.0, doc="greedy: bonus for playing a 5 (it draws five_draw cards); "
                                       "negative values hoard 5s (e.g. for the rogue's revives)",
                              bounds=(-100.0, 100.0), sweep=(-5.0, 0.0, 2.0, 5.0))
    card_value: float = param(0.25, doc="greedy: cost of each card spent (prefers the cheaper of two equal plays)",
                              bounds=(0.0, 100.0), sweep=(0.0, 0.25, 1.0))
    heal_value: float = param(1.0, doc="greedy: value of one HP healed (one damage = 1)",
                              bounds=(0.0, 100.0), sweep=(0.0, 0.5, 1.0, 2.0))
    kill_bonus: float = param(10.0, doc="greedy: value of damage that reaches the target's HP (plus the rank in v2)",
                              bounds=(0.0, 1e6), sweep=(0.0, 5.0, 10.0, 30.0))
    overkill_value: float = param(0.5, doc="greedy: value of each doubling of damage beyond the target's HP "
                                           "(a bigger hit is harder to cancel)",
                                  bounds=(0.0, 1e6), sweep=(0.0, 0.5, 2.0))
    skill_cost: float = param(3.0, doc="greedy, v2 8: cost of spending one shield/control use",
                              bounds=(0.0, 1e6), sweep=(0.0, 3.0, 10.0))
    duel_first: float = param(0.0, doc="v3: probability that a dying player skips its revives and duels at once "
                                       "(seed 1(6): 由玩家自行决定)",
                              bounds=(0.0, 1.0), sweep=(0.0, 0.5, 1.0))
    judgment_min_ev: float = param(0.0, doc="greedy, v2 9/10: trigger Judgment when its expected value "
                                            "(enemy HP and kills minus own side's, over the 4 suits) exceeds this",
                                   bounds=(-1e6, 1e6), sweep=(-5.0, 0.0, 2.0, 5.0))
    hand_damage_value: float = param(4.0, doc="greedy: value of each point of damage kept in hand (the "
                                              "cards' own values, no multipliers): a play costs this x its "
                                              "damage. 0 = the contract's myopic greedy; in v3 the duel plays "
                                              "the hand that is left (README: Policies, the defaults)",
                                     bounds=(0.0, 1e6), sweep=(0.0, 1.0, 4.0, 16.0))
    final_blow_value: float = param(-30.0, doc="greedy, v3: added to the value of a blow (attack, bounce "
                                             "or reflect) that kills an enemy on its last life (no "
                                             "storm god, pouch or leopard) while 3 or more seats are "
                                             "in play: the killer must then duel it (contract v3, "
                                             "Duel); -1000: never, unless the blow saves its own life "
                                             "(then all-greedy games stall: README, Policies)",
                                    bounds=(-1e6, 1e6), sweep=(-1000.0, -30.0, -10.0, 0.0))
    # --- search (core.search: names and budget convention) ------------------
    search_top_k: int = param(6, doc="search: candidate turn plays, the best this many by greedy's "
                                     "score (0: every distinct legal option random chooses among)",
                              bounds=(0, 8192), sweep=(0, 3, 6, 10))
    search_determinizations: int = param(8, doc="search: determinizations per candidate (other "
                                                "hands, deck order, hidden generals resampled); "
                                                "search_fast x1/4, search_strong x4 (at least 1)",
                                         bounds=(1, 4096), sweep=(1, 2, 4, 8, 16, 32))
    search_rollouts: int = param(1, doc="search: rollouts to the end per determinization and candidate",
                                 bounds=(1, 256), sweep=(1, 2, 4))
    search_rollout_policy: int = param(0, doc="search: policy of every seat in a rollout (0 greedy, "
                                              "1 random)", bounds=(0, 1), sweep=(0, 1))
    search_rollout_turns: int = param(6, doc="search: a rollout stops this many turns after the "
                                             "decision (or at max_turns, scored as the rules "
                                             "score the capped game); a stopped rollout splits "
                                             "the point among the seats still in the game (v2: "
                                             "the side ahead on points). 6 plays as well as "
                                             "200 at a fifth of the time (README, Search)",
                                      bounds=(1, 100_000), sweep=(3, 6, 12, 50, 200))
    search_iterations: int = search.iterations_param()


IDX = kernel_index(Params)
PIDX = kernel_index(PolicyParams)      # float fields: slots of a row of pp; int fields: of the policy ints
N_PFLOAT = sum(isinstance(f.default, float) for f in fields(PolicyParams))

# search levels (core.search.LEVELS) are ids 3, 4, 5, in LEVELS' order; id 2 is script
POLICIES = {"random": 0, "greedy": 1, **{name: 3 + i for i, name in enumerate(search.LEVELS)},
            "ismcts": 3 + len(search.LEVELS)}
POLICY_SCRIPT = 2        # tests only: plays the rows of a script array
POLICY_DOCS = {
    "random": "uniform over the distinct legal options: a run (suit + set of values; copies of a "
              "card are the same option) x a target when it deals damage, x each skill choice "
              "(Judgment or not, frame target, shield, control target) the run allows",
    "greedy": "best option by immediate value: damage up to the target's HP (+ kill bonus), heal, "
              "+ bonus for a 5, - value of a spent 4, - card cost; responds with the option that "
              "loses least HP and bounces most; frames, shields, controls and judges when that scores best; "
              "options of equal value are drawn uniformly at random (never by seat or order)",
    **search.DOCS,
    "ismcts": "information-set MCTS (core.engine.search): search_iterations descents of one tree "
              "of information sets, each in a new sample of the hidden cards, UCB selection, "
              "search_rollout_policy rollouts; searches turn plays and responses",
}


def card_kinds(values: dict | None = None) -> list[str]:
    return [f"{s}-{r}" for s in SUITS for r in RANKS]


def card_name(kind: int) -> str:
    return SUIT_SYM[kind // 9] + RANKS[kind % 9]


def identity_name(ident: int) -> str:
    return f"{SUIT_SYM[ident % 4]}{ident // 4 + 7}"


def roles(values: dict) -> dict[int, str]:
    v = values.get("version", 1)
    return dict(V2_ROLES if v == 2 else V3_ROLES if v == 3 else V1_ROLES)


def card_value(suit: int, r: int, values: dict) -> tuple[int, int]:
    """(damage, heal) of one card (General 4 and the contract's value table)."""
    if r in (R_4, R_5) and not values["specials_keep_suit_value"]:
        return 0, 0
    if suit == HEART:
        if r == R_A:
            return values["heart_ace_damage"], values["heart_ace_heal"]
        return 0, VALUES[r]
    if r == R_A:
        return values["ace_damage"], 0
    if suit == DIAMOND:
        return VALUES[r], 0
    return 1, 0


# play table columns
T_SUIT, T_LO, T_HI, T_LEN, T_DMG, T_HEAL, T_HAS4, T_HAS5, T_HASA, T_HASK = range(10)
NT = 10


RUN0 = 9                     # PID rows RUN0 + mask: the runs of a suit's 9-bit hand mask


def play_table(values: dict) -> tuple[np.ndarray, np.ndarray]:
    """All runs: ``PT[k]`` = suit, lo, hi, length, damage, heal, has a 4,
    has a 5, has an A, has a K. ``PID[suit, lo, hi]`` = k or -1 (lo, hi <
    9); ``PID[suit, RUN0 + mask]`` = the number of runs a hand holding the
    ranks in the 9-bit ``mask`` of that suit can play, then their ids, by
    lowest then highest rank (kernels list options in this order)."""
    adj = bool(values["six_j_adjacent"])
    rows = []
    ids = np.full((4, 9, 9), -1, np.int64)
    for s in range(4):
        for lo in range(9):
            for hi in range(lo, 9):
                if not adj and lo <= R_6 < hi:
                    break            # 6 and J are not consecutive
                dmg = heal = 0
                for r in range(lo, hi + 1):
                    d, h = card_value(s, r, values)
                    dmg += d
                    heal += h
                ids[s, lo, hi] = len(rows)
                rows.append((s, lo, hi, hi - lo + 1, dmg, heal, int(lo <= R_4 <= hi),
                             int(lo <= R_5 <= hi), int(lo == R_A), int(hi == R_K)))
    lists = [[[] for _ in range(512)] for _ in range(4)]
    for s in range(4):
        for mask in range(512):
            for lo in range(9):
                for hi in range(lo, 9):
                    if ids[s, lo, hi] < 0 or (mask >> hi) & 1 == 0:
                        break
                    lists[s][mask].append(ids[s, lo, hi])
    width = 1 + max(len(x) for per in lists for x in per)
    PID = np.full((4, RUN0 + 512, max(width, 9)), -1, np.int64)
    PID[:, :9, :9] = ids
    for s in range(4):
        for mask in range(512):
            PID[s, RUN0 + mask, 0] = len(lists[s][mask])
            PID[s, RUN0 + mask, 1:1 + len(lists[s][mask])] = lists[s][mask]
    return np.array(rows, np.int64), PID


def run_values(pp: np.ndarray, PT: np.ndarray) -> np.ndarray:
    """greedy's value of each run itself, the first term of every option's
    score: + ``five_value`` for a 5, - ``four_value`` for a spent 4, -
    ``card_value`` per card, - ``hand_damage_value`` per point of the
    cards' damage. The kernels read seat p's at ``pp[p, Q_RUN + k]``
    (``layout.Q_RUN``: after the float policy parameters); it is the
    same float operations, in the same order, that they once did per
    option, so scores are unchanged (and ``hand_damage_value`` = 0 changes
    no score: x - 0.0 = x)."""
    def term(name, col):
        return pp[PIDX[name]] * PT[:, col].astype(np.float64)
    return (term("five_value", T_HAS5) - term("four_value", T_HAS4) - term("card_value", T_LEN)
            - term("hand_damage_value", T_DMG))


def play_name(PT: np.ndarray, k: int) -> str:
    s, lo, hi = (int(x) for x in PT[k, :3])
    return SUIT_SYM[s] + "".join(RANKS[r] for r in range(lo, hi + 1))


def check_values(values: dict, n_players: int) -> None:
    from ...core.errors import BalanceError
    ids = 16 * values["n_decks"]
    if values["teams"] and n_players != 4:
        raise BalanceError(f"parameter 'teams': teams need exactly 4 players (got {n_players})")
    need = n_players * (values["generals_per_player"] if values["version"] == 2 else 1)
    if need > ids:
        raise BalanceError(f"parameter 'generals_per_player': {n_players} players need {need} "
                           f"identity cards but {values['n_decks']} deck(s) hold {ids}")
    if values["start_hand"] * n_players > 36 * values["n_decks"]:
        raise BalanceError(f"parameter 'start_hand': {n_players} x {values['start_hand']} cards "
                           f"exceed the {36 * values['n_decks']}-card play deck")
