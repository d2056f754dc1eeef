"""Palatinate Schafkopf (``schafkopf_env.palatinate_v0``)

One episode is one hand of Palatinate Schafkopf as played around Dahn: 32 French cards, three active
players with ten cards each and two cards in the skat; with ``players=4`` the dealer sits out. The rules,
with every pinned interpretation and decision, are ``docs/rules/palatinate_schafkopf.md`` (sections 1
and 2); they run in the compiled kernel ``schafkopf_env.palatinate.kernel`` (one call per step), tested
against the plain-Python twin ``schafkopf_env.palatinate.reference``.

```python
import numpy as np
from schafkopf_env import palatinate_v0

env = palatinate_v0.env(players=4, render_mode="ansi")
env.reset(seed=42)
rng = np.random.default_rng(0)
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    if termination or truncation:
        env.step(None)
    else:  # a uniformly random legal action
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
print(env.render())  # the table at the end: contract, tricks, settlement
```

| | |
|---|---|
| Import | `from schafkopf_env import palatinate_v0` |
| Agents | `player_0` `player_1` `player_2` (`players=4`: and `player_3`); seat = index, clockwise |
| Action space | `Discrete(81)` |
| Observation space | `Dict(observation=Box(0, 1, (N,), float32), action_mask=Box(0, 1, (81,), int8))` |
| N (`players=3`, `max_doublings=4`) | 393 (`observation`), 1383 (`information_state`), 1511 (`perfect`) |
| N (`players=4`, `max_doublings=4`) | 461 (`observation`), 1781 (`information_state`), 1941 (`perfect`) |
| Rewards | the settlement in game-value units at the end of the hand (zero-sum); 0 before |

The rules in brief (the rules page has them in full):

- **Cards and play.** ``C S H D`` × ``A 10 K Q J 9 8 7`` (A 11, 10 10, K 4, Q 3, J 2: 120 points). All
  Queens and Jacks are permanent top trumps, ``CQ SQ HQ DQ CJ SJ HJ DJ``, then the trump suit's
  ``A 10 K 9 8 7``. Follow the led effective suit if you can, otherwise play anything; the highest trump
  wins, else the highest card of the led suit; the winner leads. Forehand (left of the dealer) speaks and
  leads first.
- **Round one**: each active player once, from forehand: ``pass`` or a solo kind higher than any named
  before (``solo`` < ``heart_solo`` < ``solo_du`` < ``heart_solo_du``); the declarer of a ``solo`` or
  ``solo_du`` names ``trump:C|S|D``. The skat stays unseen but counts for the declarer. **Round two** (all
  passed): the first to say ``simple`` takes the skat, lays two cards away (``discard:<card>``, twice) and
  names any trump; all passing again throws the hand in.
- **Schenken** (not in a Du): the opponents may offer to give up; if both do, the declarer accepts (wins at
  once) or refuses (must make the opponents schneider). **Contra**: an opponent is asked before their own
  first card; after a double the others are asked in turn, the sides doubling alternately (``re``), up to
  ``max_doublings``.
- **Value**: game 1, hearts +1, schneider +1, schwarz +1, solo +1, hoch (top trumps in sequence from
  ``CQ``, counted from three) +count; Du ×2; each double ×2. Each other seat pays the value to the declarer
  or receives it, the sitting-out dealer included.

## Arguments

``env(players=3, max_doublings=4, render_mode=None, observation_type="observation", illegal_action="raise",
illegal_reward=-1.0)``

- ``players``: 3, or 4 (the dealer takes no part, never acts and scores as an opponent, so the declarer
  receives or pays the value three times and the table stays zero-sum).
- ``max_doublings``: cap on contra, re, ... (0..10; 0 switches doubling off).
- ``render_mode``: ``None``, ``"ansi"`` or ``"human"``.
- ``observation_type``: ``"observation"``, ``"information_state"`` or ``"perfect"``.
- ``illegal_action``: ``"raise"`` or ``"terminate"``.
- ``illegal_reward``: a finite number (default -1.0), the offender's reward under ``"terminate"``. Unknown
  options raise ``ValueError``.

## Observation space

``observation["action_mask"]`` marks the legal actions of the agent to act (all zeros for the others).
``observation["observation"]`` holds all and only what the seat may know: its own hand, the bids, contract
and trump, schenken and doublings, every card played and by whom, the trick points and tricks taken; the
skat a simple-game declarer picked up and their discards appear only in the declarer's own observation;
the skat of a solo is shown to nobody (not even at the end). All values lie in [0, 1]. Positions are
relative to the observing seat: position 0 is the seat itself, 1 the next seat clockwise, and so on
(``n = players`` positions; with four, the sitting-out dealer has one too). ``information_state`` adds the
full trick history (perfect recall); ``perfect`` adds every hand and the skat, and shows the skat taken and
the discards to every seat. With ``D = max_doublings`` the sizes are ``84n + 117 + D(n + 3)``
(observation), ``414n + 117 + D(n + 3)`` (information_state) and ``446n + 149 + D(n + 3)`` (perfect). The
blocks, with indices for ``players=3, max_doublings=4``:

| block | indices | size | meaning |
|---|---|---|---|
| dealer | 0..2 | n | one-hot position of the dealer |
| to_act | 3..5 | n | one-hot position of the player to act (zeros once over) |
| phase | 6..15 | 10 | one-hot phase (order of ``kernel.PHASE_NAMES``: bid_one, trump, ... play, over) |
| hand | 16..47 | 32 | own cards held now (with the skat while a simple-game declarer discards) |
| bid_one | 48..62 | 5n | per position: pass, solo, heart_solo, solo_du, heart_solo_du |
| bid_two | 63..68 | 2n | per position: pass, simple |
| declarer | 69..71 | n | one-hot position of the declarer |
| contract | 72..76 | 5 | one-hot: simple, solo, heart_solo, solo_du, heart_solo_du |
| trump | 77..80 | 4 | one-hot trump suit C, S, H, D |
| skat_taken | 81..112 | 32 | the skat picked up in a simple game (the declarer only) |
| discards | 113..144 | 32 | the discards of a simple game (the declarer only) |
| schenken | 145..150 | 2n | per position: schenken, no_schenken |
| schenken_answer | 151..152 | 2 | the declarer's accept, refuse |
| doublings | 153..176 | D(n+3) | per double k: one-hot doubler position, one-hot cards in trick 1 then |
| played | 177..272 | 32n | per position: the cards it has played |
| trick | 273..368 | 32n | per position: its card in the trick in progress |
| leader | 369..371 | n | one-hot position of the leader of the trick in progress (during play) |
| points | 372..374 | n | per position: card points in its tricks / 120 |
| tricks_won | 375..377 | n | per position: tricks won / 10 |
| voids | 378..392 | 5n | per position: suits shown lacking (did not follow when led), C, S, H, D, trumps |
| trick_history | 393..1382 | 10(n+32n) | not in ``observation``: per trick, leader position, each one's card |
| hands | 1383..1478 | 32n | ``perfect`` only: per position, the cards it holds now |
| skat | 1479..1510 | 32 | ``perfect`` only: the two skat cards as dealt |

``trick_history`` holds every trick begun, the one in progress included (its leader and the cards played
so far). ``schafkopf_env.palatinate.kernel.observation_layout(params, obs_type)`` lists the blocks for any
configuration (the kernel writes them in that order), ``observation_size(params, obs_type)`` their total.

## Action space

| index | string | when |
|---|---|---|
| 0..31 | ``CA`` ``C10`` ``CK`` ``CQ`` ``CJ`` ``C9`` ``C8`` ``C7`` ``SA`` ... ``D7`` | play that card |
| 32..63 | ``discard:CA`` ... ``discard:D7`` | the simple-game declarer lays a card away (twice) |
| 64 | ``pass`` | both bidding rounds |
| 65..68 | ``solo`` ``heart_solo`` ``solo_du`` ``heart_solo_du`` | round one |
| 69 | ``simple`` | round two |
| 70..73 | ``trump:C`` ``trump:S`` ``trump:H`` ``trump:D`` | the declarer names trump (a solo: not hearts) |
| 74 | ``contra`` | the first double (an opponent at their first card) |
| 75 | ``re`` | any further double |
| 76 | ``no_double`` | declining to double |
| 77, 78 | ``schenken`` ``no_schenken`` | an opponent offers to give up, or not |
| 79, 80 | ``accept`` ``refuse`` | the declarer's answer to the offer |

``env.unwrapped.action_to_string(a)`` / ``string_to_action(s)`` convert; ``legal_action_strings()`` lists
the legal ones.

## Rewards

At the end of the hand every agent receives its settlement in game-value units: zero-sum, all zeros for a
thrown-in hand; nothing is paid before the end. With ``illegal_action="terminate"`` an illegal move ends
the episode with ``illegal_reward`` (-1) for the offender and 0 for the others (PettingZoo's ``TerminateIllegalWrapper``
convention); by default (``"raise"``) it raises ``ValueError`` naming the move and the legal ones.

## Deals and records

``reset(seed=s)`` deals at random, reproducibly, with a uniformly drawn dealer.
``reset(options={"dealer": d, "hands": {agent: [ten cards], ...}, "skat": [c1, c2]})`` fixes the deal;
with ``players=4`` ``hands`` names exactly the three players other than the dealer. Without ``"dealer"``
the seat before ``player_0`` deals (``player_2``, or ``player_3`` with four), so that ``player_0`` is
forehand. ``reset(options={"dealer": d})`` alone deals random cards with that dealer. Bad deals raise
``ValueError`` naming the unknown, duplicate or missing card or the wrong count. ``game_record()`` returns
the JSON record; ``reset(options={"record": rec})`` deals its hand again (the deal only) and ``replay(rec)``
also plays its actions.
``public_record(agent)`` is the hand as that seat knows it (what an agent in the arena may read): a card
laid away reads ``discard:?`` to every seat but the declarer (``PalatinateEnv.action_visibility``). Also on
``env.unwrapped``: ``state()`` (the full state as JSON-serialisable Python), ``clone()``,
``resample_from_infostate(agent, rng)``, ``playout_values(actions, playouts, seed)``, ``kernel_state()``.

Decisions where the rules are silent: P1–P14 of ``docs/rules/palatinate_schafkopf.md``
(``#decisions-palatinate-schafkopf``).

## Version history

- v0: first release (three players, optional sitting-out dealer, schenken, contra with a cap).
- v0, later: takes ``illegal_reward``; in ``state()`` the dealer is a seat index as in ``reset`` options and
  game records (it was the agent's name), and ``dealt`` is called ``dealt_hands`` as in the other games.
- v0, later: the observation gains the ``voids`` block after ``tricks_won``, the suits each seat has shown it
  lacks (the ``played`` block has no order of play to tell them); networks saved before it load with
  zero weights on it (``agents.neural.checkpoint``) and play as they did.
"""

from __future__ import annotations

from typing import Unpack

import numpy as np

from schafkopf_env.palatinate import kernel
from trick_core import render
from trick_core.cards import FRENCH_32
from trick_core.deal import DealBuilder, parse_dealer, parse_hands
from trick_core.env_options import OBSERVATION_TYPES, EnvOptions, check_env_options
from trick_core.kernel_env import Deal, KernelEnv, make_deal
from trick_core.visibility import SEEN_BY_ACTOR

GAME = kernel.GAME


class PalatinateEnv(KernelEnv):
    """Palatinate Schafkopf as a PettingZoo AEC env (module docstring: the docs page)."""

    kernel = kernel
    deck = FRENCH_32
    action_visibility = {"discard": SEEN_BY_ACTOR}
    """Who sees the card of a hidden action (``trick_core.visibility``): the simple game's declarer lays
    two cards away unseen (rules: the simple game; decision P2). Every other action is public."""

    def __init__(
        self,
        players: int = 3,
        max_doublings: int = 4,
        **options: Unpack[EnvOptions],
    ) -> None:
        check_env_options(GAME, options)
        params = kernel.make_params(players=players, max_doublings=max_doublings)
        config = {"players": int(players), "max_doublings": int(max_doublings)}
        super().__init__(int(players), config, **options)
        obs_type = OBSERVATION_TYPES.index(self.observation_type)
        self._setup_kernel(params, kernel.observation_size(params, obs_type))

    # ------------------------------------------------------------ deals
    # A deal is the kernel's deal-cards array: the ten cards of each active seat in increasing seat
    # number, then the two skat cards. A random deal is a permutation drawn from the env's generator (its
    # order is what the records list).

    def _active_seats(self, dealer: int) -> list[int]:
        """Seats dealt to, in increasing seat number (the deal-cards order of the kernel)."""
        return [s for s in range(self.num_seats) if not (self.num_seats == 4 and s == dealer)]

    def _random_deal(self, rng: np.random.Generator, dealer: int = -1) -> Deal:
        """A shuffled pack from the env's generator; ``dealer`` -1 draws the dealer first."""
        if dealer < 0:
            dealer = int(rng.integers(self.num_seats))
        return make_deal(dealer, rng.permutation(kernel.NUM_CARDS).astype(np.int64))

    def _parse_deal(self, options: dict) -> Deal:
        if "stock" in options:
            raise ValueError(f"{GAME}: reset option 'stock' belongs to Knüffeln; this game has a 'skat'")
        dealer = parse_dealer(options, self.num_seats, GAME, default=self.num_seats - 1)
        if "hands" not in options and "skat" not in options:
            return self._random_deal(self._generator(), dealer)
        builder = DealBuilder(FRENCH_32, GAME)
        agents = [self.possible_agents[s] for s in self._active_seats(dealer)]
        hands = parse_hands(builder, options, agents, kernel.HAND_SIZE)
        if "skat" not in options:
            raise ValueError(f"{GAME}: reset option 'skat' must list the two skat cards")
        skat = builder.take(options["skat"], "skat", kernel.SKAT_SIZE)
        builder.require_complete()
        cards = [card for agent in agents for card in hands[agent]] + skat
        return Deal(dealer, np.array(cards, dtype=np.int64))

    def _deal_options(self, deal: Deal) -> dict:
        names = [FRENCH_32.name_of(int(c)) for c in deal.cards]
        hands = {}
        for i, seat in enumerate(self._active_seats(deal.dealer)):
            hands[self.possible_agents[seat]] = names[i * kernel.HAND_SIZE : (i + 1) * kernel.HAND_SIZE]
        return {"dealer": int(deal.dealer), "hands": hands, "skat": names[-kernel.SKAT_SIZE :]}

    def _deal_from_state(self, state: np.ndarray) -> Deal:
        dealer = int(state[kernel.S_DEALER])
        cards = []
        for seat in self._active_seats(dealer):
            cards += FRENCH_32.cards_of(int(state[kernel.S_DEALT_HANDS + seat]))
        cards += FRENCH_32.cards_of(int(state[kernel.S_SKAT]))
        return Deal(dealer, np.array(cards, dtype=np.int64))

    # ------------------------------------------------------------ inspection

    def state(self) -> dict:
        """The full state as plain Python (JSON-serialisable)."""
        s = self._state
        names = self.possible_agents
        contract = int(s[kernel.S_CONTRACT])
        trump = int(s[kernel.S_TRUMP])
        return {
            **self._common_state(),
            "skat": self._card_names(s[kernel.S_SKAT]),
            "bids_round_one": self._answers(kernel.S_BID_ONE, ("pass", *kernel.CONTRACT_NAMES[1:])),
            "bids_round_two": self._answers(kernel.S_BID_TWO, ("pass", "simple")),
            "declarer": self._agent(int(s[kernel.S_DECLARER])),
            "contract": kernel.CONTRACT_NAMES[contract] if contract >= 0 else None,
            "trump": FRENCH_32.suits[trump] if trump >= 0 else None,
            "discards": self._card_names(s[kernel.S_DISCARDS]),
            "schenken": self._answers(kernel.S_SCHENKEN, ("no_schenken", "schenken")),
            "schenken_answer": [None, "accept", "refuse"][int(s[kernel.S_SCHENKEN_ANSWER])],
            "doublings": int(s[kernel.S_DOUBLINGS]),
            "doublers": [names[int(s[kernel.S_DOUBLER + k])] for k in range(int(s[kernel.S_DOUBLINGS]))],
            "trick": self._trick_in_progress(),
            "tricks": self._completed_tricks(),
            "points": {names[i]: int(s[kernel.S_POINTS + i]) for i in range(self.num_seats)},
            "tricks_won": {names[i]: int(s[kernel.S_TRICKS_WON + i]) for i in range(self.num_seats)},
            "result": self._result(),
        }

    def _answers(self, offset: int, words: tuple[str, ...]) -> dict[str, str]:
        """Per seat asked, the word of its answer code (``state[offset + seat]``, -1: not asked)."""
        codes = self._state[offset : offset + self.num_seats]
        return {self.possible_agents[i]: words[int(code)] for i, code in enumerate(codes) if code >= 0}

    def _played_in_order(self, leader: int, cards) -> list[list[str]]:
        """``[[agent, card], ...]`` of cards played from ``leader`` on, in the table's order."""
        played, player = [], leader
        for card in cards:
            played.append([self.possible_agents[player], FRENCH_32.name_of(int(card))])
            player = int(self._state[kernel.S_NEXT + player])
        return played

    def _completed_tricks(self) -> list[dict]:
        logs = [kernel.S_TRICK_LOG + t * kernel.TRICK_LOG_ENTRY for t in range(int(self._state[kernel.S_TRICK_NUMBER]))]
        return [self._logged_trick(log) for log in logs]

    def _logged_trick(self, log: int) -> dict:
        """The completed trick logged at ``state[log:]`` (leader, three cards in playing order, winner)."""
        leader, cards, winner = self._state[log], self._state[log + 1 : log + 4], self._state[log + 4]
        return {
            "leader": self.possible_agents[int(leader)],
            "cards": self._played_in_order(int(leader), cards),
            "winner": self.possible_agents[int(winner)],
        }

    def _trick_in_progress(self) -> list[list[str]]:
        s = self._state
        size = int(s[kernel.S_TRICK_SIZE])
        return self._played_in_order(int(s[kernel.S_LEADER]), s[kernel.S_TRICK_CARDS : kernel.S_TRICK_CARDS + size])

    def _result(self) -> dict | None:
        s = self._state
        if int(s[kernel.S_PHASE]) != kernel.PHASE_OVER or self._illegal_seat >= 0:
            return None
        thrown_in = bool(s[kernel.S_THROWN_IN])
        return {
            "thrown_in": thrown_in,
            "declarer_won": None if thrown_in else bool(s[kernel.S_WON]),
            "value": None if thrown_in else int(s[kernel.S_VALUE]),
            "hoch": None if thrown_in else int(s[kernel.S_HOCH]),
            "declarer_card_points": None if thrown_in else int(s[kernel.S_DECLARER_POINTS]),
            "settlement": [float(x) for x in self._settlement()],
        }

    # ------------------------------------------------------------ render

    def _render_text(self) -> str:
        st = self.state()
        lines = [
            f"Palatinate Schafkopf ({self.num_seats} players)  dealer {self.possible_agents[st['dealer']]}"
            f"  phase {st['phase']}  to act {st['current_player']}",
        ]
        if st["contract"] is not None:
            contract = f"contract {st['contract']} by {st['declarer']}, trump {st['trump']}"
            lines.append(f"{contract}, doublings {st['doublings']}")
        lines += render.seat_lines(st, self.possible_agents, lambda agent: (
            f"{' '.join(st['hands'][agent]) or '-':<33} points {st['points'][agent]:>3} "
            f"tricks {st['tricks_won'][agent]}{' (declarer)' if agent == st['declarer'] else ''}"
        ))
        lines.append(f"skat: {' '.join(st['skat'])}   discards: {' '.join(st['discards']) or '-'}")
        lines += render.trick_lines(st)
        if st["result"] is not None:
            lines.append(self._result_line(st["result"]))
        return "\n".join(lines)

    def _result_line(self, result: dict) -> str:
        if result["thrown_in"]:
            return "result: thrown in, no score"
        outcome = "won" if result["declarer_won"] else "lost"
        return (
            f"result: declarer {outcome} with {result['declarer_card_points']} points, value {result['value']}: "
            + render.settlement(self.possible_agents, result["settlement"])
        )


env = raw_env = PalatinateEnv
"""``env(**config)`` and ``raw_env(**config)`` are the env class itself: what PettingZoo's wrappers would
add (turn order, bounds, legality) is built in, at no cost per step."""
