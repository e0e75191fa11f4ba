"""The block pool: its free list reuses the most recently freed block first, never-used blocks come
in order from 0, its counts add up, and it keeps the owners of the blocks it watches."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from llm_inference.physics.block_pool import BlockPool


def test_fresh_blocks_come_in_order_then_freed_ones_last_first():
    pool = BlockPool(10, watched=4)
    a = pool.take(owner=0, count=3)
    b = pool.take(owner=1, count=2)
    assert (a, b) == ([0, 1, 2], [3, 4]) and pool.free == 5
    assert pool.owner == [0, 0, 0, 1]
    pool.give_back([0, 2])  # given back in this order: 2 is reused first
    assert pool.owner == [None, 0, None, 1] and pool.free == 7
    assert pool.take(owner=2, count=3) == [2, 0, 5]
    assert pool.take(owner=3, count=1) == [6]
    assert (pool.allocated, pool.freed) == (9, 2)


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(1, 5)), max_size=60))
def test_the_counts_add_up_and_no_block_is_handed_out_twice(ops):
    pool = BlockPool(40, watched=40)
    held: dict[int, list[int]] = {}
    for owner, (take, count) in enumerate(ops):
        if take and count <= pool.free:
            held[owner] = pool.take(owner, count)
        elif held:
            pool.give_back(held.pop(next(iter(held))))
        out = [b for blocks in held.values() for b in blocks]
        assert len(out) == len(set(out)) == 40 - pool.free == pool.allocated - pool.freed
        assert all(pool.owner[b] == o for o, blocks in held.items() for b in blocks)
        assert sum(x is not None for x in pool.owner) == len(out)


def test_one_block_each_is_what_taking_them_one_by_one_gives():
    a, b = BlockPool(20, watched=8), BlockPool(20, watched=8)
    for pool in (a, b):
        pool.give_back(pool.take(0, 5)[1:4])
    one_by_one = [a.take(s, 1)[0] for s in (3, 1, 2, 7, 9)]
    assert b.take_one_each([3, 1, 2, 7, 9]) == one_by_one
    assert (a.free, a.allocated, a.owner) == (b.free, b.allocated, b.owner)
