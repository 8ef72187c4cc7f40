"""Plain-text summaries for the terminal."""
from __future__ import annotations

import click


def rate_lines(title, df, labels: dict | None = None):
    """A rate table as aligned text: the key column as wide as its longest
    key (a role slug such as ``bloodthirsty_devil`` keeps the rows in line).
    ``labels`` ({key: display label}) adds the label after the key where it
    differs ("glutton  (7 glutton)")."""
    from ..workflow.outcome import text_table
    sole = "sole_win_rate" in df
    labels = {str(k): str(v) for k, v in (labels or {}).items()}
    shown = any(labels.get(str(k), str(k)) != str(k) for k in df.index)
    rows = []
    for key, row in df.iterrows():
        lab = labels.get(str(key), str(key))
        rows.append([str(key)] + ([f"({lab})" if lab != str(key) else ""] if shown else [])
                    + [f"{row['win_rate']:.2%}",
                     f"[{row['ci_low']:.2%}, {row['ci_high']:.2%}]"]
                    + ([f"sole win {row['sole_win_rate']:.2%}",
                        f"[{row['sole_ci_low']:.2%}, {row['sole_ci_high']:.2%}]"] if sole else [])
                    + [f"n={int(row['games'])}"])
    k = 1 + shown                       # index of the rate column
    return [f"{title}:"] + text_table([""] * len(rows[0]) if rows else [""], rows,
                                      right={k, k + 2} if sole else {k})[1:]


def print_summary(result):
    s = result.summary
    # this run compiled its kernel: the time is mostly the compile's
    compiled = result.compiled
    lines = [f"{result.spec.title} v{s['version']}: {s['games']:,} games, seed {s['seed']}, "
             f"{s['players']} players, policies {', '.join(s['policies'])} "
             f"({result.elapsed:.2f} s" + (", the kernel's first compile included)"
                                           if compiled else ")")]
    defaults = result.spec.space.defaults()
    changed = {k: v for k, v in s["params"].items() if v != defaults[k]}
    if changed:
        lines.append("parameters changed from the defaults: "
                     + ", ".join(f"{k}={v}" for k, v in changed.items()))
    lines += rate_lines("win rate by seat (95% Wilson)", result.by_seat())
    lines += rate_lines("win rate by policy", result.by_policy())
    role = result.by_role()
    if role is not None:
        spec, values = result.spec, result.setup.values
        slugs = spec.role_names(values)
        lines += rate_lines("win rate by role", role,
                            {slugs[c]: lab for c, lab in spec.roles(values).items()})
    f = s["first_mover"]
    lines.append(f"first mover ({f['turn_order']}): wins {f['win_rate']:.2%} "
                 f"[{f['ci_low']:.2%}, {f['ci_high']:.2%}]")
    sh = s.get("shared_wins")
    if sh is not None:
        lines.append(f"shared wins: {sh['share']:.2%} of games have several winning seats "
                     f"(the rules let a win be shared); seat win rates add to {sh['seat_win_rates_sum']:.1%}, "
                     f"so the fair share is their mean, {sh['fair_share']:.2%}")
    d = s["draws"]
    lines.append(f"draws: {d['share']:.2%} [{d['ci_low']:.2%}, {d['ci_high']:.2%}] "
                 f"({d['count']:,} games)")
    L = s["length_turns"]
    lines.append(f"game length (turns): mean {L['mean']:.1f}, median {L['median']:.0f}, "
                 f"p90 {L['p90']:.0f}, max {L['max']}")
    lines.append("end reasons: " + ", ".join(f"{k} {v:,}" for k, v in s["end_reasons"].items()))
    click.echo("\n".join(lines))
