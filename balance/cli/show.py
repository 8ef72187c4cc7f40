"""Plain-text summaries for the terminal."""
from __future__ import annotations

import click


def rate_lines(title, df):
    lines = [f"{title}:"]
    for key, row in df.iterrows():
        lines.append(f"  {str(key):<12} {row['win_rate']:7.2%}  [{row['ci_low']:.2%}, "
                     f"{row['ci_high']:.2%}]  n={int(row['games'])}")
    return lines


def print_summary(result):
    s = result.summary
    lines = [f"{result.spec.title} v{s['version']}: {s['games']:,} games, seed {s['seed']}, "
             f"{s['players']} players, policies {', '.join(s['policies'])} "
             f"({s['elapsed_seconds']:.2f} s)"]
    lines += rate_lines("win rate by seat (95% Wilson)", result.by_seat())
    lines += rate_lines("win rate by policy", result.by_policy())
    role = result.by_role()
    if role is not None:
        lines += rate_lines("win rate by role", role)
    d = s["draws"]
    lines.append(f"draws: {d['share']:.2%} [{d['ci_low']:.2%}, {d['ci_high']:.2%}] "
                 f"({d['count']:,} games)")
    L = s["length_turns"]
    lines.append(f"game length (turns): mean {L['mean']:.1f}, median {L['median']:.0f}, "
                 f"p90 {L['p90']:.0f}, max {L['max']}")
    lines.append("end reasons: " + ", ".join(f"{k} {v:,}" for k, v in s["end_reasons"].items()))
    click.echo("\n".join(lines))
