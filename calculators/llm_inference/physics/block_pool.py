"""A pool of KV-cache blocks with a free list: the most recently freed block is reused first.

That is the order of vLLM's original block allocator (``NaiveBlockAllocator``,
``vllm/core/block/naive_block.py``, vLLM 0.10.0: freed ids go to the front of a deque, allocation
pops from the front); vLLM's V1 engine (``FreeKVCacheBlockQueue``, ``vllm/v1/core/kv_cache_utils.py``,
vLLM 0.33.0) reuses the least recently freed first, to keep cached prefixes longer. The order
only decides *which* physical blocks a sequence gets — the picture of the block table, where a
sequence's blocks lie scattered once others have finished — never how many are free.

:class:`BlockPool` keeps the order without a list as long as the pool: freed ids on a stack, then
the ids never used, in order from block 0 (a pool of a million blocks costs nothing until it is
used). It counts the blocks allocated and freed since the start, and remembers the owner of its
first ``watched`` blocks, for the picture.
"""

from __future__ import annotations

from typing import Iterable, Sequence


class BlockPool:
    """``size`` blocks; :meth:`take` hands out blocks for an owner, :meth:`give_back` returns them."""

    def __init__(self, size: int, watched: int = 0) -> None:
        self.size = size
        #: Blocks not held by any owner.
        self.free = size
        #: Blocks handed out and returned since the start (a frame's counts are the differences).
        self.allocated = 0
        self.freed = 0
        #: The owner of each of the first ``watched`` blocks, or None: the block table's picture.
        self.owner: list[int | None] = [None] * watched
        self._returned: list[int] = []  # freed ids, the last one on top: the first reused
        self._fresh = 0  # the lowest id never handed out

    def take(self, owner: int, count: int) -> list[int]:
        """``count`` blocks for ``owner`` (the caller checked that they are free): the most recently
        returned first, in the order they were returned last-first, then never-used ones."""
        self.free -= count
        self.allocated += count
        reused = min(count, len(self._returned))
        blocks = self._returned[len(self._returned) - reused:][::-1]
        del self._returned[len(self._returned) - reused:]
        blocks.extend(range(self._fresh, self._fresh + count - reused))
        self._fresh += count - reused
        for b in blocks:
            if b < len(self.owner):
                self.owner[b] = owner
        return blocks

    def take_one_each(self, owners: Sequence[int]) -> list[int]:
        """One block for each of ``owners``, in that order (a step in which each of them fills its
        last block): what :meth:`take` would give one by one, without its cost per call — a run
        of one-token blocks takes millions of them."""
        self.free -= len(owners)
        self.allocated += len(owners)
        returned, owner, watched = self._returned, self.owner, len(self.owner)
        out = []
        for s in owners:
            if returned:
                b = returned.pop()
            else:
                b = self._fresh
                self._fresh += 1
            if b < watched:
                owner[b] = s
            out.append(b)
        return out

    def give_back(self, blocks: Iterable[int]) -> None:
        """Return an owner's blocks, in the order given: the last one given back is reused first."""
        blocks = list(blocks)
        self.free += len(blocks)
        self.freed += len(blocks)
        self._returned.extend(blocks)
        for b in blocks:
            if b < len(self.owner):
                self.owner[b] = None
