"""The Python stack of every guard a ShapeEnv adds while make_fx traces, for guard provenance.

torch 1.13 keeps each guard's whole traceback; torch 2.x keeps one location per guard (SLoc): the
first frame outside its shape machinery, which for a guard raised inside a decomposition (a view
with a computed size) is a torch file, so the user line that led there would be lost. While
`recording()` is active, every ShapeEnv created keeps its guards in a list that also remembers
the stack at each append; symbolic.py falls back to it when a guard's own location names no user
frame. Only make_fx uses it: under Dynamo the stack is the interpreter's, not the user's code.
"""
import contextlib
import traceback


class _GuardList(list):
    """A ShapeEnv's guards, with the Python stack at each append (by guard identity: the list
    keeps the guards alive, so their ids stay theirs)."""

    def __init__(self, items=()):
        super().__init__(items)
        self.stacks = {}

    def append(self, guard):
        super().append(guard)
        self.stacks[id(guard)] = traceback.extract_stack()


@contextlib.contextmanager
def recording():
    try:
        from torch.fx.experimental.symbolic_shapes import ShapeEnv
    except ImportError:  # no symbolic shapes in this torch: nothing to record
        yield
        return
    original = ShapeEnv.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        if type(getattr(self, "guards", None)) is list:
            self.guards = _GuardList(self.guards)

    ShapeEnv.__init__ = init
    try:
        yield
    finally:
        ShapeEnv.__init__ = original


def recorded_stack(env, guard):
    """The stack recorded when `guard` was added to `env`'s guards, or None."""
    stacks = getattr(getattr(env, "guards", None), "stacks", None)
    return stacks.get(id(guard)) if stacks else None
