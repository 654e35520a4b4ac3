"""./fathom setup-torch2's own behaviour, without downloading anything (ctest pytorch_setup_torch2).

- --check on an absent environment: exit 1 and the reason; on a ready one (when this machine has
  it): exit 0 and the python's path, the same line a plain run prints last, installing nothing;
- no network (pip pointed at a closed port): exit 2 and one "fathom: setup-torch2: PyPI could
  not be reached" line naming the log; the partial environment is not taken for a complete one;
- no space (a need larger than the disk): exit 2 and one line saying how much is free.
"""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.dirname(HERE))
import torch2_env  # noqa: E402

SCRIPT = os.path.join(os.path.dirname(HERE), "setup_torch2.py")


def setup(*args, env=None):
    e = dict(os.environ, PIP_NO_INPUT="1", **(env or {}))
    e.pop("FATHOM_TORCH2_DIR", None)
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, env=e, timeout=240)


class SetupTorch2Test(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="fathom-setup-test-")
        self.dir = os.path.join(self._tmp.name, "torch2")

    def tearDown(self):
        self._tmp.cleanup()

    def assertOneFailureLine(self, p, *fragments):
        self.assertEqual(p.returncode, 2, p.stderr)
        ours = [l for l in p.stderr.splitlines() if l.startswith("fathom: setup-torch2: ")]
        self.assertTrue(ours, p.stderr)
        for f in fragments:
            self.assertIn(f, ours[-1])
        self.assertEqual(p.stdout, "", "a failed setup prints no python path")

    def test_check_on_an_absent_environment(self):
        p = setup("--check", "--dir", self.dir)
        self.assertEqual(p.returncode, 1)
        self.assertIn("absent", p.stderr)
        self.assertIn("./fathom setup-torch2", p.stderr)
        self.assertEqual(p.stdout, "")

    def test_no_network_is_one_line(self):
        # Port 9 (discard) is closed here: pip gets "connection refused" at once.
        p = setup("--dir", self.dir, env={"PIP_INDEX_URL": "http://127.0.0.1:9/simple", "PIP_RETRIES": "0",
                                          "PIP_TIMEOUT": "2"})
        self.assertOneFailureLine(p, "PyPI could not be reached", "log:")
        self.assertTrue(os.path.exists(torch2_env.python_path(self.dir)), "the venv itself was made")
        self.assertIsNone(torch2_env.stamped_pins(self.dir), "an unfinished install must not look complete")
        again = setup("--check", "--dir", self.dir)
        self.assertEqual(again.returncode, 1)
        self.assertIn("incomplete", again.stderr)

    def test_no_space_is_one_line(self):
        p = setup("--dir", self.dir, env={"FATHOM_TORCH2_NEEDED_GB": "100000000"})
        self.assertOneFailureLine(p, "not enough space", "GB free")
        self.assertFalse(os.path.exists(self.dir), "nothing is made when it cannot fit")

    def test_a_ready_environment_installs_nothing(self):
        if torch2_env.missing_reason() is not None:
            self.skipTest(torch2_env.missing_reason())
        first = setup()
        self.assertEqual(first.returncode, 0, first.stderr)
        self.assertEqual(first.stdout.strip().splitlines()[-1], torch2_env.python_path())
        self.assertNotIn("installing", first.stderr)
        check = setup("--check")
        self.assertEqual(check.returncode, 0)
        self.assertEqual(check.stdout.strip(), torch2_env.python_path())


if __name__ == "__main__":
    unittest.main(verbosity=2)
