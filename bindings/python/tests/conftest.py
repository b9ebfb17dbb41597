"""Shared fixtures: a 1 GiB file of 64-byte lines (made once per run, deleted after)."""

import os
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

LINE = 64
GIB = 1 << 30


def line_text(n: int) -> bytes:
    body = f"line {n:012d} " + "x" * LINE
    return (body[: LINE - 1] + "\n").encode()


@pytest.fixture(scope="session")
def big_file():
    """1 GiB of 64-byte lines: line N starts at byte (N-1)*64. Its 16,384-line MiB
    repeats, so the text names the line within its MiB."""
    if os.environ.get("RANGEREAD_SKIP_BIG"):
        print("RANGEREAD_SKIP_BIG is set: the 1 GiB tests are skipped", file=sys.stderr)
        pytest.skip("RANGEREAD_SKIP_BIG is set")
    block = b"".join(line_text(n) for n in range(1, (1 << 20) // LINE + 1))
    assert len(block) == 1 << 20
    d = tempfile.mkdtemp(prefix="rangeread-big-")
    p = Path(d) / "big.log"
    with open(p, "wb") as f:
        for _ in range(GIB // len(block)):
            f.write(block)
    yield p
    p.unlink()
    os.rmdir(d)
