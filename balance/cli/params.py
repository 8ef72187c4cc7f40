import click

from ..core import registry


def _fmt(v):
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, int) and abs(v) >= 10_000:
        return f"{v:,}".replace(",", "_")
    return str(v)


@click.command("params")
@click.argument("ruleset")
def command(ruleset):
    """Every tunable parameter of RULESET: default, bounds, sweep candidates, doc."""
    spec = registry.get(ruleset)
    for group, title in (("rule", "rule parameters"), ("policy", "policy parameters")):
        click.echo(f"# {spec.name} {title}")
        for info in spec.space.infos.values():
            if info.group != group:
                continue
            if info.kind is bool:
                rng = "true/false"
            elif info.choices:
                rng = "{" + ", ".join(_fmt(c) for c in info.choices) + "}"
            else:
                lo, hi = info.bounds
                rng = f"[{_fmt(lo)}, {_fmt(hi)}]"
            sweep = ", ".join(_fmt(s) for s in info.sweep) or "-"
            click.echo(f"{info.name:<26} {info.kind.__name__:<5} default {_fmt(info.default):<8} "
                       f"bounds {rng:<18} sweep {sweep}")
            click.echo(f"{'':<26} {info.doc}")
    click.echo("# policies")
    for name in spec.policies:
        click.echo(f"{name:<26} {spec.policy_docs.get(name, '')}")
    # groups a ruleset package declares beside its SPEC (balance/workflow/sensitivity.py)
    import importlib
    groups = getattr(importlib.import_module(registry.package(spec.name)), "PARAM_GROUPS", None)
    if groups:
        click.echo("# parameter groups (balance sensitivity RULESET --params GROUP)")
        for name, members in groups.items():
            click.echo(f"{name:<26} {', '.join(members)}")
