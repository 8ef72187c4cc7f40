"""core.parallel: every block is played exactly once, whatever the thread
count, and a kernel's error reaches the caller."""
import numpy as np
import pytest

from balance.core.parallel import n_blocks, run_blocks
from balance.core.records import BLOCK


@pytest.mark.parametrize("n_games", [0, 1, BLOCK, BLOCK + 1, 37 * BLOCK + 5])
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_every_block_once(n_games, threads):
    hits = np.zeros(max(n_blocks(n_games), 1), np.int64)

    def fn(b0, b1, out):
        for b in range(b0, b1):
            out[b] += 1

    run_blocks(fn, n_games, hits, threads=threads)
    assert hits[:n_blocks(n_games)].tolist() == [1] * n_blocks(n_games)


def test_kernel_error_reaches_caller():
    def fn(b0, b1):
        if b0 <= 5 < b1:
            raise ValueError("block 5 failed")

    with pytest.raises(ValueError, match="block 5"):
        run_blocks(fn, 40 * BLOCK, threads=2)
