"""Formatting shared by the signalling report's sections (``experiments.signalling_report`` and its learned
section, ``experiments.signalling_report_learned``): intervals, significance, bits, tables, the cross-play
matrix."""

from __future__ import annotations


def _interval(row: dict) -> str:
    low, high = row["ci95"]
    return "n/a" if low is None else f"[{low:+.3f}, {high:+.3f}]"


def _significance(row: dict) -> str:
    low, high = row["ci95"]
    if low is None:
        return "no interval"
    if low > 0:
        return "significantly above zero"
    if high < 0:
        return "significantly below zero"
    return "not significantly different from zero"


def _bits(estimate: dict) -> str:
    return f"{estimate['bits']:.3f} (null {estimate['null_mean']:.3f}, p {estimate['p_value']:.3f})"


def _table_head(header: str) -> list[str]:
    """A markdown table's header row and its separator."""
    return [header, "|---" * (header.count("|") - 1) + "|"]


def _matrix_lines(matrix: dict) -> list[str]:
    """The matrix with intervals, the gap, and the table of each agent's results and metrics."""
    header = "| first \\ second | " + " | ".join(matrix["labels"]) + " |"
    lines = [f"{matrix['hands']} duplicate deals per cell.", "", *_table_head(header)]
    for i, label in enumerate(matrix["labels"]):
        cells = [f"{matrix['mean'][i][j]:+.3f} {_interval({'ci95': matrix['ci95'][i][j]})}"
                 for j in range(len(matrix["labels"]))]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    gap = matrix["gap"]
    lines += [
        "",
        f"Self-play {matrix['self_play']['mean']:+.3f} {_interval(matrix['self_play'])}, cross-play "
        f"{matrix['cross_play']['mean']:+.3f} {_interval(matrix['cross_play'])}: gap {gap['mean']:+.3f} "
        f"{_interval(gap)}, {_significance(gap)}.",
        "",
        *_table_head("| agent | self-play | cross-play (either seat) | utterances | tokens said | H(M) "
                     "| SC: next card | SC: Oles held | IC | CIC (marginal) | flip rate |"),
    ]
    for agent, m in zip(matrix["per_agent"], matrix["metrics"], strict=True):
        influence = m.get("causal_influence")
        cic = "n/a" if not influence else f"{influence['cic_bits_marginal']:.4f} ({influence['events']})"
        flips = "n/a" if not influence else f"{influence['flip_rate']:.2%}"
        lines.append(f"| {m['label']} | {agent['self_play']['mean']:+.3f} {_interval(agent['self_play'])} | "
                     f"{agent['cross_play']['mean']:+.3f} {_interval(agent['cross_play'])} | {m['utterances']} | "
                     f"{m['kinds'].get('token', 0) / max(1, m['utterances']):.0%} | {m['entropy_bits']:.2f} | "
                     f"{_bits(m['speaker_consistency']['next_action'])} | {_bits(m['speaker_consistency']['oles'])} | "
                     f"{_bits(m['instantaneous_coordination'])} | {cic} | {flips} |")
    if any(not m.get("causal_influence") for m in matrix["metrics"]):
        lines += ["", "CIC n/a: not measured in the run these numbers come from (or no intervention was possible)."]
    lines.append("")
    return lines
