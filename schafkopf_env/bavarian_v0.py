"""Bavarian Schafkopf (``schafkopf_env.bavarian_v0``)

One episode is one hand of four-player Bavarian Schafkopf with the bidding of a "you against three"
rule card: one round of bids (Rufer < Wenz < Solo < Wenz Tout < Solo Tout < Sie), the called ace or the
trump suit, eight tricks, settlement in units. **The rules** — every rule, every pinned interpretation and
every decision the project took where the rules are silent (B1–B11) — are `docs/rules/bavarian_schafkopf.md`.
They run in the compiled kernel ``schafkopf_env.bavarian.kernel`` (one call per step);
``schafkopf_env.bavarian.reference`` is the plain-Python twin the kernel is tested against.

```python
import numpy as np
from schafkopf_env import bavarian_v0
env = bavarian_v0.env(render_mode="ansi")
env.reset(seed=0)
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    action = None if termination or truncation else int(np.flatnonzero(observation["action_mask"])[0])
    env.step(action)
```

| | |
|---|---|
| Import | `from schafkopf_env import bavarian_v0` |
| Agents | `player_0` `player_1` `player_2` `player_3` (seat = index; play is clockwise in seat order) |
| Action space | `Discrete(46)`: 32 cards, 7 bids (`pass` to `sie`), 3 aces to call, 4 solo suits |
| Observation space | `Dict(observation=Box(0, 1, (N,), float32), action_mask=Box(0, 1, (46,), int8))` |
| N | 365 (`observation`), 1453 (`information_state`), 1581 (`perfect`) |
| Rewards | the settlement in units at the end of the hand (zero-sum); 0 before |
| Arguments | below; an unknown one raises `ValueError` |

## Arguments

- `observation_type` (default `"observation"`): `"observation"` (what the seat sees now),
  `"information_state"` (plus perfect recall of its deal and every trick), `"perfect"` (plus every seat's
  cards: for centralised critics).
- `illegal_action` (default `"raise"`): `"raise"` (`IllegalActionError` naming the move and the legal
  ones) or `"terminate"` (PettingZoo's `TerminateIllegalWrapper` convention).
- `illegal_reward` (default `-1.0`): a finite number, the offender's reward under `"terminate"`.
- `render_mode` (default `None`): `"ansi"` (`render()` returns the table as text) or `"human"` (prints it).

Bavarian Schafkopf as pinned has no rule options.

## Observation space

`observation["action_mask"]` marks the legal actions of the agent to act (all zeros for the others).
`observation["observation"]` holds all and only what the seat may know. Seats in it are **relative**:
0 = the observing seat, 1 = the next seat (left), 2 = across, 3 = the previous seat. Every entry lies in
[0, 1]; one-hots are all zero while the thing is unknown or not yet decided.

`observation_type="observation"` (365 entries):

| block | indices | size | feature |
|---|---|---|---|
| hand | 0..31 | 32 | cards held (card index) |
| dealer | 32..35 | 4 | dealer (relative seat) |
| to_act | 36..39 | 4 | seat to act (zeros once the hand is over) |
| phase | 40..44 | 5 | phase: bidding, calling, choosing_trump, playing, over |
| bids | 45..72 | 28 | bids: relative seat × (pass, rufer, wenz, solo, wenz_tout, solo_tout, sie) |
| contract | 73..78 | 6 | contract once fixed: rufer, wenz, solo, wenz_tout, solo_tout, sie |
| declarer | 79..82 | 4 | declarer (highest bidder so far) |
| trump | 83..87 | 5 | trumps: Obers, Unters and suit E, G, H, S; or Wenz (Unters only) |
| called_suit | 88..91 | 4 | suit of the called ace: E, G, H, S (H is never called) |
| partner | 92..95 | 4 | holder of the called ace, once this seat knows it (its own seat if it holds the ace) |
| called_done | 96..96 | 1 | the first trick led in the called suit is complete (the called-ace rules are over) |
| leader | 97..100 | 4 | leader of the trick in progress |
| trick | 101..228 | 128 | trick in progress: relative seat × card it played |
| played | 229..356 | 128 | completed tricks: relative seat × cards it played |
| points | 357..360 | 4 | card points taken per seat / 120 |
| tricks_won | 361..364 | 4 | tricks taken per seat / 8 |

`observation_type="information_state"` (1453 entries, perfect recall) appends:

| block | indices | size | feature |
|---|---|---|---|
| dealt_hand | 365..396 | 32 | the hand as dealt |
| trick_history | 397..1452 | 1056 | completed trick t = 0..7 at 397 + 132 t: leader (4), relative seat × card (128) |

`observation_type="perfect"` (1581 entries) appends to the information state:

| block | indices | size | feature |
|---|---|---|---|
| hands | 1453..1580 | 128 | cards every seat holds: relative seat × card |

`kernel.observation_layout(params, obs_type)` lists these blocks (the kernel writes them in this order);
`kernel.observation_size(params, obs_type)` their total.

## Action space

| index | string | meaning |
|---|---|---|
| 0..31 | `EA` `E10` `EK` `EO` `EU` `E9` `E8` `E7` `GA` … `S7` | play that card (index = suit × 8 + rank) |
| 32 | `pass` | pass in the bidding |
| 33..38 | `rufer` `wenz` `solo` `wenz_tout` `solo_tout` `sie` | bid that contract |
| 39..41 | `call:E` `call:G` `call:S` | call that ace (Rufer) |
| 42..45 | `trump:E` `trump:G` `trump:H` `trump:S` | name that trump suit (Solo, Solo Tout) |

`env.unwrapped.action_to_string(a)` / `string_to_action(s)` convert; `legal_action_strings()` lists the
legal ones.

## Rewards

At the end of the hand each agent receives its settlement in units (the sum over the episode equals
it; the four sum to zero). A thrown-in hand ends with all zeros. With `illegal_action="terminate"` an
illegal move ends the episode with `illegal_reward` (-1) for the offender and 0 for the others (PettingZoo's
`TerminateIllegalWrapper` convention); by default (`"raise"`) it raises `ValueError` naming the move and
the legal ones.

## Deals and records

`reset(seed=s)` deals at random, reproducibly. `reset(options={"dealer": d, "hands": {"player_0": [...],
...}})` fixes the deal (eight cards per agent; `dealer` defaults to 3, so that `player_0` is forehand;
`{"dealer": d}` alone deals random hands with that dealer). Bad deals raise `ValueError` naming the
unknown, duplicate or missing card or the wrong count. `game_record()` returns the JSON record and
`reset(options={"record": rec})` deals its hand again (the deal only); `replay(rec)` also plays its actions.
`public_record(agent)` is the hand as
that seat knows it: every action is public (bids, the called ace, trump, cards), so it hides only the
other hands. Also on `env.unwrapped`: `state()`, `resample_from_infostate(agent, rng)`,
`playout_values(actions, playouts, seed)`, `kernel_state()`, `clone()`.

Decisions where the rules are silent are listed, with their reasons, in
`docs/rules/bavarian_schafkopf.md#decisions-where-the-rules-are-silent` (B1–B11).

## Version history

- v0: first release.
- v0, later: takes `illegal_reward`; `state()` holds `config` (empty).
"""

from __future__ import annotations

from typing import Unpack

from schafkopf_env.bavarian import kernel
from schafkopf_env.four_hands import FourHandsEnv
from trick_core import render
from trick_core.cards import GERMAN_32
from trick_core.env_options import EnvOptions

GAME = kernel.GAME


class BavarianSchafkopfEnv(FourHandsEnv):
    """Bavarian Schafkopf as a PettingZoo AEC env (module docstring: the docs page); no rule options
    (``FourHandsEnv`` does the rest)."""

    deck = GERMAN_32
    kernel = kernel
    action_visibility: dict[str, str] = {}
    """Every action is seen by every seat (``trick_core.visibility``): no card is played face down."""

    def __init__(self, **options: Unpack[EnvOptions]) -> None:
        super().__init__({}, options)

    # ------------------------------------------------------------ inspection
    def state(self) -> dict:
        """The full deal and history as plain JSON-serialisable Python (for critics and tests)."""
        s = self._state
        contract = int(s[kernel.S_CONTRACT])
        declarer = int(s[kernel.S_DECLARER])
        trump_kind = int(s[kernel.S_TRUMP_KIND])
        over = int(s[kernel.S_PHASE]) == kernel.PHASE_OVER
        tricks, trick_in_progress = self._tricks()
        side_points, side_tricks = kernel.declarer_side_totals(s) if contract != kernel.PASS else (0, 0)
        result = [float(u) for u in self._settlement()] if over else None
        return {
            **self._common_state(),
            "bids": {
                a: kernel.CONTRACT_NAMES[int(s[kernel.S_BIDS + i])]
                for i, a in enumerate(self.possible_agents)
                if s[kernel.S_BIDS + i] >= 0
            },
            "contract": kernel.CONTRACT_NAMES[contract] if contract != kernel.PASS else None,
            "declarer": self._agent(declarer) if contract != kernel.PASS else None,
            "trump": _trump_name(trump_kind),
            "called_suit": "EGHS"[s[kernel.S_CALLED_SUIT]] if s[kernel.S_CALLED_SUIT] >= 0 else None,
            "partner": self._agent(int(s[kernel.S_PARTNER])),
            "partner_known": bool(s[kernel.S_PARTNER_KNOWN]),
            "called_ace_rules_over": bool(s[kernel.S_CALLED_DONE]),
            "trick": trick_in_progress,
            "tricks": tricks,
            "points": {a: int(s[kernel.S_POINTS + i]) for i, a in enumerate(self.possible_agents)},
            "tricks_won": {a: int(s[kernel.S_TRICKS_WON + i]) for i, a in enumerate(self.possible_agents)},
            "declarer_side_points": int(side_points),
            "declarer_side_tricks": int(side_tricks),
            "laufende": int(s[kernel.S_LAUFENDE]),
            "tout_lost": bool(s[kernel.S_TOUT_LOST]),
            "result": result,
        }

    def _tricks(self):
        s = self._state
        completed = int(s[kernel.S_TRICK_NUMBER])
        tricks = []
        for t in range(completed):
            base = kernel.S_TRICKS + t * kernel.TRICK_RECORD
            leader = int(s[base])
            tricks.append(
                {
                    "leader": self.possible_agents[leader],
                    "cards": [
                        [self.possible_agents[(leader + i) % 4], GERMAN_32.name_of(int(s[base + 1 + i]))]
                        for i in range(4)
                    ],
                    "winner": self.possible_agents[int(s[base + 5])],
                }
            )
        in_progress = []
        if int(s[kernel.S_PHASE]) == kernel.PHASE_PLAYING:
            base = kernel.S_TRICKS + completed * kernel.TRICK_RECORD
            leader = int(s[base])
            in_progress = [
                [self.possible_agents[(leader + i) % 4], GERMAN_32.name_of(int(s[base + 1 + i]))]
                for i in range(int(s[kernel.S_TRICK_SIZE]))
            ]
        return tricks, in_progress

    # ------------------------------------------------------------ render
    def _render_text(self) -> str:
        st = self.state()
        lines = [f"Bavarian Schafkopf — dealer {self.possible_agents[st['dealer']]}, phase {st['phase']}"]
        if st["contract"]:
            detail = f", trump {st['trump']}" if st["trump"] else ""
            if st["called_suit"]:
                detail += f", called ace {st['called_suit']}A"
            lines.append(f"contract {st['contract']} by {st['declarer']}{detail}")
        lines += render.seat_lines(st, self.possible_agents, lambda agent: (
            f"{' '.join(st['hands'][agent]):<32} bid {st['bids'].get(agent, ''):<9} "
            f"points {st['points'][agent]:>3} tricks {st['tricks_won'][agent]}"
        ))
        lines += render.trick_lines(st)
        if st["result"] is not None:
            lines.append("result: " + render.settlement(self.possible_agents, st["result"]))
        return "\n".join(lines)


def _trump_name(kind: int) -> str | None:
    if kind < 0:
        return None
    return "wenz" if kind == kernel.TRUMP_WENZ else "EGHS"[kind]


env = raw_env = BavarianSchafkopfEnv
"""``env(**config)`` and ``raw_env(**config)`` are the env class itself: what PettingZoo's wrappers would
add (turn order, bounds, legality) is built in, at no cost per step."""
