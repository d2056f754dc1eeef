"""Training scripts and RL-library recipes (``docs/training.md``, ``docs/rl_libraries.md``).

Importing ``trick_core.extras`` first makes a script whose extra is missing (``python -m experiments.ppo``
without torch) fail with one line naming the extra to install.
"""

import trick_core.extras  # noqa: F401  (installs the one-line report of a missing extra)
