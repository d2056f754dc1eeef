"""The labelled positions of ``experiments/distil.py``: how they are played and labelled (in worker
processes), and their file format, reusable by anyone who wants to train another model on a search agent's
judgement.

**How a position is made.** A worker plays whole hands through the game's PettingZoo env. Every seat is
played by the *player*: the current network (``neural[path=...]``, greedy), or at the start of a run the
``first_player`` (``rules``); with probability ``explore`` a decision with a choice is a uniformly random
legal action instead, so that positions off the player's own path are seen too. At every decision with a
choice the *teacher* (a search agent such as ``pimc`` or ``pimc_dd``, acting on the real table exactly as in
the arena: it reads only the seat's observation and ``resample_from_infostate``) is asked what it would
play, and the value it gave to every legal action on the way (``ActionValueAgent.action_values``: the mean
settlement of the seat's side after the action over its sampled worlds; the values computed inside the
teacher's own ``act`` are reused, so a label costs one search). The player's action, not the teacher's, is
then played, so the positions are those the network reaches (the DAgger rule: the learner is corrected
where it goes). When the hand ends every decision gets the deciding seat's settlement.

**File format** (``FORMAT``; one ``.npz`` per iteration, ``data/iteration_<k>.npz`` in the run folder,
``numpy.load`` reads it; ``load_labelled`` reads and checks it). ``M`` decisions, ``A`` actions of the
game's action list (``metadata["action_names"]``), ``S`` seats, ``C`` cards of the deck:

| column | dtype, shape | meaning |
|---|---|---|
| ``observation`` | float16 ``(M, obs_size)`` | ``env.observe(seat)["observation"]`` of the deciding seat |
| ``action_mask`` | bool ``(M, A)`` | its legal actions |
| ``values`` | float32 ``(M, A)`` | the teacher's value of each legal action (units); NaN elsewhere¹ |
| ``teacher_action`` | int64 ``(M,)`` | the teacher's choice (for a forced move: the only legal action) |
| ``labelled`` | bool ``(M,)`` | the teacher was asked (the decision had a choice) |
| ``action`` | int64 ``(M,)`` | the action played (the player's, or a random one) |
| ``outcome`` | float32 ``(M,)`` | the deciding seat's settlement of the hand (units) |
| ``seat`` | int64 ``(M,)`` | the deciding seat |
| ``hand`` | int64 ``(M,)`` | the hand, numbered within the file |
| ``hands`` | bool ``(M, S, C)`` | every seat's cards in hand, from the deciding seat on² |
| ``metadata`` | a 0-d string array | JSON, below |

¹ NaN for illegal actions, forced moves, and every action of a teacher that values none (e.g. ``rules``).
² Seat order starting at the deciding seat, card order of the deck (``env.unwrapped.deck``): the hidden
information, for a perfect-information critic only; a policy must not read it.

``metadata``: ``format``, ``game``, ``config``, ``teacher``, ``player``, ``explore``, ``seed``, ``iteration``,
``commit``, ``obs_size``, ``action_names``.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np

from trick_core.bits import derived_seed

FORMAT = "german-tricks-distil-1"
COLUMNS = ("observation", "action_mask", "values", "teacher_action", "labelled", "action", "outcome", "seat",
           "hand", "hands")
"""The arrays of a labelled file besides ``metadata`` (module docstring)."""


class ValueRecorder:
    """Keeps the action values an ``ActionValueAgent`` computes inside its own ``act`` (its ``action_values``,
    and its ``fallback``'s where it delegates, as ``pimc_dd`` does), so that labelling a position with the
    teacher's choice and its values costs one search, not two."""

    def __init__(self, teacher) -> None:
        self.teacher = teacher
        self.calls: list[tuple[np.ndarray | None, np.ndarray]] = []
        self.values_actions = callable(getattr(teacher, "action_values", None))
        for agent in (teacher, getattr(teacher, "fallback", None)):
            if agent is not None and callable(getattr(agent, "action_values", None)):
                agent.action_values = self._recording(agent.action_values)

    def _recording(self, original):
        def action_values(env, name, legal=None):
            values = original(env, name, legal)
            self.calls.append((None if legal is None else np.asarray(legal).copy(), np.asarray(values, np.float64)))
            return values

        return action_values

    def label(self, env, name: str, legal: np.ndarray, num_actions: int) -> tuple[int, np.ndarray]:
        """``(choice, values)``: the teacher's action and its value of every legal action (``(num_actions,)``,
        NaN elsewhere; all NaN for a teacher that values nothing)."""
        self.calls.clear()
        choice = int(self.teacher.act(env, name))
        values = np.full(num_actions, np.nan, dtype=np.float32)
        if not self.values_actions:
            return choice, values
        found = [v for asked, v in self.calls if asked is not None and np.array_equal(np.sort(asked), legal)]
        if not found:  # act() searched a subset (or nothing, e.g. a cautious pass): value every legal action
            found = [np.asarray(self.teacher.action_values(env, name, legal), np.float64)]
        values[legal] = found[-1]
        return choice, values


def play_labelled_hands(game: str, config: dict, teacher: str, player: str, explore: float, seed: int,
                        hands: int) -> dict:
    """``hands`` hands played by ``player`` at every seat and labelled by ``teacher`` (one worker; module
    docstring). ``player`` and ``teacher`` are ``agents.make`` specs."""
    from agents import make
    from agents.neural.training import set_threads
    from trick_core.registry import make_env

    set_threads(1, 1)
    env = make_env(game, **config)
    table = env.unwrapped
    acting, judge = make(player, game), make(teacher, game)
    recorder = ValueRecorder(judge)
    rng = np.random.default_rng(seed)
    num_actions, num_seats, num_cards = len(table.action_names), table.num_seats, table.deck.num_cards
    card_bits = np.int64(1) << np.arange(num_cards, dtype=np.int64)
    columns: dict[str, list] = {key: [] for key in COLUMNS}
    for hand in range(hands):
        env.reset(seed=derived_seed(seed, hand))
        for number, agent in enumerate((acting, judge)):
            if callable(getattr(agent, "reset", None)):
                agent.reset(derived_seed(seed, hand, number + 1))
        seats = []
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            name = env.agent_selection
            seen = env.observe(name)
            legal = np.flatnonzero(seen["action_mask"])
            seat = table.agent_name_mapping[name]
            if legal.size > 1:
                choice, values = recorder.label(env, name, legal, num_actions)
                action = int(rng.choice(legal)) if rng.random() < explore else int(acting.act(env, name))
            else:
                choice, values, action = int(legal[0]), np.full(num_actions, np.nan, np.float32), int(legal[0])
            state = table.kernel_state()
            held = state[table.kernel.S_HANDS : table.kernel.S_HANDS + num_seats]
            held = np.roll(held, -seat)  # the deciding seat first
            columns["observation"].append(seen["observation"].astype(np.float16))
            columns["action_mask"].append(seen["action_mask"].astype(bool))
            columns["values"].append(values)
            columns["teacher_action"].append(choice)
            columns["labelled"].append(legal.size > 1)
            columns["action"].append(action)
            columns["seat"].append(seat)
            columns["hand"].append(hand)
            columns["hands"].append((held[:, None] & card_bits[None, :]) != 0)
            seats.append(seat)
            env.step(action)
        settlement = table.game_record()["result"]
        columns["outcome"].extend(float(settlement[seat]) for seat in seats)
    dtypes = {"observation": np.float16, "action_mask": bool, "values": np.float32, "teacher_action": np.int64,
              "labelled": bool, "action": np.int64, "outcome": np.float32, "seat": np.int64, "hand": np.int64,
              "hands": bool}
    return {key: np.asarray(columns[key], dtype=dtypes[key]) for key in COLUMNS}


def label_in_workers(game: str, config: dict, teacher: str, player: str, explore: float, seed: int, hands: int,
                     workers: int) -> dict:
    """``play_labelled_hands`` over ``workers`` processes (each its share of the hands and its own seed), the
    parts joined with hand numbers unique in the whole."""
    shares = [hands // workers + (w < hands % workers) for w in range(workers)]
    jobs = [(game, config, teacher, player, explore, derived_seed(seed, w), share)
            for w, share in enumerate(shares) if share]
    if len(jobs) == 1:
        parts = [play_labelled_hands(*jobs[0])]
    else:
        import multiprocessing

        from trick_core.worker_pool import map_in_workers

        parts = map_in_workers(play_labelled_hands, jobs, len(jobs), mp_context=multiprocessing.get_context("fork"))
    offset = 0
    for part in parts:
        part["hand"] = part["hand"] + offset
        offset = int(part["hand"].max()) + 1
    return {key: np.concatenate([part[key] for part in parts]) for key in COLUMNS}


def save_labelled(path: str | Path, data: dict, metadata: dict) -> Path:
    """Write one labelled file (``FORMAT``; ``metadata`` gets ``format``), atomically."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    missing = [column for column in COLUMNS if column not in data]
    if missing:
        raise ValueError(f"labelled data lacks the columns {missing}")
    partial = path.with_name(path.name + ".partial.npz")
    np.savez_compressed(partial, metadata=np.array(json.dumps({"format": FORMAT, **metadata})),
                        **{column: data[column] for column in COLUMNS})
    partial.replace(path)
    return path


def load_labelled(path: str | Path, game: str | None = None, config: dict | None = None) -> dict:
    """The arrays of a labelled file (``COLUMNS``) and its ``metadata`` (a dict), checked: the format, every
    column with one row per decision, and (when given) the ``game`` and ``config`` it was made for.
    ``ValueError`` names what is wrong."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no labelled data at {str(path)!r}")
    try:
        with np.load(path, allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in archive.files}
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise ValueError(f"{str(path)!r} is not labelled data (an .npz of experiments.distil): {error}") from None
    try:
        metadata = json.loads(str(arrays.pop("metadata")))
    except (KeyError, json.JSONDecodeError):
        raise ValueError(f"{str(path)!r} has no readable metadata: not labelled data of experiments.distil") from None
    if metadata.get("format") != FORMAT:
        raise ValueError(f"{str(path)!r} is of format {metadata.get('format')!r}, not {FORMAT!r}")
    missing = [column for column in COLUMNS if column not in arrays]
    if missing:
        raise ValueError(f"labelled data {str(path)!r} lacks the columns {missing}")
    rows = {column: arrays[column].shape[0] for column in COLUMNS}
    if len(set(rows.values())) != 1:
        raise ValueError(f"labelled data {str(path)!r}: columns of different lengths {rows}")
    if game is not None and (metadata.get("game"), metadata.get("config")) != (game, dict(config or {})):
        raise ValueError(f"labelled data {str(path)!r} is of {metadata.get('game')} {metadata.get('config')}, "
                         f"not {game} {dict(config or {})}")
    return {**arrays, "metadata": metadata}
