"""The optional parts of the project and the pip extra that installs each, in one place.

A core install (``pip install german-tricks``) brings the games, the envs, the rule-based and search
agents, the arena and the tournament. Everything else needs an extra; where one is missing, the feature
fails with one line naming the extra to install, not with a ``ModuleNotFoundError`` from deep inside:

| extra | brings | for |
|---|---|---|
| ``torch`` | torch, tensorboard | the ``neural`` and ``pimc_neural`` agents, ``experiments/`` training |
| ``play`` | fastapi, uvicorn, markdown-it-py | ``python -m play`` (the table in a browser) |
| ``plot`` | matplotlib | ``--plot`` / ``--plot-dir`` of the arena and tournament, plots of benchmarks and studies |
| ``sb3`` / ``torchrl`` / ``tianshou`` | the library | the RL-library recipes of ``experiments/`` |
| ``ray`` / ``rllib`` | Ray / RLlib | ``--backend ray``, ``experiments.ray_*`` / the RLlib recipe |

Two ways in, one message: ``require(extra, module)`` imports an optional module for library code (and
raises ``MissingExtraError``, which is both an ``ImportError`` and a ``ValueError``: the commands' option
checks, ``trick_core.command_line.checked``, print it as one line); and ``install_excepthook()``, run on
importing this module (the packages with commands import it first), prints an uncaught
``MissingExtraError`` — or an uncaught ``ModuleNotFoundError`` of a module listed here, such as a command's
top-level ``import torch`` — as that one line, so that ``python -m experiments.ppo --help`` without torch
says what to install.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

DISTRIBUTION = "german-tricks"

EXTRA_MODULES: dict[str, tuple[str, ...]] = {
    "torch": ("torch", "tensorboard"),
    "play": ("fastapi", "uvicorn", "markdown_it", "starlette"),
    "plot": ("matplotlib",),
    "sb3": ("stable_baselines3", "sb3_contrib"),
    "torchrl": ("torchrl", "tensordict"),
    "tianshou": ("tianshou",),
    "rllib": ("ray.rllib",),
    "ray": ("ray",),
    "dev": ("pytest", "hypothesis", "playwright"),
}
"""Top-level modules each extra brings (a module listed under two extras counts for the first, so
``ray.rllib`` is looked up before ``ray``)."""

COMMAND_EXTRAS = {
    "experiments.sb3_maskable_ppo": "sb3",
    "experiments.torchrl_pettingzoo": "torchrl",
    "experiments.tianshou_pettingzoo": "tianshou",
    "experiments.rllib_pettingzoo": "rllib",
}
"""Commands whose extra brings torch too (the RL-library recipes): a missing torch there names the recipe's
extra, which is what its user has to install."""


TORCH_EXTRAS = ("torch", "sb3", "torchrl", "tianshou", "rllib")
"""Extras that bring torch, a CUDA build from PyPI on Linux unless the PyTorch CPU index is named."""


class MissingExtraError(ImportError, ValueError):
    """An optional feature whose extra is not installed; ``str()`` is the one line telling what to install."""

    def __init__(self, extra: str, module: str, feature: str | None = None) -> None:
        self.extra = extra
        self.module = module
        needs = f"{feature} needs" if feature else "needs"
        super().__init__(
            f"{needs} the [{extra}] extra ({module} is not installed): pip install '{DISTRIBUTION}[{extra}]'"
            + (" (README: 'Installing with pip' for a CPU or CUDA build of torch)" if extra in TORCH_EXTRAS else ""),
            name=module,
        )


def extra_of(module: str) -> str | None:
    """The extra that installs ``module`` (a dotted name: its longest listed prefix), or None."""
    for extra, modules in EXTRA_MODULES.items():
        if any(module == listed or module.startswith(listed + ".") for listed in modules if "." in listed):
            return extra
    top = module.split(".")[0]
    for extra, modules in EXTRA_MODULES.items():
        if top in modules:
            return extra
    return None


def require(extra: str, module: str | None = None, feature: str | None = None) -> ModuleType:
    """Import ``module`` (default: the first module of ``extra``), or raise ``MissingExtraError`` naming
    ``extra`` when it, or a module it needs from the same extra, is not installed. A missing module that no
    extra lists is a broken install, not a missing extra: its ``ModuleNotFoundError`` passes unchanged."""
    if extra not in EXTRA_MODULES:
        raise ValueError(f"unknown extra {extra!r}; choose from {sorted(EXTRA_MODULES)}")
    module = module or EXTRA_MODULES[extra][0]
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        missing = error.name or module
        if extra_of(missing) is None and not module.startswith(missing):
            raise
        raise MissingExtraError(extra_of(missing) or extra, missing, feature) from None


def one_line(error: BaseException, command: str | None = None) -> str | None:
    """The line an uncaught ``error`` of ``command`` (``agents.arena``) is reported as, when it is a missing
    extra; else None."""
    if isinstance(error, MissingExtraError):
        extra, module = error.extra, error.module
    elif isinstance(error, ModuleNotFoundError) and error.name and extra_of(error.name):
        extra, module = extra_of(error.name), error.name
    else:
        return None
    if command in COMMAND_EXTRAS and extra in ("torch", COMMAND_EXTRAS[command]):
        extra = COMMAND_EXTRAS[command]
    if isinstance(error, MissingExtraError) and extra == error.extra:
        return str(error)  # keeps the feature it names
    return str(MissingExtraError(extra, module))


def install_excepthook() -> None:
    """Print an uncaught missing extra as one line (``program: ...``) and exit with status 1; every other
    exception goes to the hook that was there before. Installing twice is harmless."""
    previous = sys.excepthook
    if getattr(previous, "reports_missing_extras", False):
        return

    def hook(kind, error, traceback):
        from .command_line import program_name

        line = one_line(error, program_name())
        if line is None:
            previous(kind, error, traceback)
            return
        print(f"{program_name()}: {line}", file=sys.stderr)

    hook.reports_missing_extras = True
    sys.excepthook = hook


install_excepthook()
