"""Makes the pinned PyTorch 2.x environment (./fathom setup-torch2 runs this).

    setup_torch2.py [--dir DIR] [--check]

Installs requirements-torch2.txt into one virtual environment outside the checkout
(torch2_env.env_dir(): $FATHOM_TORCH2_DIR, else ~/.cache/fathom/torch2), with pip's progress on
stderr, then fathom_torch itself (editable, from this checkout). When the environment already holds
today's pins it installs nothing. The last line on stdout is always the environment's python.
--check installs nothing: it prints that line when the environment is ready, else the reason on
stderr and exits 1. A failure (no network, no space, a pin PyPI does not have) is one
"fathom: setup-torch2: ..." line and exit 2; what pip said is kept in the log it names.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

import torch2_env

# Measured on this kind of machine (see plugins/pytorch/README.md): the environment takes about
# 6 GB and pip needs room for its wheel cache and unpacking beside it.
NEEDED_GB = float(os.environ.get("FATHOM_TORCH2_NEEDED_GB", "12"))  # the variable is for tests


class SetupError(Exception):
    pass


def say(text):
    print(f"fathom: setup-torch2: {text}", file=sys.stderr, flush=True)


def run_logged(cmd, log_path):
    """Runs cmd with its output on stderr (pip's progress) and appended to the log; returns the
    exit code and the output's text."""
    lines = []
    with open(log_path, "a") as log:
        log.write(f"$ {' '.join(cmd)}\n")
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        for line in p.stdout:
            sys.stderr.write(line)
            log.write(line)
            lines.append(line)
        return p.wait(), "".join(lines)


def failure_reason(output, folder):
    """One phrase for why pip failed, from what it printed."""
    if "No space left on device" in output or "[Errno 28]" in output:
        free = shutil.disk_usage(_existing_parent(folder)).free / 2**30
        return f"no space left on device while installing into {folder} ({free:.1f} GB free; about {NEEDED_GB} GB needed)"
    network = ("Temporary failure in name resolution", "Failed to establish a new connection", "Network is unreachable",
               "Could not fetch URL", "Connection refused", "Read timed out", "ProxyError")
    if any(n in output for n in network) or "(from versions: none)" in output:
        return "PyPI could not be reached: check the network (pip's own words are in the log)"
    if "No matching distribution found" in output:
        line = next(l for l in output.splitlines() if "No matching distribution found" in l)
        return f"PyPI has no such version: {line.replace('ERROR: ', '').strip()} (see requirements-torch2.txt)"
    errors = [l.strip() for l in output.splitlines() if l.startswith("ERROR:")]
    return errors[-1] if errors else "pip failed"


def _existing_parent(path):
    while not os.path.exists(path):
        path = os.path.dirname(path)
    return path


def check_space(folder):
    free = shutil.disk_usage(_existing_parent(folder)).free / 2**30
    if free < NEEDED_GB:
        raise SetupError(f"not enough space for the torch 2.x environment at {folder}: {free:.1f} GB free, "
                         f"about {NEEDED_GB} GB needed (set FATHOM_TORCH2_DIR to a roomier place)")


def fathom_torch_installed(py):
    """True when the environment imports fathom_torch from this checkout."""
    code = "import fathom_torch, os; print(os.path.dirname(os.path.dirname(os.path.abspath(fathom_torch.__file__))))"
    p = subprocess.run([py, "-c", code], capture_output=True, text=True, cwd="/")
    return p.returncode == 0 and os.path.realpath(p.stdout.strip()) == os.path.realpath(torch2_env.HERE)


def install(folder, log_path):
    py = torch2_env.python_path(folder)
    if not os.path.exists(py):
        check_space(folder)
        say(f"creating the virtual environment {folder} with {sys.executable} (Python {sys.version.split()[0]})")
        os.makedirs(os.path.dirname(folder), exist_ok=True)
        rc, out = run_logged([sys.executable, "-m", "venv", folder], log_path)
        if rc != 0:
            raise SetupError(f"python -m venv failed: {out.strip().splitlines()[-1] if out.strip() else rc} (log: {log_path})")
    elif torch2_env.stamped_pins(folder) != torch2_env.pins():
        check_space(folder)
    if torch2_env.stamped_pins(folder) != torch2_env.pins() or not torch2_env.versions_ok(folder):
        say(f"installing {', '.join(torch2_env.pins())} (about 3 GB from PyPI the first time; log: {log_path})")
        stamp = os.path.join(folder, torch2_env.PINS_STAMP)
        if os.path.exists(stamp):
            os.remove(stamp)  # an interrupted install must not look complete
        progress = ["--progress-bar", "on" if sys.stderr.isatty() else "off"]
        rc, out = run_logged([py, "-m", "pip", "install", "--disable-pip-version-check", *progress,
                              "-r", torch2_env.REQUIREMENTS], log_path)
        if rc != 0:
            raise SetupError(f"{failure_reason(out, folder)} (log: {log_path})")
        if not torch2_env.imports_ok(folder):
            raise SetupError(f"the packages installed but 'import {', '.join(torch2_env.PACKAGES)}' fails in {py}; "
                             f"run it by hand to see why (log: {log_path})")
        with open(os.path.join(folder, torch2_env.FREEZE_RECORD), "w") as f:
            f.write(subprocess.run([py, "-m", "pip", "freeze", "--disable-pip-version-check"],
                                   capture_output=True, text=True).stdout)
        with open(stamp, "w") as f:
            f.write("\n".join(torch2_env.pins()) + "\n")
    if not fathom_torch_installed(py):
        say(f"installing fathom_torch from {torch2_env.HERE} (editable)")
        rc, out = run_logged([py, "-m", "pip", "install", "--disable-pip-version-check", "--no-deps",
                              "--no-build-isolation", "-e", torch2_env.HERE], log_path)
        if rc != 0:
            raise SetupError(f"installing fathom_torch failed: {failure_reason(out, folder)} (log: {log_path})")
    return py


def main(argv):
    ap = argparse.ArgumentParser(prog="./fathom setup-torch2", description=__doc__.split("\n")[0])
    ap.add_argument("--dir", help="the environment's folder (default: $FATHOM_TORCH2_DIR, else ~/.cache/fathom/torch2)")
    ap.add_argument("--check", action="store_true", help="install nothing: print the python when ready, else why not (exit 1)")
    a = ap.parse_args(argv[1:])
    folder = os.path.abspath(a.dir) if a.dir else torch2_env.env_dir()
    if a.check:
        reason = torch2_env.missing_reason(folder)
        if reason is not None:
            print(f"fathom: setup-torch2: {reason}", file=sys.stderr)
            return 1
        print(torch2_env.python_path(folder))
        return 0
    log_path = folder.rstrip("/") + "-install.log"
    start = time.monotonic()
    try:
        os.makedirs(os.path.dirname(folder), exist_ok=True)
        py = install(folder, log_path)
    except SetupError as e:
        say(str(e))
        return 2
    except KeyboardInterrupt:
        say(f"interrupted; run it again to finish (nothing installed so far is lost; log: {log_path})")
        return 130
    seconds = time.monotonic() - start
    if seconds > 5:
        say(f"ready in {seconds:.0f} s")
    print(py)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
