"""Benchmarks: scripts printing JSON (``docs/benchmarks.md``).

Importing ``trick_core.extras`` first makes a script whose extra is missing fail with one line naming it.
"""

import trick_core.extras  # noqa: F401  (installs the one-line report of a missing extra)
