"""A sweep stopped by Ctrl-C or SIGTERM reports the models it finished (sweep/command.py): an hour
of models is not lost to a stop. The models themselves are faked here (sweep_model patched), so
this runs in a second under either interpreter."""
import contextlib
import io
import json
import os
import sys
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dumputil  # noqa: E402,F401  (path setup; skips the module without torch)

from fathom_torch.cli import main as fathom_torch  # noqa: E402
from fathom_torch.sweep import run as sweep_run  # noqa: E402


def _fake_models(stop_at):
    calls = []

    def sweep_model(binary, spec, folder, **kwargs):
        calls.append(spec.name)
        if len(calls) == stop_at:
            raise KeyboardInterrupt
        return sweep_run.finish({"model": spec.name, "input": spec.input_text(), "seconds": 0.1,
                                 "stages": {"export": {"verdict": "ok"}, "load": {"verdict": "ok"}}})
    return sweep_model


class SweepInterruptTest(unittest.TestCase):
    def sweep(self, *args, stop_at):
        out, err = io.StringIO(), io.StringIO()
        with mock.patch.object(sweep_run, "sweep_model", _fake_models(stop_at)), \
                contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = fathom_torch(["sweep", "--fathom", "/bin/true", *args])
        return rc, out.getvalue(), err.getvalue()

    def test_an_interrupted_sweep_reports_the_finished_rows(self):
        rc, out, err = self.sweep("vision", "--models", "resnet18,alexnet,vgg11", "--json", stop_at=3)
        self.assertEqual(rc, 130)
        doc = json.loads(out)
        self.assertEqual([r["model"] for r in doc["rows"]], ["resnet18", "alexnet"])
        self.assertEqual((doc["models"], doc["passed"], doc["interrupted"]), (2, 2, True))
        self.assertIn("interrupted during model 3 of 3 of vision; reporting the 2 finished", err)

    def test_the_table_says_it_was_interrupted(self):
        rc, out, _ = self.sweep("vision", "--models", "resnet18,alexnet", stop_at=2)
        self.assertEqual(rc, 130)
        self.assertIn("vision: 1 of 1 pass every stage; interrupted: the models finished before the stop only", out)

    def test_a_whole_sweep_is_not_marked(self):
        rc, out, _ = self.sweep("vision", "--models", "resnet18", "--json", stop_at=0)
        self.assertEqual(rc, 0)
        self.assertNotIn("interrupted", json.loads(out))


if __name__ == "__main__":
    unittest.main()
