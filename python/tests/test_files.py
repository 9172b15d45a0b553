"""The file readers of the nickar package (nickar.files, moved in from
analysis/nickar_analysis.py) on files the nickar binary writes: a run file,
a tournament file and a CIAO file; and the old module's names are the same
functions."""

import importlib
import os
import sys

import pytest

import nickar
import nickar.files as nf
from conftest import ROOT


@pytest.fixture(scope="module")
def files(run_nickar, tmp_path_factory):
    d = tmp_path_factory.mktemp("files")
    run = str(d / "run.h5")
    run_nickar("evolve", os.path.join(ROOT, "configs", "quickstart.ini"), "--output", run,
               "--set", "experiment.generations=3", "--set", "population.size=4",
               "--set", "player.depth=1", "--set", "benchmark.every=1",
               "--set", "benchmark.games=2", "--set", "benchmark.opponents=random", "--quiet")
    tour = str(d / "tournament.h5")
    run_nickar("tournament", "--variant", "abapa", "random", "greedy", "ab:depth=1",
               "--games", "2", "--quiet", "--output", tour)
    ciao = str(d / "run.ciao.h5")
    run_nickar("ciao", run, "--games", "2", "--output", ciao)
    return {"run": run, "tournament": tour, "ciao": ciao, "dir": d}


def test_read_by_kind(files):
    assert set(nickar.reader_kinds()) >= {"run", "tournament", "ciao"}
    for kind in ("run", "tournament", "ciao"):
        r = nickar.read(files[kind])
        assert r["kind"] == kind and r["path"] == files[kind]


def test_run_arrays(files):
    r = nickar.read_run_arrays(files["run"])
    assert r["G"] == 3 and r["genome"].shape[:2] == (3, 4)
    assert r["features"] and r["genome"].shape[2] == len(r["features"])
    assert list(r["stats"]["generation"]) == [0, 1, 2]


def test_tournament(files):
    t = nickar.read_tournament(files["tournament"])
    assert t["players"] == ["random", "greedy", "ab:depth=1"] and t["variant"] == "abapa"
    assert t["score"].shape == (3, 3) and t["done"] == t["total"]


def test_ciao(files):
    c = nickar.read_ciao(files["ciao"])
    n = len(c["generations"])
    assert n >= 2 and c["score"].shape == (n, n)


def test_bad_files(files):
    text = files["dir"] / "text.h5"
    text.write_text("not HDF5")
    with pytest.raises(ValueError, match="not an HDF5 file"):
        nickar.read_tournament(str(text))
    with pytest.raises(ValueError, match="no such file"):
        nickar.read(str(files["dir"] / "missing.h5"))
    with pytest.raises(ValueError, match="not a nickar ciao file"):
        nickar.read_ciao(files["tournament"])
    with pytest.raises(ValueError, match="no reader knows this file"):
        nickar.read(str(text))


def test_old_module_is_a_shim():
    sys.path.insert(0, os.path.join(ROOT, "analysis"))
    try:
        na = importlib.import_module("nickar_analysis")
    finally:
        sys.path.pop(0)
    for name in ("read", "read_run_arrays", "read_tournament", "read_ciao", "open_h5",
                 "h5_file", "register_reader", "text"):
        assert getattr(na, name) is getattr(nf, name), name
    assert na._READERS is nf._READERS
