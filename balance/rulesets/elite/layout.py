"""Magic Elite's layouts as plain constants: the record columns (declared
once, by name), parameter slots, state slots, option, decision, event and
entry codes. No numba here: ``replay``, ``scenario``, the package
``__init__`` and tests import this module without loading compiled code;
the kernel modules (``engine/``) take every index from it.

One game's state (allocated once per block of games, reset per game):

- ``S`` int64[P, NS]: per seat scalars (slots ``C_*``): the active
  character/general (rank, suit, HP, max HP, turn-order key), skill state,
  statistics, then the hand as counts per card kind (``C_H + kind``), one
  9-bit presence mask per suit (``C_M + suit``, for run enumeration), the
  seat's identity cards (``C_G + i``, generals in v2), v3's per-seat state,
  rampage marks and duel pile.
- ``pile`` int64[2, NCAP]: row 0 the play deck (top = last), row 1 the
  discard pile.
- ``Z`` int64[NZ]: game globals (slots ``Z_*``): deck and discard sizes,
  turn, trace length, trace flag, game counters, the pending rogue attack,
  v3's turn-order override, joint attack, mine, deaths by cause.
- ``acts`` int64[MAXA, 4]: the option buffer (play, target, option, option
  target) every decision enumerates into.
"""
from ...core.layout import Z_TR, Z_TURN, index, slots
from .rules import END_REASONS, IDX, N_KINDS, N_PFLOAT, PIDX, POLICIES, POLICY_SCRIPT

# --- records: game and seat columns (the SPEC's tables; the kernel fills them) ---
GAME_COLUMNS = ("winner", "turns", "rounds", "end_reason", "first_seat", "last_standing",
                "team_winner", "exchanges", "max_chain", "capped_exchanges", "judgments",
                "judgment_kills", "judgment_self_kills", "revives", "frames", "decoy_hits",
                "shields", "controls", "kill_points", "scoring_kills",
                # v3 (zero in v1/v2)
                "deaths_exchange", "deaths_reflect", "deaths_bloodthirst", "deaths_mine",
                "deaths_duel", "storm_gods", "pouches", "duels", "capped_duels", "gift_packs",
                "buy_leopard", "buy_dragon", "buy_birds", "buy_kit", "zombies", "reflects",
                "reflect_blocks", "mines_hit", "leopard_dodges", "kit_saves",
                # all versions
                "responses", "options")
SEAT_COLUMNS = ("role", "suit", "team", "won", "hp", "max_hp", "score", "kills",
                "generals_lost", "out_turn", "revives", "frames", "skill_uses", "judgments",
                "damage_dealt", "damage_taken", "healed", "hand",
                # v3 (zero in v1/v2)
                "reflects", "rampages", "devours", "freezes", "bloodthirsts", "ignores",
                "extensions", "mines", "steals", "storm_used", "pouch_used", "duels_won",
                "duels_lost", "diamonds", "purchases", "zombie", "deaths")

GI = index(GAME_COLUMNS)
G_WINNER = GI["winner"]
G_TURNS = GI["turns"]
G_ROUNDS = GI["rounds"]
G_END = GI["end_reason"]
G_FIRST = GI["first_seat"]
G_LAST = GI["last_standing"]
G_TEAMWIN = GI["team_winner"]
G_EXCH = GI["exchanges"]
G_MAXCH = GI["max_chain"]
G_CAPS = GI["capped_exchanges"]
G_JUDG = GI["judgments"]
G_JKILL = GI["judgment_kills"]
G_JSELF = GI["judgment_self_kills"]
G_REVIVES = GI["revives"]
G_FRAMES = GI["frames"]
G_DECOYHITS = GI["decoy_hits"]
G_SHIELDS = GI["shields"]
G_CONTROLS = GI["controls"]
G_KPTS = GI["kill_points"]
G_KILLS = GI["scoring_kills"]
G_D_EXCH = GI["deaths_exchange"]       # + cause (CA_*): deaths by cause, in CA_ order
G_D_REFLECT = GI["deaths_reflect"]
G_D_BLOOD = GI["deaths_bloodthirst"]
G_D_MINE = GI["deaths_mine"]
G_D_DUEL = GI["deaths_duel"]
G_STORMS = GI["storm_gods"]
G_POUCHES = GI["pouches"]
G_DUELS = GI["duels"]
G_DCAPS = GI["capped_duels"]
G_GIFTS = GI["gift_packs"]
G_BLEO = GI["buy_leopard"]
G_BDRG = GI["buy_dragon"]
G_BBIRD = GI["buy_birds"]
G_BKIT = GI["buy_kit"]
G_ZOMB = GI["zombies"]
G_REFL = GI["reflects"]
G_RBLOCK = GI["reflect_blocks"]
G_MHIT = GI["mines_hit"]
G_DODGE = GI["leopard_dodges"]
G_KITSAVE = GI["kit_saves"]
G_RESP = GI["responses"]
G_OPTS = GI["options"]
NG = len(GAME_COLUMNS)
NG_V12 = G_D_EXCH                      # columns before it are v1/v2's (the v3 ones follow)

SI = index(SEAT_COLUMNS)
S_ROLE = SI["role"]
S_SUIT = SI["suit"]
S_TEAM = SI["team"]
S_TEAMWON = SI["won"]
S_HP = SI["hp"]
S_MAXHP = SI["max_hp"]
S_SCORE = SI["score"]
S_KILLS = SI["kills"]
S_LOST = SI["generals_lost"]
S_OUT = SI["out_turn"]
S_REVIVES = SI["revives"]
S_FRAMES = SI["frames"]
S_SKILLS = SI["skill_uses"]
S_JUDGS = SI["judgments"]
S_DEALT = SI["damage_dealt"]
S_TAKEN = SI["damage_taken"]
S_HEALED = SI["healed"]
S_HAND = SI["hand"]
S_REFL = SI["reflects"]
S_RAMP = SI["rampages"]
S_DEV = SI["devours"]
S_FRZ = SI["freezes"]
S_BLOOD = SI["bloodthirsts"]
S_IGN = SI["ignores"]
S_EXT = SI["extensions"]
S_MINE = SI["mines"]
S_STEAL = SI["steals"]
S_STORMU = SI["storm_used"]
S_POUCHU = SI["pouch_used"]
S_DUELW = SI["duels_won"]
S_DUELL = SI["duels_lost"]
S_DIAM = SI["diamonds"]
S_BUYS = SI["purchases"]
S_ZOMBIE = SI["zombie"]
S_DEATHS = SI["deaths"]
NSEAT = len(SEAT_COLUMNS)
NSEAT_V12 = S_REFL                     # columns before it are v1/v2's

# --- parameter slots (frozen into the compiled kernel: its cache folder is
# named by the fingerprint of every file of the ruleset, core.jit.cache_dir) ---
P_VERSION = IDX["version"]
P_DECKS = IDX["n_decks"]
P_PIP = IDX["hp_per_pip"]
P_START = IDX["start_hand"]
P_REFILL = IDX["refill"]
P_FIVE = IDX["five_draw"]
P_MAXEX = IDX["max_exchange"]
P_MAXT = IDX["max_turns"]
P_KILLER = IDX["killer_multiplier"]
P_KING = IDX["king_multiplier"]
P_REV = IDX["rogue_revives"]
P_REVFREE = IDX["rogue_free_revives"]
P_GENS = IDX["generals_per_player"]
P_TEAMS = IDX["teams"]
P_SEVEN = IDX["v2_seven_multiplier"]
P_DECOYS = IDX["decoys"]
P_USES = IDX["eight_uses"]
P_FREE = IDX["eight_free_uses"]
P_SHIELD = IDX["shield_rounds"]
P_CONTROL = IDX["control_rounds"]
P_JDMG = IDX["judgment_damage"]
P_C7 = IDX["combined_seven_plays"]
P_C8 = IDX["combined_eight_uses"]
# v3
P_STORMS = IDX["storm_gods"]
P_POUCHES = IDX["pouches"]
P_DBASE = IDX["duel_base"]
P_DPEN = IDX["duel_penalty"]
P_MAXDP = IDX["max_duel_plays"]
P_DIAM0 = IDX["start_diamonds"]
P_GIFT = IDX["gift_pack"]
P_SHOP = IDX["shop"]
P_PLEO = IDX["leopard_price"]
P_PDRG = IDX["dragon_price"]
P_PBIRD = IDX["birds_price"]
P_PKIT = IDX["kit_price"]
P_DRAGON = IDX["dragon_multiplier"]
P_DRGR = IDX["dragon_rounds"]
P_BYIELD = IDX["birds_yield"]
P_BIRDR = IDX["birds_rounds"]
P_GIGN = IDX["glutton_ignore"]
P_GEXT = IDX["glutton_extensions"]
P_GMINES = IDX["glutton_mines"]
P_MDIAM = IDX["mine_diamonds"]
P_REFLM = IDX["reflect_multiplier"]
P_BTU = IDX["bloodthirst_uses"]
P_BTR = IDX["bloodthirst_rounds"]
P_BTD = IDX["bloodthirst_damage"]
P_RAMPM = IDX["rampage_multiplier"]
P_KK = IDX["kingkong_multiplier"]
P_KKDIV = IDX["kingkong_divisor"]
P_BAN = len(IDX)          # ip[P_BAN + kind]: records.BAN_* code per card kind (vectors())
P_POL = P_BAN + N_KINDS   # ip[P_POL + PIDX[name]]: the int policy parameters (kernel_args)
P_STOPK = P_POL + PIDX["search_top_k"]
P_SDET = P_POL + PIDX["search_determinizations"]
P_SROLL = P_POL + PIDX["search_rollouts"]
P_SRPOL = P_POL + PIDX["search_rollout_policy"]
P_SRTURNS = P_POL + PIDX["search_rollout_turns"]
Q_HEAL = PIDX["heal_value"]
Q_KILL = PIDX["kill_bonus"]
Q_SKILL = PIDX["skill_cost"]
Q_JEV = PIDX["judgment_min_ev"]
Q_OVER = PIDX["overkill_value"]
Q_DUEL1 = PIDX["duel_first"]
Q_FINAL = PIDX["final_blow_value"]
Q_RUN = N_PFLOAT          # pp[p, Q_RUN + k]: seat p's greedy's value of run k itself (rules.run_values)

# --- seat state S[p, C_*] --------------------------------------------------------
C_HP = 0                  # HP of the character/general in play
C_MAXHP = 1               # its max HP
C_ALIVE = 2               # 1 while the seat has a character/general in play
C_RANK = 3                # its rank, 7-10
C_SUIT = 4                # its suit, 0-3 (♠♥♣♦)
C_KEY = 5                 # its turn-order key (ident_key)
C_HN = 6                  # cards in hand
C_GEN = 7                 # which identity card is in play (v2: general number)
C_TEAM = 8                # side: the seat, or its team (v2 teams)
C_POL = 9                 # policy id
C_SCORE = 10              # v2: points scored
C_KILLS = 11              # v2: scoring kills
C_LOST = 12               # characters/generals lost
C_REV = 13                # v1 rogue (8): revives left
C_REVFREE = 14            # v1 rogue: free revives left (no 5 needed)
C_BILOC = 15              # v2 8 at 2 players, or 10's combined skill: bilocation active
C_BRESET = 16             # 1: the decoys come back when used up (the 8's own skill)
C_DECOYS = 17             # decoys left
C_USES = 18               # v2 8: shield/control uses left
C_FREE = 19               # v2 8: free uses left (no 5 needed)
C_IMM = 20                # immunity rounds left (shield, controller)
C_FT = 21                 # control: the seat this one must target (-1 none)
C_FL = 22                 # control: rounds left
C_FB = 23                 # control: the controlling 8 (-1 none)
C_COMB = 24               # v2 10: has the combined skill
C_X = 25                  # v2 10 combined: damaging plays left with the 7's multiplier
C_DEALT = 26              # damage dealt (saturating)
C_TAKEN = 27              # damage taken (saturating)
C_HEALED = 28             # HP healed
C_OUT = 29                # turn the seat went out, -1
C_FRAMES = 30             # v1 9: frames used
C_SKILLS = 31             # v2 8: skill uses
C_JUDGS = 32              # Judgments called
C_REVUSED = 33            # revives used
C_ROLE = 34               # rank of the seat's first character (seat record)
C_ROLESUIT = 35           # its suit
C_TB = 36                 # tie-break among exact identity ties (random seat order)
C_M = 37                  # 4 slots: per suit, 9-bit mask of the ranks in hand
C_H = 41                  # 36 slots: hand counts per card kind
C_G = 77                  # GMAX slots: identity cards (v2 generals, in order)
GMAX = 8
# v3 三代
C_STORM = 85              # storm god lives left
C_POUCH = 86              # pouch lives left
C_SHB = 87                # dedicated shields held: bit rank - 7
C_DIAM = 88               # diamonds
C_BTU = 89                # bloodthirst uses left (the 8's skill)
C_BTT = 90                # bloodthirst on this seat: rounds left
C_BTS = 91                # bloodthirst on this seat: its source seat
C_FRSK = 92               # frost layers on the skill
C_FRSH = 93               # frost layers on the shield(s)
C_FRU = 94                # freeze uses gained by stealing frost
C_EXT = 95                # Glutton: HP extensions left
C_MINES = 96              # Glutton: mines left
C_LEO = 97                # leopards held (each dodges one death)
C_DRG = 98                # dragon: rounds left
C_BIRD = 99               # diamond birds: rounds left
C_KIT = 100               # medical kits held
C_ZMB = 101               # zombie of seat C_ZMB - 1 (0: not a zombie)
C_PEND = 102              # 1: dead, waiting for a duel
C_KLR = 103               # who killed it (its duel opponent)
C_PREHP = 104             # HP before the last damage (leopard, pouch)
C_PREMAX = 105            # max HP before the last damage
C_DQH = 106               # duel pile: head in the ring buffer
C_DQN = 107               # duel pile: cards
C_NREF = 108              # reflect shields fired
C_NRAMP = 109             # rampage shields fired
C_NDEV = 110              # devouring shields fired
C_NFRZ = 111              # freezes
C_NBLOOD = 112            # bloodthirsts
C_NIGN = 113              # Glutton ignores
C_NEXT = 114              # Glutton HP extensions
C_NMINE = 115             # mines buried
C_NSTEAL = 116            # skills stolen by the devouring shield
C_STORMU = 117            # storm gods used
C_POUCHU = 118            # pouches used
C_DUELW = 119             # duels won
C_DUELL = 120             # duels lost
C_BUYS = 121              # purchases
C_DEATHS = 122            # deaths (v3 causes and lost duels)
C_RMANY = 123             # 1 once p's cards were marked (so C_RM may be > 0), until out
# slot 124: unused
C_RM = 125                # 36 slots: rampage-marked cards per kind
NCAP = 36 * 6             # cards in 6 decks: pile rows, duel pile
C_DQ = C_RM + 36          # NCAP slots: duel pile, a ring buffer of card kinds
NS = C_DQ + NCAP
MAXA = 8192               # rows of the option buffer

# --- game globals Z[Z_*] ---------------------------------------------------------
# Z_TURN (2) and Z_TR (3) come from core.layout: the shared trace writer reads them
Z_DECK = 0                # cards in the play deck
Z_DISC = 1                # cards in the discard pile
Z_ON = 4                  # 1: write trace events
Z_SP = 5                  # next script row (script policy)
Z_P = 6                   # players
Z_NC = 7                  # cards in play (conservation check)
Z_EXCH = 8                # exchanges
Z_MAXCH = 9               # longest exchange (responses)
Z_JUDG = 10               # Judgments
Z_JKILL = 11              # Judgment kills
Z_JSELF = 12              # Judgment self-kills
Z_CAPS = 13               # exchanges capped at max_exchange
Z_PA = 14                 # v1 revived rogue's pending attack: attacker (-1 none)
Z_PT = 15                 # ... its target
Z_PD = 16                 # ... its damage
Z_SERR = 17               # script rows that matched no option
Z_FRAMES = 18             # frames
Z_DECOYHITS = 19          # decoy hits
Z_TEAMS = 20              # 1: v2 teams
Z_V = 21                  # rules version
Z_ROUNDS = 22             # rounds
Z_CERR = 23               # negative damage (always checked)
Z_KPTS = 24               # v2 kill points scored
Z_KILLS = 25              # v2 scoring kills
Z_REVIVES = 26            # revives
Z_SHIELDS = 27            # v2 8 shields
Z_CONTROLS = 28           # v2 8 controls
Z_FORB = 29               # 1: some card kind is forbidden (ban code 2)
Z_FM = 30                 # 4 slots: per suit, 9-bit mask of forbidden ranks
# v3
Z_NEXT = 34               # turn-order override: 0 none, 1 top of the order, 2 + q seat q
Z_JOINT = 35              # joint attack on seat Z_JOINT - 1 (0 none)
Z_MPOS = 36               # buried mine: position + 1 in the deck (0 none)
Z_MOWN = 37               # its owner
Z_LK = 38                 # the last run played (what a devouring shield takes)
Z_INDUEL = 39             # 1 during a duel (mines do not fire)
Z_D0 = 40                 # 5 slots: deaths by cause, Z_D0 + CA_*
Z_STORMS = 45             # storm gods used
Z_POUCHES = 46            # pouches used
Z_DUELS = 47              # duels
Z_DCAPS = 48              # duels capped at max_duel_plays
Z_GIFTS = 49              # gift packs
Z_BLEO = 50               # leopards bought
Z_BDRG = 51               # dragons bought
Z_BBIRD = 52              # birds bought
Z_BKIT = 53               # medical kits bought
Z_ZOMB = 54               # zombies made
Z_REFL = 55               # reflect shields fired
Z_RBLOCK = 56             # reflected damage blocked with a 4
Z_MHIT = 57               # mines hit
Z_DODGE = 58              # leopard dodges
Z_KITSAVE = 59            # medical kits that saved a seat from becoming a zombie
Z_RALLBLOCK = 60          # reflects that every other seat blocked
Z_IDC = 61                # 16 slots: unused identity cards (Glutton HP extension)
Z_RESP = Z_IDC + 16       # responses played in exchanges, all versions
Z_TIES = Z_RESP + 1       # greedy: options tied for the best score, in acts[:Z_TIES]
Z_OPTS = Z_TIES + 1       # options listed at the heuristics' decisions (policies.decide, decide3)
# the step machine (engine.step): the pending decision, and the exchange it is in
_ZS = slots(("Z_CUR", "Z_PHASE", "Z_END", "Z_KEY0", "Z_FIRST", "Z_XA", "Z_XD", "Z_XI", "Z_XS"),
            Z_OPTS + 1)
Z_CUR = _ZS["Z_CUR"]      # the seat whose turn it is
Z_PHASE = _ZS["Z_PHASE"]  # the pending decision: PH_TURN or PH_RESP
Z_END = _ZS["Z_END"]      # the end reason once the game is over, else -1
Z_KEY0 = _ZS["Z_KEY0"]    # the turn-order key of Z_CUR when its turn began
Z_FIRST = _ZS["Z_FIRST"]  # the seat that moved first
Z_XA = _ZS["Z_XA"]        # the exchange: the seat whose damage is pending,
Z_XD = _ZS["Z_XD"]        # ... the defender (-1: no exchange),
Z_XI = _ZS["Z_XI"]        # ... the incoming damage,
Z_XS = _ZS["Z_XS"]        # ... and its responses so far
NZ = Z_XS + 1
PH_TURN = 1               # Z_CUR's turn play
PH_RESP = 2               # Z_XD's response in the exchange

# --- codes -------------------------------------------------------------------------
END_LAST = END_REASONS.index("last_standing")
END_CAP = END_REASONS.index("turn_cap")
END_ALLOUT = END_REASONS.index("all_out")
POL_RANDOM = POLICIES["random"]
POL_GREEDY = POLICIES["greedy"]
POL_SCRIPT = POLICY_SCRIPT
POL_SEARCH0 = POLICIES["search_fast"]    # search levels: ids POL_SEARCH0 + level - 1
# rank indices of card kinds (kind % 9; rules.RANKS)
R_4 = 3
R_5 = 4
R_6 = 5
# options (acts[i, 2])
O_NONE = 0                # the run alone
O_JUDG = 1                # + Judgment (v2 9, 10 combined)
O_FRAME = 2               # + frame (v1 9)
O_SHIELD = 3              # + shield (v2 8)
O_CONTROL = 4             # + control (v2 8)
O_REFLECT = 5             # v3: + reflect shield (a run with a 4)
O_RAMP = 6                # v3: + rampage shield
O_DEVOUR = 7              # v3: + devouring shield
O_FRZSK = 8               # v3: + frost on a skill
O_FRZSH = 9               # v3: + frost on a shield
O_BLOOD = 10              # v3: + bloodthirst (a turn run with a 5)
# v3 causes of death
CA_EXCH = 0
CA_REFLECT = 1
CA_BLOOD = 2
CA_MINE = 3
CA_DUEL = 4
# v3 shop items
I_NONE = 0
I_LEO = 1
I_DRAGON = 2
I_BIRDS = 3
I_KIT = 4
# decisions
D_TURN = 0
D_RESP = 1
D_REVIVE = 2

# trace events: row = [type, turn, seat, a, b, c, d, e]
E_DEAL = 1
E_IDENT = 2
E_TURN = 3
E_PLAY = 4
E_HEAL = 5
E_DRAW = 6
E_RESHUFFLE = 7
E_OD = 8
E_DAMAGE = 9
E_IMMUNE = 10
E_DEATH = 11
E_REVIVE = 12
E_OUT = 13
E_DECOY = 14
E_JUDG = 15
E_JHIT = 16
E_SHIELD = 17
E_CONTROL = 18
E_FRAME = 19
E_COMBINED = 20
E_CAP = 21
E_NORESP = 22
E_PASS = 23
E_END = 24
E_EFFECT_END = 25
# v3 events
E_REFLECT = 26
E_BLOCK = 27
E_RAMP = 28
E_DEVOUR = 29
E_FREEZE = 30
E_THAW = 31
E_STEAL = 32
E_BLOOD = 33
E_TICK = 34
E_BLOODEND = 35
E_IGNORE = 36
E_EXTEND = 37
E_BURY = 38
E_MINE = 39
E_GIFT = 40
E_BUY = 41
E_BIRDS = 42
E_LEOPARD = 43
E_STORM = 44
E_POUCH = 45
E_DUEL = 46
E_DPLAY = 47
E_DUELEND = 48
E_ZOMBIE = 49
E_KIT = 50
E_DEATH3 = 51
E_RESTART = 52
E_DUELQ = 53

# --- modes of the replay/scenario entry point (engine.step_game.entry) ------------------
M_GAME = 0                # unused: a whole game, traced or not, is play_blocks's
M_TURN = 1                # one turn of seat a
M_EXCHANGE = 2            # a sends c damage at b
M_JUDGMENT = 3            # seat a calls Judgment
M_NEXT = 5                # next seat after key a
M_GENERAL = 6             # seat a's identity card b enters
M_CHECK = 7               # broken invariants now
M_SAT = 8                 # saturating a x b and a + b
M_INIT = 9                # deal a game without playing it
M_HIT = 11                # v3: c damage from b hits a
M_DUEL = 12               # v3: a duels b
M_DRAW = 13               # v3: seat a draws b cards
M_START = 14              # v3: the start-of-turn effects of seat a

assert (Z_TURN, Z_TR) == (2, 3)
assert [GI[f"deaths_{c}"] - G_D_EXCH for c in ("exchange", "reflect", "bloodthirst", "mine",
                                                "duel")] == [CA_EXCH, CA_REFLECT, CA_BLOOD,
                                                             CA_MINE, CA_DUEL]
