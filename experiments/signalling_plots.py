"""The plots of the signalling study (``experiments.signalling_study``), from its results."""

from __future__ import annotations

import numpy as np

from .signalling_report import measured_agents


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(plt, figure, path: str) -> None:
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def _finish_bars(plt, figure, axis, xlabel: str, path: str) -> None:
    """Agents top to bottom, the legend, and the file."""
    axis.invert_yaxis()
    axis.set_xlabel(xlabel)
    axis.legend(loc="lower right", fontsize=8)
    _save(plt, figure, path)


def _bar_with_interval(axis, labels, rows, colour):
    means = [row["first_minus_second"] for row in rows]
    errors = np.array([[m - (row["ci95"][0] if row["ci95"][0] is not None else m),
                        (row["ci95"][1] if row["ci95"][1] is not None else m) - m] for m, row in zip(means, rows,
                                                                                                   strict=True)]).T
    axis.barh(labels, means, xerr=errors, color=colour, alpha=0.8, capsize=4)
    axis.axvline(0.0, color="black", linewidth=0.8)
    axis.invert_yaxis()


def plot_talk(results: dict, path: str) -> None:
    plt = _pyplot()
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 3.2))
    value = results["value_of_talk"]
    _bar_with_interval(left, [f"talk {k}" for k in value], list(value.values()), "tab:blue")
    left.set_title("value of talk: talker - silent deaf talker")
    left.set_xlabel("units per hand (95% CI over deals)")
    scramble = results["scramble"]
    _bar_with_interval(right, [f"talk {k}" for k in scramble], list(scramble.values()), "tab:orange")
    right.set_title("scramble loss: talker - talker hearing scrambled partner")
    right.set_xlabel("units per hand (95% CI over deals)")
    _save(plt, figure, path)


def plot_metrics(results: dict, path: str) -> None:
    plt = _pyplot()
    names, entropy, consistency, coordination = [], [], [], []
    for talk, label, m in measured_agents(results):
        names.append(f"{label} ({talk})")
        entropy.append(m["entropy_bits"])
        consistency.append(m["speaker_consistency"]["next_action"]["above_null"])
        coordination.append(m["instantaneous_coordination"]["above_null"])
    positions = np.arange(len(names))
    figure, axis = plt.subplots(figsize=(11, 0.5 * len(names) + 2))
    width = 0.27
    axis.barh(positions - width, entropy, width, label="message entropy H(M)")
    axis.barh(positions, consistency, width, label="speaker consistency I(M; own next card) above null")
    axis.barh(positions + width, coordination, width,
              label="instantaneous coordination I(M; partner's next) above null")
    axis.set_yticks(positions, names)
    _finish_bars(plt, figure, axis, "bits", path)


def plot_truth(results: dict, path: str) -> None:
    plt = _pyplot()
    names, shares = [], []
    for talk, label, m in measured_agents(results):
        names.append(f"{label} ({talk})")
        shares.append([m["truth"][v] / max(1, m["utterances"]) for v in ("true", "false", "uncheckable")])
    shares = np.array(shares)
    figure, axis = plt.subplots(figsize=(9, 0.45 * len(names) + 1.8))
    left = np.zeros(len(names))
    for column, (value, colour) in enumerate((("true", "tab:green"), ("false", "tab:red"),
                                              ("uncheckable", "tab:gray"))):
        axis.barh(names, shares[:, column], left=left, color=colour, label=value)
        left += shares[:, column]
    _finish_bars(plt, figure, axis, "share of utterances (silence, shows and questions are uncheckable)", path)


def plot_crossplay(matrix: dict, path: str) -> None:
    plt = _pyplot()
    values = np.array(matrix["mean"])
    figure, axis = plt.subplots(figsize=(1.1 * len(values) + 3, 1.0 * len(values) + 2))
    image = axis.imshow(values, cmap="RdYlGn")
    for i in range(len(values)):
        for j in range(len(values)):
            axis.text(j, i, f"{values[i, j]:+.2f}", ha="center", va="center", fontsize=8)
    axis.set_xticks(range(len(values)), matrix["labels"], rotation=30, ha="right", fontsize=8)
    axis.set_yticks(range(len(values)), matrix["labels"], fontsize=8)
    axis.set_xlabel("second partner")
    axis.set_ylabel("first partner")
    axis.set_title("units per hand against the silent deaf rule team")
    figure.colorbar(image)
    _save(plt, figure, path)


def plot_partners(results: dict, path: str) -> None:
    plt = _pyplot()
    figure, axes = plt.subplots(1, 2, figsize=(11, 3.6), sharey=True)
    for axis, (game, per_agent) in zip(axes, results.items(), strict=True):
        for agent, entry in per_agent.items():
            if not entry.get("ace_call_hands"):
                continue
            for role, style in (("public", "-"), ("declarer", "--"), ("defender", ":")):
                trajectory = entry["posterior_on_holder"][role]
                points = sorted(trajectory, key=int)  # JSON keys are strings
                axis.plot([int(p) for p in points], [trajectory[p] for p in points], style, label=f"{agent}, {role}")
        axis.set_title(f"{game}: posterior on the true partner")
        axis.set_xlabel("cards played")
        axis.set_xticks(range(0, 33, 4))
    axes[0].set_ylabel("mean probability")
    axes[1].legend(fontsize=7, loc="lower right")
    _save(plt, figure, path)
