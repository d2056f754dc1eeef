"""Neural agents: the network, its features and checkpoints, the ``neural`` agent, and the learning code
that the training scripts of ``experiments/`` share.

``agents.make("neural", game)`` loads ``agents/neural/checkpoints/<game>.pt`` (trained by
``experiments/dmc.py`` or ``experiments/ppo.py``; the command that made it is recorded beside it in
``<game>.json``); ``agents.make("neural[path=runs/.../final.pt]", game)`` loads any other checkpoint.
The agent reads only ``env.observe(agent)`` and plays the legal action its network scores highest,
in numpy (no torch call per decision). See ``docs/training.md``.

| module | contents |
|---|---|
| ``features`` | observation scaling, action features |
| ``derived`` | the derived card features (numpy: their definition) |
| ``compiled_features`` | the same features in compiled loops, what the encoder runs |
| ``network`` | ``TrickNet`` (torso, Q head, policy head, value head), ``NumpyPolicy`` |
| ``checkpoint`` | the checkpoint format, ``load_checkpoint``, the shipped checkpoints |
| ``agent`` | ``NeuralAgent`` |
| ``rollout`` | batch-env self-play bookkeeping: ``HandRecorder`` (per-seat Monte-Carlo credit), ``SeatMixer`` |
| ``training`` | run folders, seeding, resume, opponent pool, evaluation in the arena |
| ``reward_scales`` | the reward scale of an env config where the options change the units (Bavarian's tariffs) |
"""

from __future__ import annotations


def neural_available(game: str) -> bool:
    """Whether a checkpoint is shipped for ``game`` (``agents/neural/checkpoints/<game>.pt``)."""
    from pathlib import Path

    return (Path(__file__).resolve().parent / "checkpoints" / f"{game}.pt").is_file()


def make_agent(game: str, **kwargs):
    """``agents.make("neural", game, path=None, head=None)``: see ``agents.neural.agent.NeuralAgent``."""
    from .agent import NeuralAgent

    return NeuralAgent(game, **kwargs)


__all__ = ["make_agent", "neural_available"]
