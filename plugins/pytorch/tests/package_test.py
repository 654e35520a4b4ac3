"""`pip install ./plugins/pytorch` gives `import fathom_torch` and the `fathom-torch` command, under
Debian's python3 (torch 1.13) and under the pinned torch 2.x environment (ctest pytorch_package).

Nothing is downloaded: the package is built from a copy of plugins/pytorch (pip would otherwise
leave build/ and *.egg-info in the checkout) without build isolation, with --no-deps --no-index.
- Debian: a venv with --system-site-packages (so python3-torch is seen), the package installed
  into it; `fathom-torch --help` lists capture and sweep, and the installed package exports.
- torch 2.x: the same package installed with --target beside the shared environment (which is
  left as it is), run by that environment's python.
Each half skips with its reason where its interpreter is absent.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PLUGIN = os.path.dirname(HERE)
sys.path.insert(0, PLUGIN)
import torch2_env  # noqa: E402

DEBIAN_PYTHON = "/usr/bin/python3"


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=240, **kw)


class PackageTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="fathom-package-test-")
        self.tmp = self._tmp.name
        self.src = os.path.join(self.tmp, "src")
        shutil.copytree(PLUGIN, self.src, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "tests"))

    def tearDown(self):
        self._tmp.cleanup()

    def assertCommandWorks(self, command, env=None):
        p = run([command, "--help"], env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("capture", p.stdout)
        self.assertIn("sweep", p.stdout)
        self.assertIn("usage: fathom-torch", p.stdout)
        bad = run([command, "capture", "no-colon"], env=env)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("fathom_torch: expected SCRIPT.py:FUNC", bad.stderr)

    def test_debian_python3(self):
        probe = run([DEBIAN_PYTHON, "-c", "import ensurepip, venv, setuptools, torch"]) if os.path.exists(DEBIAN_PYTHON) else None
        if probe is None or probe.returncode != 0:
            self.skipTest(f"{DEBIAN_PYTHON} lacks venv, setuptools or python3-torch")
        venv = os.path.join(self.tmp, "deb")
        p = run([DEBIAN_PYTHON, "-m", "venv", "--system-site-packages", venv])
        self.assertEqual(p.returncode, 0, p.stderr)
        p = run([os.path.join(venv, "bin", "pip"), "install", "--no-deps", "--no-build-isolation", "--no-index",
                 "--disable-pip-version-check", self.src])
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertCommandWorks(os.path.join(venv, "bin", "fathom-torch"))
        p = run([os.path.join(venv, "bin", "python"), "-c",
                 "import fathom_torch, torch; print(fathom_torch.__file__, torch.__version__, callable(fathom_torch.capture_aot))"],
                cwd=self.tmp)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(os.path.join(venv, "lib"), p.stdout, "imported from the installed copy")
        self.assertIn(" 1.13", p.stdout)
        self.assertTrue(p.stdout.strip().endswith("True"))

    def test_torch2_environment(self):
        if torch2_env.missing_reason() is not None:
            self.skipTest(torch2_env.missing_reason())
        py = torch2_env.python_path()
        target = os.path.join(self.tmp, "t2")
        p = run([py, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index",
                 "--disable-pip-version-check", "--target", target, self.src])
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        env = dict(os.environ, PYTHONPATH=target)
        self.assertCommandWorks(os.path.join(target, "bin", "fathom-torch"), env=env)
        p = run([py, "-c", "import fathom_torch, torch; print(fathom_torch.__file__, torch.__version__)"],
                cwd=self.tmp, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(target, p.stdout)
        self.assertRegex(p.stdout, r" 2\.\d+")


if __name__ == "__main__":
    unittest.main(verbosity=2)
