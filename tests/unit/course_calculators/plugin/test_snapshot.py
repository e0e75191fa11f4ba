"""The snapshot's sparse format: only the pages that hold something travel."""

from __future__ import annotations

import pytest

from course_calculators.plugin import snapshot


def test_pack_keeps_only_non_zero_pages_and_unpack_restores_every_byte():
    page = snapshot.PAGE
    image = bytearray(page * 5 + 100)  # five whole pages and a short last one
    image[page * 1 + 7] = 1           # page 1
    image[page * 3:page * 4] = b"\xff" * page  # page 3
    image[-1] = 9                     # the short page 5
    packed = snapshot.pack(bytes(image))
    assert packed[:8] == snapshot.MAGIC
    bitmap = packed[16]
    assert bitmap == 0b101010  # pages 1, 3, 5
    assert len(packed) == 16 + 1 + page * 2 + 100
    assert snapshot.unpack(packed) == bytes(image)


def test_an_all_zero_image_packs_to_its_header_and_bitmap():
    packed = snapshot.pack(bytes(snapshot.PAGE * 9))
    assert len(packed) == 16 + 2 and snapshot.unpack(packed) == bytes(snapshot.PAGE * 9)


def test_unpack_refuses_what_is_not_a_snapshot():
    with pytest.raises(snapshot.SnapshotError):
        snapshot.unpack(b"not a snapshot at all")
