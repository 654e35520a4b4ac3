"""The one error the exporter raises on purpose.

Anything the dump format cannot say (a call_module node, a complex dtype, an argument of an
unknown Python type, a symbolic expression outside Fathom's grammar) is refused with an
UnsupportedGraph whose message names the node or expression, so the user knows what to change.
"""


class UnsupportedGraph(ValueError):
    """The graph holds something a Fathom dump cannot represent."""
