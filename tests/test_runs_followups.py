"""Issue 34's follow-ups on runs: whole results, folder locks, limits,
interruptions and the lines a run says."""
import dataclasses

from balance.core import spec as S


def test_every_spec_gets_its_own_dict_defaults():
    fields = {f.name: f for f in dataclasses.fields(S.RulesetSpec)}
    for name in ("data_files", "headline_roles"):
        make = fields[name].default_factory
        a, b = make(), make()
        assert a == {} and a is not b, name


def test_a_game_range_past_int64_is_refused():
    import pytest

    import balance
    with pytest.raises(balance.BalanceError, match=r"games: 100 games from start "
                       r"9,223,372,036,854,775,798 .* at most 9 games") as e:
        balance.simulate("talisman", start=2**63 - 10, games=100)
    assert "\n" not in str(e.value)
    r = balance.simulate("talisman", start=2**63 - 10, games=9, progress=False)
    assert r.games["game"].iloc[-1] == 2**63 - 2 and (r.games["game"] > 0).all()
