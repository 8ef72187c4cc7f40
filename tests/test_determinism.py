"""Same seed, same tables: whatever the threads, chunks or ranges; and
`replay` is exactly the game `run` played."""
import numba
import numpy as np
import pandas as pd
import pytest

import balance
from balance.core.runner import Result, play_range, setup


def _same(a, b):
    np.testing.assert_array_equal(a.games, b.games)
    np.testing.assert_array_equal(a.seats, b.seats)
    np.testing.assert_array_equal(a.masks, b.masks)
    np.testing.assert_array_equal(a.counts, b.counts)


@pytest.mark.parametrize("players,policies", [(2, ["greedy", "random"]), (4, ["random"]),
                                              (3, ["patient", "greedy", "random"])])
def test_one_thread_equals_two_and_chunking_is_irrelevant(players, policies):
    s = setup("talisman", seed=99, players=players, policies=policies)
    n = 5000
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = play_range(s, 0, n, progress=False)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = play_range(s, 0, n, progress=False)
    finally:
        numba.set_num_threads(old)
    _same(one, two)
    chunked = play_range(s, 0, n, progress=False, chunk=777)
    _same(one, chunked)
    # a range played on its own is the same as that slice of the whole run
    part = play_range(s, 1234, 2345, progress=False)
    np.testing.assert_array_equal(part.games, one.games[1234:2345])
    np.testing.assert_array_equal(part.seats, one.seats[1234:2345])


def test_ranges_merge_into_the_whole_run():
    kw = dict(seed=5, players=2, policies=["greedy", "patient"])
    whole = balance.simulate("talisman", games=3000, **kw)
    parts = [balance.simulate("talisman", start=a, stop=b, **kw)
             for a, b in ((2000, 3000), (0, 1000), (1000, 2000))]
    merged = Result.merge(parts)
    pd.testing.assert_frame_equal(merged.games, whole.games)
    pd.testing.assert_frame_equal(merged.seats, whole.seats)
    pd.testing.assert_frame_equal(merged.cards, whole.cards)
    with pytest.raises(balance.BalanceError):
        Result.merge([whole, balance.simulate("talisman", games=10, seed=6, players=2)])


def test_replay_is_the_game_run_played():
    from balance.core.replay import replay_game
    r = balance.simulate("talisman", games=300, seed=11, players=3,
                         policies=["random", "greedy", "patient"])
    for game in (0, 17, 123, 299):
        s, one, events = replay_game("talisman", game=game, seed=11, players=3,
                                     policies=["random", "greedy", "patient"])
        np.testing.assert_array_equal(one.games[0], r.batch.games[game])
        np.testing.assert_array_equal(one.seats[0], r.batch.seats[game])
        np.testing.assert_array_equal(one.masks[0], r.batch.masks[game])
        assert len(events) > 0
    text = balance.replay("talisman", game=17, seed=11, players=3,
                          policies=["random", "greedy", "patient"])
    winner = int(r.batch.games[17, 0])
    assert f"P{winner} (" in text.splitlines()[-1] and "wins" in text.splitlines()[-1]


def test_different_seeds_differ():
    a = balance.simulate("talisman", games=200, seed=1, players=2)
    b = balance.simulate("talisman", games=200, seed=2, players=2)
    assert not np.array_equal(a.batch.games, b.batch.games)


def test_checkpointed_run_resumes_and_never_reuses_other_setups(tmp_path):
    from balance.core.runner import setup_key
    ck = tmp_path / "partial"
    s = setup("talisman", seed=21, players=2, policies=["greedy", "random"])
    whole = play_range(s, 0, 3000, progress=False)
    first = play_range(s, 0, 3000, progress=False, chunk=1000, checkpoint=ck)
    files = sorted((ck / setup_key(s)).glob("*.npz"))
    assert len(files) == 3
    _same(whole, first)
    # an interrupted chunk (truncated file) is played again; others are loaded
    files[1].write_bytes(b"garbage")
    again = play_range(s, 0, 3000, progress=False, chunk=1000, checkpoint=ck)
    _same(whole, again)
    # another setup gets its own folder
    s2 = setup("talisman", seed=22, players=2, policies=["greedy", "random"])
    assert setup_key(s2) != setup_key(s)
    other = play_range(s2, 0, 3000, progress=False, chunk=1000, checkpoint=ck)
    assert not np.array_equal(other.games, whole.games)
