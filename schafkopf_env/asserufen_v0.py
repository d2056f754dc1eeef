"""Asserufen — Palatinate Schafkopf for four players with a called ace (PettingZoo AEC).

```python
import numpy as np
from schafkopf_env import asserufen_v0
env = asserufen_v0.env(observation_type="observation")   # or "information_state", "perfect"
env.reset(seed=0)
for agent in env.agent_iter():
    obs, reward, termination, truncation, info = env.last()
    action = None if termination else int(np.flatnonzero(obs["action_mask"])[0])
    env.step(action)
```

| | |
|---|---|
| agents | ``player_0`` … ``player_3`` (seat ``i``; play is clockwise in increasing seat order) |
| action space | ``Discrete(56)`` for every agent |
| observation space | ``Dict("observation": Box(0, 120, (N,), float32), "action_mask": Box(0, 1, (56,), int8))`` |
| ``N`` | 408 (``"observation"``), 1528 (``"information_state"``), 1656 (``"perfect"``) |
| one episode | one hand |
| rewards | the settlement in game points (units), zero-sum, all at the end |

## Rules (``shared/rules/palatinate_schafkopf.md`` sections 1 and 3)

32 French cards (``C S H D``, ``A 10 K Q J 9 8 7``; A 11, 10 10, K 4, Q 3, J 2: 120 points). All Queens and
Jacks are permanent top trumps, ``CQ SQ HQ DQ CJ SJ HJ DJ``, then the trump suit's ``A 10 K 9 8 7``;
plain suits rank ``A 10 K 9 8 7``. Follow the led effective suit if possible, else play anything; no
obligation to beat or trump. Eight cards each, dealt in packets of four from forehand (left of the
dealer); no skat. Forehand speaks and leads first.

**Bidding**: one pass in seat order from forehand; each player says ``weg`` (and takes no further part)
or bids higher on the ladder ``haenge_an < darf_man < solo < heart_solo < solo_du < heart_solo_du``:
``haenge_an`` only as the first bid, ``darf_man`` only directly over ``haenge_an`` and only by a player
holding a non-heart plain card of a suit whose ace they do not hold. If ``darf_man`` stands highest the
``haenge_an`` player answers ``accept`` (the darf_man bidder declares) or ``refuse`` (declares himself).
All four ``weg``: thrown in, all rewards zero.

**Contracts**: the ace-call game (hearts trump; the declarer calls ``call:C|S|D`` the ace of a non-trump
suit not held, of a suit in which they hold a plain card if there is one, else any ace not held; holding
all three aces ``call:C10|S10|D10`` a ten not held; holding all three tens too ``call:CK|SK|DK`` a King not
held — never a card of one's own hand). The holder of the called card is the partner, secret until the
called card is played, the partner says ``re``, or the partner runs away (below). Solo and Solo Du: the
declarer names ``trump:C|S|D``; Heart Solo (Du): hearts. A solo declarer plays alone against three; in a Du
the declarer must take all eight tricks and the hand ends, lost, when the opponents win a trick.

**The called card in play** (ace, ten or King alike), while the first trick led in the called suit is not
complete: (1) if another player leads the called suit, the partner must play the called card to that
trick; (2) a partner leading the called suit must lead the called card unless holding four or more cards
of the suit (Queens and Jacks are trumps, not suit cards); (3) it may not be discarded to a trick of another
suit (trumps included) unless it is the partner's last card; (4) leading a lower card of the suit with four
or more is running away. Once that first trick led in the called suit is complete all of this ends (a
runaway partner may then discard the called card freely); if the called card is not in that trick, the
leader is publicly the partner.

**Contra** (pinned): each player except the declarer is offered ``contra`` / ``no_double`` before
their own first card, as long as nobody has doubled. After a double every other player, starting left of
the doubler, is asked ``re`` / ``no_double``; only members of the doubled side may say ``re``; a ``re``
restarts the asking left of that player; doubling stops after three answers in a row without a double or
when ``max_doublings`` is reached. Then the player who was about to play plays.

**Value**: game 1, +1 hearts in Heart Solo / Heart Solo Du only (never in the ace-call game), schneider
+1 (the losing side has under 30 card points; 61 wins for the declarer's side, 60 for the opponents),
schwarz +1 (the losing side took no trick), hoch +n for ``n >= 3`` consecutive top trumps from ``CQ``
down held at the start by one side ("with" or "without"; the declarer's side is declarer + partner), no
solo point; a Du counts schneider and schwarz, won or lost, and doubles the value; each double doubles.

**Settlement (rewards)**: ace-call game: declarer and partner each ``+value`` if they won, the two
opponents each ``-value`` (signs reversed on a loss). Solo: each opponent ``-value``, the declarer
``+3 * value`` (reversed on a loss). Source examples: an ace-call game whose side held the top four trumps
and took 94 points is worth 6 (+6 +6 -6 -6); a won Heart Solo whose declarer held ``CQ SQ`` but not ``HQ``
with 65 points is worth 2 (declarer +6, each opponent -2).

## Actions

| index | string | when |
|---|---|---|
| 0 | ``weg`` | bidding |
| 1..6 | ``haenge_an`` ``darf_man`` ``solo`` ``heart_solo`` ``solo_du`` ``heart_solo_du`` | bidding |
| 7, 8 | ``accept``, ``refuse`` | the haenge_an player's answer to darf_man |
| 9..11 | ``call:C`` ``call:S`` ``call:D`` | the ace-call declarer calls an ace |
| 12..14 | ``call:C10`` ``call:S10`` ``call:D10`` | … a ten (holding all three aces) |
| 15..17 | ``call:CK`` ``call:SK`` ``call:DK`` | … a King (holding all three aces and tens) |
| 18..20 | ``trump:C`` ``trump:S`` ``trump:D`` | Solo / Solo Du declarer names trump |
| 21 | ``contra`` | first double, offered before one's first card |
| 22 | ``re`` | any further double |
| 23 | ``no_double`` | declining a contra offer or a doubling question |
| 24..55 | ``CA`` ``C10`` ``CK`` ``CQ`` ``CJ`` ``C9`` ``C8`` ``C7`` ``SA`` … ``D7`` | card plays (``24 + card``) |

``action_mask`` marks the legal actions of the agent to act (all zeros for others).

## Observation

Seats in the observation are relative to the observer: 0 self, 1 left (next to play), 2 across,
3 right. Cards are one-hot in the layout order ``CA C10 CK CQ CJ C9 C8 C7 SA … D7``. The observation
holds all and only what the seat may know: in particular the partner's seat is set only once the
partnership is public or when the observer holds the called card itself.

``"observation"`` (408):

| index | content |
|---|---|
| 0..31 | own hand (card one-hot) |
| 32..35 | dealer (relative seat) |
| 36..43 | phase: bidding, answer, call, trump, contra_offer, doubling_round, play, over |
| 44..47 | seat to act (relative seat; zeros once over) |
| 48..79 | bids: 8 slots per relative seat (not yet spoken, then weg ... heart_solo_du in action order) |
| 80..81 | answer to darf_man: accept, refuse |
| 82..86 | contract: ace_call, solo, heart_solo, solo_du, heart_solo_du |
| 87..90 | declarer (relative seat) |
| 91..94 | trump suit: C S H D |
| 95..126 | called card (card one-hot) |
| 127..127 | partnership public (called card played, partner said re, or partner ran away) |
| 128..131 | partner (relative seat) if this seat knows it: public, or this seat is the partner |
| 132..133 | called-suit rules over (first trick led in the called suit complete), partner ran away |
| 134..134 | doublings so far (count) |
| 135..138 | doubles said per relative seat (count) |
| 139..142 | leader of the current trick (relative seat) |
| 143..270 | current trick: card played by each relative seat (4 x 32) |
| 271..398 | cards played so far by each relative seat (4 x 32) |
| 399..402 | tricks won per relative seat (count) |
| 403..406 | card points taken per relative seat |
| 407..407 | tricks completed (count) |

Card points are kept per player: until the partnership is known every player keeps their tricks
separately, and the per-player figures are public anyway.

``"information_state"`` (1528) = the above, plus (perfect recall):

| index | content |
|---|---|
| 408..1495 | trick history: 8 tricks x (leader 4, card by relative seat 4 x 32, winner 4) |
| 1496..1527 | doubling history: 8 slots x the relative seat that said the k-th double |

``"perfect"`` (1656) = ``"information_state"`` plus every hand (for centralized critics):

| index | content |
|---|---|
| 1528..1655 | cards still held by each relative seat (4 x 32) |

## Configuration

``env(max_doublings=4, render_mode=None, observation_type="observation", illegal_action="raise")``;
``max_doublings`` in ``0..8`` (0: no contra at all). ``illegal_action="terminate"`` follows PettingZoo's
``TerminateIllegalWrapper``: the offender gets -1, everyone is terminated. Any other option raises
``ValueError``.

Fixed deals: ``reset(options={"dealer": d, "hands": {"player_0": ["CQ", ...], ...}})`` (8 cards each,
all 32 once; ``dealer`` defaults to 0; ``{"dealer": d}`` alone deals at random with that dealer);
``reset(options={"record": rec})`` restores a ``game_record()``.

Beyond PettingZoo (on ``env.unwrapped``): ``state()``, ``resample_from_infostate(agent, rng)``,
``playout_values(actions, playouts, seed)``, ``kernel_state()``, plus the base class's
``action_to_string``, ``string_to_action``, ``legal_actions``, ``legal_action_strings``,
``game_record``, ``replay``, ``clone``.

## Pins and decisions (where the rules are silent)

- Contra offers: the declarer is never offered contra; the three others each are, before their first
  card, while no double has been made. The hidden partner is asked too, but only ``no_double`` is legal
  for it, so being asked never reveals it (the rules say the partner is "never offered contra": it is
  asked for appearance's sake only). Once a double is made, the doubling rounds settle every further
  double; no offers follow at later first cards.
- Doubling rounds ask all three other players (not only the doubled side), which keeps the hidden partner
  hidden; the opponents of the doubled side can only answer ``no_double``. When ``max_doublings`` is
  reached nobody more is asked.
- A partner who runs away is public once that trick is complete without the called card (nobody else
  could have left the called card out of it).
- "A suit in which they hold a card" counts plain cards only (Queens and Jacks are trumps). Calling a
  ten: any ten not held (the declarer holds every suit's ace, so every suit qualifies); a King likewise.
- Settlement of the ace-call game: "each member of the losing side pays the value to each member of the
  winning side" is read as the source's worked example settles it: each loser pays ``value`` in all and
  each winner receives ``value`` in all (not twice the value).
- Schenken (giving up) is described only for the three-player game and is not offered in Asserufen.
- Contra is offered in Du contracts too (the rules exclude only Schenken there).
- No solo point in Asserufen (pinned from the source's Heart Solo example); no hearts point in the
  ace-call game. Hoch counts the declarer's side's cards at the start (declarer + partner in the ace-call
  game).
- Rewards come only at the end of the hand (a lost Du ends at the trick the opponents win).
- Fixed deals are recorded (``game_record()["deal"]``) with each hand in card-layout order.
- ``"observation"`` shows who played which card and the current trick, but not how earlier tricks were
  grouped; ``"information_state"`` adds the full trick history (perfect recall).
- ``resample_from_infostate`` raises ``RuntimeError`` in the (very rare) case that no consistent deal was
  found in its attempt budget.

## Version history

- v0: first release.
"""

from __future__ import annotations

import numpy as np

from schafkopf_env import asserufen_kernel as kernel
from trick_core import drivers
from trick_core.aec import (
    ADVANCE_SIGNATURE,
    OBSERVATION_TYPES,
    OBSERVE_SIGNATURE,
    CompiledKernel,
    TrickTakingEnv,
    check_no_unknown_kwargs,
)
from trick_core.bits import make_rng
from trick_core.cards import FRENCH_32
from trick_core.deal import DealBuilder, parse_dealer, parse_hands

GAME_NAME = "asserufen"
NUM_SEATS = kernel.NUM_SEATS

DRIVERS = drivers.compiled(kernel)
"""The game's compiled drivers (``trick_core.drivers``)."""


def env(**config) -> AsserufenEnv:
    """The environment; order, bounds and legality are enforced inside (no wrappers needed)."""
    return AsserufenEnv(**config)


def raw_env(**config) -> AsserufenEnv:
    return AsserufenEnv(**config)


class AsserufenEnv(TrickTakingEnv):
    """Asserufen as a PettingZoo ``AECEnv`` on the compiled kernel (see the module docstring)."""

    metadata = {**TrickTakingEnv.metadata, "name": "asserufen_v0"}
    game_name = GAME_NAME
    deck = FRENCH_32
    action_names = kernel.ACTION_NAMES
    _kernel_advance = CompiledKernel(DRIVERS.advance, ADVANCE_SIGNATURE)
    _kernel_observe = CompiledKernel(kernel.observe, OBSERVE_SIGNATURE)

    def __init__(
        self,
        max_doublings: int = 4,
        render_mode: str | None = None,
        observation_type: str = "observation",
        illegal_action: str = "raise",
        **unknown,
    ) -> None:
        check_no_unknown_kwargs(GAME_NAME, unknown)
        self._params = kernel.make_params(max_doublings=max_doublings)
        super().__init__(
            NUM_SEATS,
            {"max_doublings": int(max_doublings)},
            render_mode=render_mode,
            observation_type=observation_type,
            illegal_action=illegal_action,
        )
        self._obs_type_index = OBSERVATION_TYPES.index(observation_type)
        self._setup_spaces(kernel.OBS_SIZES[self._obs_type_index], kernel.OBS_HIGH)
        self._kstate = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
        self._deal_scratch = np.zeros(kernel.STATE_SIZE, dtype=np.int64)

    # ----------------------------------------------------------------- deals

    # A deal is ``(dealer, hand_masks)``: the dealer's seat and a tuple of four card masks, seat by seat.

    def _kernel_deal(self, rng: np.random.Generator, dealer: int | None):
        """Shuffle and deal packets of four (in compiled code, seeded from ``rng``); dealer drawn if None."""
        kernel_rng = make_rng(int(rng.bit_generator.random_raw()))
        if dealer is None:
            kernel.deal_random(self._deal_scratch, self._params, kernel_rng)
        else:
            kernel.deal_hands(self._deal_scratch, self._params, dealer, kernel_rng)
        masks = self._deal_scratch[kernel.DEAL_HANDS : kernel.DEAL_HANDS + NUM_SEATS]
        return int(self._deal_scratch[kernel.DEALER]), tuple(int(m) for m in masks)

    def _random_deal(self, rng: np.random.Generator):
        return self._kernel_deal(rng, None)

    def _parse_deal(self, options: dict):
        for key in ("skat", "stock"):
            if key in options:
                raise ValueError(f"{GAME_NAME}: there is no {key} in Asserufen (all 32 cards are dealt)")
        dealer = parse_dealer(options, NUM_SEATS, GAME_NAME, default=0)
        if "hands" not in options:
            return self._kernel_deal(self._np_random, dealer)
        builder = DealBuilder(FRENCH_32, GAME_NAME)
        hands = parse_hands(builder, options, self.possible_agents, kernel.HAND_SIZE)
        builder.require_complete()
        return dealer, tuple(FRENCH_32.mask_of(hands[agent]) for agent in self.possible_agents)

    def _deal_options(self, deal) -> dict:
        dealer, masks = deal
        return {
            "dealer": dealer,
            "hands": {agent: FRENCH_32.names_of(mask) for agent, mask in zip(self.possible_agents, masks, strict=True)},
        }

    def _start(self, deal) -> None:
        dealer, masks = deal
        kernel.init_state_from_masks(self._kstate, self._params, dealer, np.array(masks, dtype=np.int64))

    # ----------------------------------------------------------------- kernel hooks

    def _current_seat(self) -> int:
        return int(self._kstate[kernel.SEAT_TO_ACT])

    def _fill_action_mask(self, out: np.ndarray) -> None:
        kernel.legal_action_mask(self._kstate, out)

    def _apply(self, action: int) -> None:
        kernel.apply_action(self._kstate, action)

    def _advance(self, action: int) -> int:
        return self._kernel_advance(self._kstate, action, self._action_mask)

    def _settlement(self):
        out = np.zeros(NUM_SEATS, dtype=np.float64)
        kernel.settlement(self._kstate, out)
        return out

    def _fill_observation(self, seat: int, out: np.ndarray) -> None:
        self._kernel_observe(self._kstate, seat, self._obs_type_index, out)

    # ----------------------------------------------------------------- public extras

    def kernel_state(self) -> np.ndarray:
        """A copy of the kernel's int64 state array."""
        return self._kstate.copy()

    def resample_from_infostate(self, agent: str, rng) -> AsserufenEnv:
        """A clone whose cards hidden from ``agent`` are redealt consistently with all it knows."""
        if agent not in self.agent_name_mapping:
            raise ValueError(f"{GAME_NAME}: unknown agent {agent!r}; agents are {self.possible_agents}")
        if not self._started:
            raise RuntimeError(f"{GAME_NAME}: reset() must be called before resample_from_infostate()")
        seed = int(rng.integers(2**63)) if isinstance(rng, np.random.Generator) else int(rng)
        out = np.zeros_like(self._kstate)
        if not DRIVERS.resample_hidden(self._kstate, self.agent_name_mapping[agent], make_rng(seed), out):
            raise RuntimeError(f"{GAME_NAME}: no deal consistent with {agent}'s information was found")
        clone = self.clone()
        clone._kstate = out
        masks = tuple(int(m) for m in out[kernel.DEAL_HANDS : kernel.DEAL_HANDS + NUM_SEATS])
        clone._deal = (int(out[kernel.DEALER]), masks)
        if clone._current_seat() >= 0:
            kernel.legal_action_mask(out, clone._action_mask)
        return clone

    def playout_values(self, actions, playouts: int, seed: int) -> np.ndarray:
        """``(len(actions), 4)`` summed settlements of ``playouts`` random playouts after each candidate
        action of the seat to act, computed in compiled code."""
        indices = [self.string_to_action(a) if isinstance(a, str) else int(a) for a in actions]
        for a in indices:
            if not 0 <= a < kernel.NUM_ACTIONS or self._action_mask[a] != 1:
                raise ValueError(f"{GAME_NAME}: playout_values: action {a!r} is not legal now")
        if isinstance(playouts, bool) or int(playouts) < 1:
            raise ValueError(f"{GAME_NAME}: playouts must be a positive integer, got {playouts!r}")
        out = np.zeros((len(indices), NUM_SEATS), dtype=np.float64)
        DRIVERS.playout_values(self._kstate, np.array(indices, dtype=np.int64), int(playouts), make_rng(seed), out)
        return out

    def state(self) -> dict:
        """The full state as plain Python (JSON-serialisable): deal, history, contract, tricks, score."""
        s = self._kstate
        agents = self.possible_agents
        seat_name = lambda seat: agents[int(seat)] if seat >= 0 else None  # noqa: E731
        contract = int(s[kernel.CONTRACT])
        tricks = []
        completed = int(s[kernel.TRICK_NUMBER])
        for t in range(completed):
            leader = int(s[kernel.TRICK_LEADERS + t])
            tricks.append(
                {
                    "leader": agents[leader],
                    "cards": [
                        [agents[(leader + i) % NUM_SEATS], FRENCH_32.name_of(int(s[kernel.TRICK_CARDS + 4 * t + i]))]
                        for i in range(NUM_SEATS)
                    ],
                    "winner": agents[int(s[kernel.TRICK_WINNERS + t])],
                }
            )
        current_trick = []
        if s[kernel.PHASE] in (kernel.PHASE_OFFER, kernel.PHASE_ROUND, kernel.PHASE_PLAY):
            leader = int(s[kernel.TRICK_LEADERS + completed])
            current_trick = [
                [agents[(leader + i) % NUM_SEATS], FRENCH_32.name_of(int(s[kernel.TRICK_CARDS + 4 * completed + i]))]
                for i in range(int(s[kernel.TRICK_COUNT]))
            ]
        over = s[kernel.PHASE] == kernel.PHASE_OVER
        score = None
        if over and contract != kernel.CONTRACT_NONE:
            items = np.zeros(kernel.SCORE_SIZE, dtype=np.int64)
            kernel.score_items(s, items)
            score = {name: int(v) for name, v in zip(kernel.SCORE_NAMES, items, strict=True)}
        called = int(s[kernel.CALLED_CARD])
        trump = int(s[kernel.TRUMP_KIND])
        return {
            "game": GAME_NAME,
            "phase": kernel.PHASE_NAMES[int(s[kernel.PHASE])],
            "dealer": agents[int(s[kernel.DEALER])],
            "current_player": seat_name(int(s[kernel.SEAT_TO_ACT])),
            "hands": {a: FRENCH_32.names_of(int(s[kernel.HANDS + i])) for i, a in enumerate(agents)},
            "dealt_hands": {a: FRENCH_32.names_of(int(s[kernel.DEAL_HANDS + i])) for i, a in enumerate(agents)},
            "history": [[agents[seat], self.action_names[a]] for seat, a in self._action_history],
            "bids": {
                a: (kernel.BID_NAMES[int(s[kernel.BIDS + i])] if s[kernel.BIDS + i] >= 0 else None)
                for i, a in enumerate(agents)
            },
            "contract": kernel.CONTRACT_NAMES[contract] if contract else None,
            "declarer": seat_name(int(s[kernel.DECLARER])),
            "trump": "CSHD"[trump] if trump >= 0 else None,
            "called_card": FRENCH_32.name_of(called) if called >= 0 else None,
            "partner": seat_name(int(s[kernel.PARTNER])),
            "partner_known": bool(s[kernel.PARTNER_KNOWN]),
            "called_suit_rules_over": bool(s[kernel.CALLED_SUIT_DONE]),
            "ran_away": bool(s[kernel.RAN_AWAY]),
            "doublings": int(s[kernel.DOUBLINGS]),
            "doublers": [agents[int(s[kernel.DOUBLERS + k])] for k in range(int(s[kernel.DOUBLINGS]))],
            "trick": current_trick,
            "tricks": tricks,
            "points": {a: int(s[kernel.POINTS + i]) for i, a in enumerate(agents)},
            "tricks_won": {a: int(s[kernel.TRICKS_WON + i]) for i, a in enumerate(agents)},
            "score": score,
            "result": [float(u) for u in self._settlement()] if over else None,
        }

    # ----------------------------------------------------------------- render

    def _render_text(self) -> str:
        st = self.state()
        lines = [f"Asserufen — dealer {st['dealer']}, phase {st['phase']}"]
        bids = ", ".join(f"{a}: {b}" for a, b in st["bids"].items() if b is not None)
        lines.append(f"bids: {bids or '-'}")
        if st["contract"]:
            called = f", called {st['called_card']}" if st["called_card"] else ""
            lines.append(
                f"contract: {st['contract']} by {st['declarer']}, trump {st['trump']}{called}, "
                f"doublings {st['doublings']}"
            )
        for agent in self.possible_agents:
            marker = "*" if agent == st["current_player"] else " "
            lines.append(
                f"{marker} {agent}: {' '.join(st['hands'][agent]):<30} points {st['points'][agent]:>3} "
                f"tricks {st['tricks_won'][agent]}"
            )
        if st["trick"]:
            lines.append("trick: " + ", ".join(f"{a} {c}" for a, c in st["trick"]))
        if st["result"] is not None:
            units = zip(self.possible_agents, st["result"], strict=True)
            lines.append("result: " + ", ".join(f"{a} {u:+g}" for a, u in units))
        return "\n".join(lines)
