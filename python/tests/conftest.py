"""Shared fixtures of the Python package's tests (run by ctest as
test_python: NICKAR_LIB names the freshly built libnickar.so, NICKAR_BIN the
nickar binary of the same build, PYTHONPATH the package's directory)."""

import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="session")
def nickar_bin():
    """The nickar binary: $NICKAR_BIN, else the checkout's build/ or
    build-dev/; a missing binary fails the tests that need it."""
    for cand in (os.environ.get("NICKAR_BIN"), os.path.join(ROOT, "build", "nickar"),
                 os.path.join(ROOT, "build-dev", "nickar")):
        if cand and os.access(cand, os.X_OK):
            return cand
    pytest.fail("no nickar binary: set NICKAR_BIN")


@pytest.fixture(scope="session")
def run_nickar(nickar_bin):
    def run(*args, **kw):
        return subprocess.run([nickar_bin, *args], capture_output=True, text=True, check=True,
                              **kw).stdout
    return run
