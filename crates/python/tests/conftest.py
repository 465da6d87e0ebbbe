"""Fixtures: the shared data folder and the `spinneret` binary.

The shared folder is $SPINNERET_SHARED, else ../shared beside the checkout
(as for the Rust tests); the binary is $SPINNERET_BIN, else the workspace's
release build (scripts/test builds it first). Neither is optional: a test
that needs one fails when it is missing.
"""

import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def shared() -> pathlib.Path:
    path = pathlib.Path(os.environ.get("SPINNERET_SHARED", REPO.parent / "shared"))
    assert (path / "testdata").is_dir(), f"shared data folder not found at {path}"
    return path


@pytest.fixture(scope="session")
def spinneret_bin() -> str:
    target = os.environ.get("CARGO_TARGET_DIR", REPO / "target")
    path = pathlib.Path(os.environ.get("SPINNERET_BIN", pathlib.Path(target) / "release" / "spinneret"))
    assert path.is_file(), f"spinneret binary not found at {path} (cargo build --release -p spinneret-cli)"
    return str(path)


def run_cli(binary: str, args: list[str], stdin: bytes = b"") -> bytes:
    """The binary's standard output (it must succeed)."""
    done = subprocess.run([binary, *args], input=stdin, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done.stdout
