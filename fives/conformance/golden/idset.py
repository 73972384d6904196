"""A compact set of 48-bit case IDs, for de-duplicating a golden suite as it streams out.

Case IDs end in 12 hex digits of a SHA-256 (`fives.conformance.golden.cases.case_id`), so they are already
uniformly spread: they index an open-addressing table of 8-byte slots directly, with linear
probing. The table stays at most 2/3 full, so it costs 12 to 24 bytes per ID, and 1.5 times
that while doubling (100,000 IDs: a 2 MiB table, 3 MiB at the peak; 1,000,000 IDs: 16 MiB,
24 MiB at the peak), against about 80 bytes per ID for a Python `set` of ints. Only 48-bit IDs
are kept, never the cases themselves.
"""
from __future__ import annotations

from array import array

_ID_BITS = 48


class IdSet:
    """`add(key)` is True the first time a 48-bit key is seen, False after."""

    def __init__(self, capacity: int = 1024) -> None:
        size = 1
        while size < capacity:
            size *= 2
        self._slots = array("Q", bytes(8 * size))  # 0 = empty; a key k is stored as k + 1
        self._mask = size - 1
        self._count = 0

    def __len__(self) -> int:
        return self._count

    @property
    def nbytes(self) -> int:
        """Bytes held by the table (what its memory grows by)."""
        return len(self._slots) * self._slots.itemsize

    def add(self, key: int) -> bool:
        if not 0 <= key < 1 << _ID_BITS:
            raise ValueError(f"not a 48-bit ID: {key}")
        stored = key + 1
        slots, mask = self._slots, self._mask
        i = key & mask
        while True:
            here = slots[i]
            if here == 0:
                break
            if here == stored:
                return False
            i = (i + 1) & mask
        slots[i] = stored
        self._count += 1
        if self._count * 3 > len(slots) * 2:
            self._grow()
        return True

    def __contains__(self, key: int) -> bool:
        stored = key + 1
        slots, mask = self._slots, self._mask
        i = key & mask
        while (here := slots[i]) != 0:
            if here == stored:
                return True
            i = (i + 1) & mask
        return False

    def _grow(self) -> None:
        old = self._slots
        self._slots = array("Q", bytes(8 * len(old) * 2))
        self._mask = len(self._slots) - 1
        slots, mask = self._slots, self._mask
        for stored in old:
            if stored:
                i = (stored - 1) & mask
                while slots[i] != 0:
                    i = (i + 1) & mask
                slots[i] = stored
