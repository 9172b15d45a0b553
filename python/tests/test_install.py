"""`pip install ./python` with Debian's python3 and no network
(--no-build-isolation --no-index): the installed package imports from
outside the checkout and finds the library through NICKAR_LIB."""

import os
import shutil
import subprocess
import sys

from conftest import ROOT


def test_pip_install_without_network(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(os.path.join(ROOT, "python"), src,
                    ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    site = tmp_path / "site"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation",
                        "--no-index", "--disable-pip-version-check", "--quiet",
                        "--target", str(site), str(src)],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr[-800:]
    code = ("import nickar, sys\n"
            "g = nickar.Game('awari')\n"
            "print(nickar.__file__)\n"
            "print(nickar.search(g, 'ab:depth=2').letter, g.legal())\n")
    env["PYTHONPATH"] = str(site)
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0] == str(site / "nickar" / "__init__.py")
    assert out[1].split(" ", 1)[1] == "[0, 1, 2, 3, 4, 5]"
