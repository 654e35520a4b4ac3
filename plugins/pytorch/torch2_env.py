"""Where the pinned PyTorch 2.x environment lives, for setup_torch2.py and the tests that use it.

One place outside any checkout, shared by every checkout of the machine (3 GB is too much to
install per clone): $FATHOM_TORCH2_DIR, else ~/.cache/fathom/torch2. Plain Python, no torch.
"""
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
REQUIREMENTS = os.path.join(HERE, "requirements-torch2.txt")
PINS_STAMP = "fathom-pins.txt"     # the requirements the environment was last completed with
FREEZE_RECORD = "fathom-freeze.txt"  # `pip freeze` after that install: every version it holds
PACKAGES = ("torch", "torchvision", "transformers", "timm")


def env_dir():
    return os.environ.get("FATHOM_TORCH2_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "fathom", "torch2")


def python_path(folder=None):
    return os.path.join(folder or env_dir(), "bin", "python")


def pins():
    """The requirement lines (no comments, no blanks), as the stamp compares them."""
    with open(REQUIREMENTS) as f:
        return [line.split("#")[0].strip() for line in f if line.split("#")[0].strip()]


def stamped_pins(folder=None):
    try:
        with open(os.path.join(folder or env_dir(), PINS_STAMP)) as f:
            return [line.strip() for line in f if line.strip()]
    except OSError:
        return None


def missing_reason(folder=None):
    """None when the environment is complete at today's pins, else why not (one phrase)."""
    folder = folder or env_dir()
    if not os.path.exists(python_path(folder)):
        return f"the torch 2.x environment is absent ({folder}; ./fathom setup-torch2 makes it)"
    stamp = stamped_pins(folder)
    if stamp is None:
        return f"the torch 2.x environment in {folder} is incomplete (./fathom setup-torch2 finishes it)"
    if stamp != pins():
        return f"the torch 2.x environment in {folder} has other pins than requirements-torch2.txt (./fathom setup-torch2 updates it)"
    return None


def versions_ok(folder=None):
    """True when the environment's installed versions are the pinned ones (read from the packages'
    metadata, without importing torch: seconds saved on every run that finds it ready)."""
    wanted = {}
    for line in pins():
        name, sep, version = line.partition("==")
        if sep:
            wanted[name.strip()] = version.strip()
    code = ("import importlib.metadata as m, sys\n"
            "for n in sys.argv[1:]:\n"
            "    try: print(n, m.version(n))\n"
            "    except m.PackageNotFoundError: print(n, '-')\n")
    try:
        p = subprocess.run([python_path(folder), "-c", code, *wanted], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    have = dict(line.split(" ", 1) for line in p.stdout.splitlines() if " " in line)
    return p.returncode == 0 and all(have.get(n) == v for n, v in wanted.items())


def imports_ok(folder=None):
    """True when the environment's python imports every pinned package."""
    code = "import " + ", ".join(PACKAGES)
    try:
        return subprocess.run([python_path(folder), "-c", code], capture_output=True, timeout=300).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


if __name__ == "__main__":  # `python3 torch2_env.py`: exit 0 when ready, else the reason and exit 1
    import sys
    why = missing_reason()
    print(why or python_path(), file=sys.stderr if why else sys.stdout)
    sys.exit(1 if why else 0)
