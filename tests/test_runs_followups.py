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
