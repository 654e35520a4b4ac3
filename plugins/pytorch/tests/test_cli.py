"""python3 -m fathom_torch capture SCRIPT.py:FUNC, run as a subprocess in a temporary folder."""
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dumputil  # noqa: E402  (path setup; skips the module without torch)

SCRIPT = textwrap.dedent("""
    import torch
    from torch import nn

    def mlp():
        torch.manual_seed(0)
        return nn.Sequential(nn.Linear(3, 4), nn.ReLU()), (torch.randn(2, 3),)

    def fn():
        return (lambda x: x.relu() + x), torch.randn(3)

    def complex_fn():
        return (lambda x: torch.view_as_complex(x) * 2), (torch.randn(3, 2),)
""")

# Mistakes that need no torch, so each of these runs takes a fraction of a second.
PLAIN = textwrap.dedent("""
    def bad():
        return 42

    def not_a_model():
        return 42, ()

    def boom():
        raise RuntimeError("nope")

    not_callable = 3
""")


class CliTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = self._tmp.name
        for name, text in (("script.py", SCRIPT), ("plain.py", PLAIN)):
            with open(os.path.join(self.dir, name), "w") as f:
                f.write(text)

    def tearDown(self):
        self._tmp.cleanup()

    def run_cli(self, *args):
        env = dict(os.environ, PYTHONPATH=dumputil.PLUGIN_DIR, PYTHONWARNINGS="ignore")
        return subprocess.run([sys.executable, "-m", "fathom_torch", *args], cwd=self.dir, env=env,
                              capture_output=True, text=True, timeout=120)

    def assertUsageError(self, proc, *fragments):
        self.assertEqual(proc.returncode, 2, proc.stderr)
        lines = proc.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertTrue(lines[0].startswith("fathom_torch: "), lines[0])
        for fragment in fragments:
            self.assertIn(fragment, lines[0])

    def test_capture_aot_default(self):
        p = self.run_cli("capture", "script.py:mlp")
        self.assertEqual(p.returncode, 0, p.stderr)
        out = os.path.join(self.dir, "mlp.fathom.json")
        self.assertTrue(os.path.exists(out))
        self.assertEqual(len(p.stdout.strip().splitlines()), 1)
        self.assertIn("mlp.fathom.json", p.stdout)
        self.assertIn("forward", p.stdout)
        self.assertIn("backward", p.stdout)
        doc = dumputil.load(out)
        self.assertEqual(list(doc["graphs"]), ["forward", "backward", "joint"])
        self.assertIn(f"partition: {len(doc['partition']['saved'])} saved values ({doc['partition']['saved_bytes']} bytes)",
                      p.stdout)
        self.assertEqual(doc["producer"]["mode"], "aot")
        self.assertIn("capture script.py:mlp", doc["producer"]["command"])
        # refuses to overwrite, unless --force
        before = os.path.getmtime(out)
        p = self.run_cli("capture", "script.py:mlp")
        self.assertUsageError(p, "exists", "--force")
        self.assertEqual(os.path.getmtime(out), before)
        p = self.run_cli("capture", "script.py:mlp", "--force", "--mode", "fake")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(list(dumputil.load(out)["graphs"]), ["forward"])

    def test_json_summary(self):
        p = self.run_cli("capture", "script.py:fn", "-o", "sub.fathom.json", "--mode", "real", "--json",
                         "--inline-limit", "1", "--no-outputs")
        self.assertEqual(p.returncode, 0, p.stderr)
        s = json.loads(p.stdout)
        self.assertEqual(set(s), {"path", "graphs", "side_file", "side_file_bytes", "seconds"})
        self.assertEqual(s["path"], "sub.fathom.json")
        self.assertEqual(s["side_file"], "sub.fathom.bin")
        self.assertGreater(s["side_file_bytes"], 0)
        doc = dumputil.load(os.path.join(self.dir, "sub.fathom.json"))
        self.assertEqual(s["graphs"], {"forward": len(doc["graphs"]["forward"]["nodes"])})
        self.assertNotIn("outputs", doc)
        self.assertEqual(doc["inputs"]["forward"][0]["file"], "sub.fathom.bin")
        p = self.run_cli("capture", "script.py:mlp", "-o", "aot.fathom.json", "--json")
        self.assertEqual(p.returncode, 0, p.stderr)
        s = json.loads(p.stdout)
        doc = dumputil.load(os.path.join(self.dir, "aot.fathom.json"))
        self.assertEqual(s["partition"], {"forward": "forward", "saved": len(doc["partition"]["saved"]),
                                          "saved_bytes": doc["partition"]["saved_bytes"]})

    def test_warnings_are_one_line(self):
        from fathom_torch.cli import _warning_line
        self.assertEqual(_warning_line(UserWarning("fathom_torch: no partition section: why"), UserWarning, "x.py", 3),
                         "fathom_torch: no partition section: why\n")
        self.assertIn("x.py:3: UserWarning: other", _warning_line(UserWarning("other"), UserWarning, "x.py", 3))

    def test_usage_errors(self):
        # These fail before torch is imported, so they are quick.
        self.assertUsageError(self.run_cli("capture", "script.py"), "SCRIPT.py:FUNC")
        self.assertUsageError(self.run_cli("capture", "missing.py:f"), "missing.py", "no such file")
        self.assertUsageError(self.run_cli("capture", "script.py:1x"), "not a function name")
        self.assertUsageError(self.run_cli("capture", "script.py:f", "--mode", "bogus"), "--mode")
        self.assertUsageError(self.run_cli("capture", "script.py:f", "--inline-limit", "-1"), "inline-limit")
        p = self.run_cli("--help")
        self.assertEqual(p.returncode, 0)
        self.assertIn("capture", p.stdout)
        p = self.run_cli("capture", "--help")
        self.assertEqual(p.returncode, 0)
        self.assertIn("SCRIPT.py:FUNC", p.stdout)

    def test_errors_from_the_script(self):
        self.assertUsageError(self.run_cli("capture", "plain.py:nothing"), "no function 'nothing'")
        self.assertUsageError(self.run_cli("capture", "plain.py:not_callable"), "no function 'not_callable'")
        self.assertUsageError(self.run_cli("capture", "plain.py:bad"), "bad() must return", "not int")
        self.assertUsageError(self.run_cli("capture", "plain.py:not_a_model"), "first item is a int")
        self.assertUsageError(self.run_cli("capture", "plain.py:boom"), "boom() raised RuntimeError: nope")
        self.assertUsageError(self.run_cli("capture", "script.py:complex_fn", "--mode", "real"),
                              "unsupported graph", "complex64")
        self.assertFalse(os.path.exists(os.path.join(self.dir, "complex_fn.fathom.json")))


if __name__ == "__main__":
    unittest.main()
