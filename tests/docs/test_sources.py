"""docs/sources holds the rule documents verbatim: identical to the shared originals when present."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COPIES = ROOT / "docs" / "sources"
SHARED = ROOT.parent / "shared" / "rules"


def test_the_four_documents_are_here():
    assert sorted(path.name for path in COPIES.glob("*.txt")) == [
        "000_369e66307d0cf5b5.txt", "002_224e56cc05e4c4d0.txt", "003_f72c76bfd86e6a71.txt", "004_547cbeafbe1b8e95.txt",
    ]  # fmt: skip


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared rule documents are not beside this clone")
def test_the_copies_are_verbatim():
    for original in SHARED.glob("*.txt"):
        assert (COPIES / original.name).read_bytes() == original.read_bytes(), original.name
