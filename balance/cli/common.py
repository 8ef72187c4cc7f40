"""Options shared by every command that plays games."""
from __future__ import annotations

import functools
from pathlib import Path

import click
from click.core import ParameterSource

from ..core import config as config_mod
from ..core.errors import BalanceError
from ..core.params import parse_assignments


class Whole(click.ParamType):
    """An integer option written in ASCII digits: click's ``int`` takes any
    Unicode digits (``--games ١٠٠`` would play 100 games), which a config or
    a script should never pass silently."""
    name = "integer"

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = str(value).strip()
        digits = text[1:] if text[:1] in "+-" else text
        if not (digits.isascii() and digits.isdigit()):
            self.fail(f"{value!r} is not a whole number in ASCII digits", param, ctx)
        return int(text)


WHOLE = Whole()


def check_assignment(text: str) -> str:
    """A ``--set KEY=VALUE`` whose value has no non-ASCII digit (``hp=٣٠``)."""
    if any(ch.isdigit() and not ch.isascii() for ch in text):
        raise BalanceError(f"--set {text}: write numbers in ASCII digits (0-9)")
    return text


def run_options(f):
    """--games --seed --players --policy --set --config --threads --scheduler
    --cluster --cards."""
    return _options(f, one_game=False)


def game_options(f):
    """The options of one game (``replay``): those of :func:`run_options`
    but --games, --threads, --scheduler and --cluster, which mean nothing there."""
    return _options(f, one_game=True)


_MANY = {"games", "threads", "scheduler", "cluster"}


def _options(f, one_game: bool):
    opt = click.option
    opts = [
        ("games", opt("--games", "-n", default=10_000, show_default=True, type=WHOLE,
                      help="Number of games to play.")),
        ("seed", opt("--seed", "-s", default=0, show_default=True, type=WHOLE,
                     help="Run seed: game i of seed s is the same game everywhere.")),
        ("players", opt("--players", "-p", default=None, type=WHOLE,
                        help="Number of players.", show_default="the ruleset's minimum")),
        ("policy", opt("--policy", "policies", multiple=True,
                       help="Policy for all seats, or repeat once per seat in turn order; a "
                            "variant changes float policy parameters at its seats only: "
                            "greedy[five_value=-5,heal_value=2] or greedy@profile.toml.",
                       show_default="the ruleset's first policy")),
        ("set", opt("--set", "assignments", multiple=True, metavar="KEY=VALUE",
                    help="Override a rule or policy parameter (repeatable); see "
                         "`balance params`.")),
        ("config", opt("--config", "config_file", default=None, type=click.Path(dir_okay=False),
                       help="TOML file with games/seed/players/policy and a [params] table; "
                            "command-line options win.")),
        ("threads", opt("--threads", default=None, type=WHOLE,
                        help="Worker threads (results do not depend on it).",
                        show_default="all cores")),
        ("scheduler", opt("--scheduler", default=None, metavar="tcp://HOST:PORT",
                          help="Play the games on a running Dask scheduler's workers (tables "
                               "are identical; needs the distributed extra).")),
        ("cluster", opt("--cluster", "cluster", default=None, metavar="local[:N]",
                        help="Start a Dask LocalCluster of N worker processes (one thread "
                             "each) for this command.", show_default="no cluster")),
        ("cards", opt("--cards", "cards_file", default=None, type=click.Path(dir_okay=False),
                      help="A designer's card table (CSV or TOML) for rulesets that have one "
                           "(resonance's magic cards); its hash is recorded in every output.",
                      show_default="the ruleset's own")),
    ]
    for name, o in reversed(opts):
        if not (one_game and name in _MANY):
            f = o(f)
    return f


def gather(ctx: click.Context, *, games, seed, players, policies, assignments, config_file,
           threads) -> dict:
    """Merge a config file and command-line options into simulate() kwargs."""
    cfg = config_mod.load(config_file) if config_file else {}

    def pick(name, value):
        if ctx.get_parameter_source(name) in (ParameterSource.DEFAULT, None) and name in cfg:
            return cfg[name]
        return value

    params = dict(cfg.get("params", {}))
    params.update(parse_assignments([check_assignment(a) for a in assignments]))
    pol = list(policies) if policies else cfg.get("policy")
    if "games" in ctx.params:          # replay plays one game: no --games (a config's is the run's)
        games = pick("games", games)
        if not isinstance(games, int) or isinstance(games, bool) or games <= 0:
            raise BalanceError(f"--games must be a whole number of at least 1, got {games!r}")
        from ..core.setup import check_count
        check_count("--games", games)
    if threads is not None:
        from ..core.machine import set_threads
        set_threads(threads)
    return {"games": games, "seed": cfg.get("seed", seed) if ctx.get_parameter_source("seed")
            == ParameterSource.DEFAULT else seed,
            "players": players if players is not None else cfg.get("players"),
            "policies": pol, "params": params}


def ruleset_argument(f):
    return click.argument("ruleset")(f)


def pass_run(f):
    """Decorator: turn the shared options into one ``run`` dict argument."""
    @functools.wraps(f)
    def wrapper(*args, seed, players, policies, assignments, config_file, games=None,
                threads=None, cards_file=None, scheduler=None, cluster=None, **kw):
        ctx = click.get_current_context()
        if cards_file is not None:
            from ..core.setup import use_data
            ruleset = ctx.params.get("ruleset")
            if not Path(cards_file).is_file():
                raise BalanceError(f"--cards {cards_file}: no such file")
            use_data(ruleset, cards=cards_file)
        run = gather(ctx, games=games, seed=seed, players=players, policies=policies,
                     assignments=assignments, config_file=config_file, threads=threads)
        if scheduler is not None or cluster is not None:
            # connected after the other options are checked, before any game;
            # closed when the command ends
            from ..core import cluster as engine
            ctx.with_resource(engine.use(scheduler, cluster))
        return f(*args, run=run, **kw)
    return wrapper


def out_dir(out, default: str) -> Path:
    """The output folder of a command, checked and locked before any game is
    played: ``--out ""``, a path under a file, a folder that cannot be
    written or one another command is writing into is one line, exit code 2
    (never a traceback after the work)."""
    import os
    if out is not None and str(out).strip() == "":
        raise BalanceError("--out: an empty path; give a folder, e.g. --out runs/x")
    path = Path(out if out is not None else default)
    probe = path
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise BalanceError(f"--out {path}: {probe} is a file, not a folder")
    if probe.exists() and not os.access(probe, os.W_OK | os.X_OK):
        raise BalanceError(f"--out {path}: {probe} is not writable")
    # one writer per folder, held until the command ends (core.outdir.lock)
    from ..core.outdir import lock
    click.get_current_context().with_resource(lock(path))
    return path
