"""How throughput scales with the batch size and the number of threads, and the plot of it.

Two sweeps for one game: steps/s of the batched env over batch sizes, for each thread count; and
random whole hands/s of the compiled driver over thread counts. ``plot`` draws both into one PNG
(matplotlib, Agg backend: no display needed).
"""

from __future__ import annotations

import numba

from .ours import batch_steps_per_second, compiled_hands_per_second


def thread_counts() -> list[int]:
    """1, 2, 4, ... up to numba's thread count (which is always included)."""
    most = numba.config.NUMBA_NUM_THREADS
    counts = []
    count = 1
    while count < most:
        counts.append(count)
        count *= 2
    return counts + [most]


def sweep(game: str, batch_sizes: list[int], min_seconds: float) -> dict:
    """``{"batch": {threads: {num_envs: steps/s}}, "random_hands": {threads: hands/s}}``."""
    batch = {}
    hands = {}
    for threads in thread_counts():
        batch[threads] = {
            size: batch_steps_per_second(game, size, threads, min_seconds)["best"] for size in batch_sizes
        }
        hands[threads] = compiled_hands_per_second(game, threads, min_seconds)["best"]
    return {"game": game, "batch": batch, "random_hands": hands}


def plot(result: dict, path: str, machine: str) -> None:
    """Write the two sweeps of ``result`` (from ``sweep``) as a PNG to ``path``."""
    from trick_core.extras import require

    matplotlib = require("plot", "matplotlib", "the scaling plot")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for threads, by_size in result["batch"].items():
        sizes = sorted(by_size)
        left.plot(sizes, [by_size[s] for s in sizes], marker="o", label=f"{threads} thread{'s' * (threads > 1)}")
    left.set_xscale("log", base=2)
    left.set_yscale("log")
    left.set_xlabel("batch size (hands stepped together)")
    left.set_ylabel("env steps per second")
    left.set_title(f"{result['game']}: batched env (obs + mask + auto-reset)")
    left.grid(True, which="both", alpha=0.3)
    left.legend()
    threads = sorted(result["random_hands"])
    right.bar([str(t) for t in threads], [result["random_hands"][t] for t in threads], color="tab:green")
    right.set_xlabel("threads")
    right.set_ylabel("random whole hands per second")
    right.set_title(f"{result['game']}: compiled random hands")
    right.grid(True, axis="y", alpha=0.3)
    figure.suptitle(machine, fontsize=9)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
