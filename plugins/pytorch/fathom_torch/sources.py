"""User-code locations ("file.py:LINE") from the stack traces PyTorch records.

FX keeps node.meta["stack_trace"] as formatted traceback text and torch 1.13's ShapeEnv keeps
each guard's traceback the same way; torch 2.x guards may carry a CapturedTraceback instead.
All of them are reduced to frames here. Node sources use the last frame (FX already cut the
trace at the user's code); guard sources skip frames inside torch, sympy, the standard library
and this package, since a guard is usually raised deep inside a decomposition and the useful
location is the user line that led there.
"""
import os
import re
import sysconfig

_FRAME = re.compile(r'File "([^"]+)", line (\d+)')


def _internal_dirs():
    dirs = []
    for mod in ("torch", "functorch", "sympy"):
        try:
            dirs.append(os.path.dirname(__import__(mod).__file__))
        except Exception:  # an absent package has no frames to skip
            pass
    dirs.append(os.path.dirname(os.path.abspath(__file__)))
    for key in ("stdlib", "platstdlib"):
        path = sysconfig.get_paths().get(key)
        if path:
            dirs.append(path)
    return tuple(d.rstrip(os.sep) + os.sep for d in dirs)


_INTERNAL = _internal_dirs()


def short_path(path):
    """`path` relative to the current directory when it lies under it, else as written."""
    cwd = os.getcwd().rstrip(os.sep) + os.sep
    if path.startswith(cwd):
        return path[len(cwd):]
    return path


def parse_frames(text):
    """[(file, line, code)] from formatted traceback text, oldest first."""
    frames = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = _FRAME.search(line)
        if not m:
            continue
        code = ""
        if i + 1 < len(lines) and not _FRAME.search(lines[i + 1]):
            code = lines[i + 1].strip()
        frames.append((m.group(1), int(m.group(2)), code))
    return frames


def frames_of(stack):
    """Frames from a traceback string, a StackSummary, a CapturedTraceback or a frame list."""
    if stack is None:
        return []
    if isinstance(stack, str):
        return parse_frames(stack)
    if hasattr(stack, "summary") and callable(stack.summary):  # torch 2.x CapturedTraceback
        try:
            stack = stack.summary()
        except Exception:
            return []
    frames = []
    try:
        for f in stack:
            if type(f) is tuple and len(f) == 3:  # already (file, line, code)
                frames.append(f)
                continue
            filename, lineno = getattr(f, "filename", None), getattr(f, "lineno", None)
            if filename is not None and lineno is not None:
                frames.append((filename, int(lineno), (getattr(f, "line", "") or "").strip()))
    except TypeError:
        return []
    return frames


_source_cache = {}


def node_source(stack_trace):
    """"file:LINE" of the last frame of a node's stack_trace, or None (cached per text)."""
    if not stack_trace:
        return None
    hit = _source_cache.get(stack_trace, False)
    if hit is not False:
        return hit
    frames = parse_frames(stack_trace)
    result = f"{short_path(frames[-1][0])}:{frames[-1][1]}" if frames else None
    _source_cache[stack_trace] = result
    return result


def user_frame(frames):
    """The last frame outside torch/sympy/stdlib/this package, or None."""
    for frame in reversed(frames):
        if not frame[0].startswith(_INTERNAL) and not frame[0].startswith("<"):
            return frame
    return None
