"""Transitional: the Palatinate playout policy in the protocol of ``trick_core.drivers``."""

from schafkopf_env.playouts import SCRATCH_SIZE  # noqa: F401
from schafkopf_env.playouts import _palatinate_step as choose_action  # noqa: F401
from schafkopf_env.playouts import palatinate_heuristic_action as heuristic_action  # noqa: F401
