"""Knüffeln's 24 table-talk phrases, each with a truth predicate, and what a half-shown card was.

Section 7 of the rules lists the stock phrases (``knuffeln_v0.PHRASES``; the engine never checks them,
and the rules say they may be bluffs). Here every phrase gets an automatic **truth label** computed from
the speaker's private state at the moment it speaks, so that bluffs can be counted without a human:

- ``"true"``: the claim holds;
- ``"false"``: the claim does not hold (a lie or a bluff);
- ``"uncheckable"``: a question, a comment, or a claim whose subject never arises (e.g. "We fold" when no
  face-down lead is offered to the speaker's team afterwards).

**What the speaker's private state is.** Its own observation at its talk turn (hand, chosen suits, the
trick so far, cards seen, cards its partner showed or received by exchange), read with the same
card-location inference the rule-based talker uses (``agents.rules.knuffeln_situation.Situation``): a card
*cannot be beaten* when no opponent still to play can hold a card that beats it, given everything the
speaker can see; the hidden stock counts as a place the speaker cannot see into. Claims about intentions
("I'll turn one", "We'll play", "We fold") are judged by what the speaker (or its team) then did, read
from the game record: an intention is private state the record reveals later.

**Conventions** (where the rules' gists are vague; the honest rule talker of ``agents.rules.knuffeln``
speaks in exactly these senses, and a test checks that all its checkable phrases are labelled true):

- *the hand*: the speaker's cards when it speaks (its talk turn comes just before its card turn);
- *the kept hand*: the hand less the card it plays (or leads face down) at the turn that follows.
  Claims about holdings describe the kept hand: the card played next is seen by everyone a moment later,
  so what the partner can use the claim for is the cards left for later tricks;
- *beats*: takes over as provisional winner by section 4's attack/defence rule; when the speaker leads,
  every card of its hand "beats" (it becomes the provisional winner);
- card classes (``card_class``): ``ole`` (H2 C4 S8 H9 D9), ``high_beater`` (chosen A J 6), ``low_beater``
  (chosen 2 3 4), ``chosen_7``, ``chosen_free`` (chosen 9 8), ``unchosen_ace``, ``king``, ``queen``,
  ``blank``; *power cards* are Oles, chosen beaters and chosen 7s (the cards worth showing); *leaders*
  are chosen 7s, chosen 9/8 and unchosen aces (cards that are good to lead).

Each phrase is *true* when the condition holds and *false* when it does not, unless marked otherwise:

- 1 "Are you old?", 2 "Can you take any tricks?", 3 "Can you?", 4 "Can you meet me?", 5 "Have you got
  something suitable?", 19 "Who can?": questions, uncheckable.
- 20 "A sign of weakness", 21 "They play that in bad weather": comments on the play, uncheckable.
- 6 "You play first, I have an Ole": the kept hand holds an Ole.
- 7 "I have a beater and two leaders": the kept hand holds a high beater and at least two leaders.
- 8 "I have only two Puzers": the kept hand's beaters (Oles, chosen beaters) are exactly two low beaters.
- 9 "I feel bad": the kept hand holds no power card.
- 10 "Let it come", 11 "Let it run" ("I can take it"): a card of the hand beats the provisional winner
  and holds against the opponents still to play with probability at least 1/2 (the rule agent's estimate).
- 12 "Certainly": a card of the hand beats the provisional winner and cannot be beaten.
- 13 "I can't do anything", 14 "I can't, you must play a beater": following, no card of the hand beats
  the provisional winner; leading, the hand holds no power card.
- 15 "I can go a little ahead": following, a card of the hand beats the provisional winner by a small
  margin (attack at most 2 above the winner's defence, or at most 2 ranks above it in its own unchosen
  suit); leading, uncheckable.
- 16 "I can help you only once": the kept hand holds exactly one power card.
- 17 "I'll certainly make two tricks": the kept hand holds at least two cards that win for certain when led.
- 18 "One for the Jann": false once the team cannot make a Jann (it lost a trick, or five tricks are
  played); otherwise uncheckable (an exhortation).
- 22 "We'll play" (the march): the team is committed to the march once the speaker has moved (it was
  already, or the speaker leads trick 6 after a Jann instead of stopping).
- 23 "I'll turn one": the speaker's next lead in this hand is face down (false if face up, or if it
  never leads again).
- 24 "We fold": the team flees the next face-down lead offered to it (false if it accepts it;
  uncheckable if none is offered).

**Half-shown cards** (``show:C``) are labelled by what was shown: ``card_class(C)``. A show cannot be
untrue (only a held card can be shown), so its truth label is ``"uncheckable"``; silence and tokens
without a given meaning are ``"uncheckable"`` too.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.rules.knuffeln_cards import cards_of
from agents.rules.knuffeln_situation import Situation
from agents.rules.knuffeln_table import decode
from knuffeln_env.knuffeln import kernel as K
from knuffeln_env.knuffeln_v0 import PHRASES

TRUE, FALSE, UNCHECKABLE = "true", "false", "uncheckable"
TRUTH_VALUES = (TRUE, FALSE, UNCHECKABLE)
NUM_PHRASES = len(PHRASES)

OLE_MASK = K.OLE_MASK
HIGH_BEATER_ATTACK = 4
"""Chosen beaters with attack 4 or more are the high ones (A 6, J 5, 6 4); 2 3 4 (attack 3..1) are low."""
SMALL_MARGIN = 2
"""'A little ahead': at most this many attack (or own-suit rank) steps above the card it beats."""
LIKELY_HOLD = 0.5
"""'Let it come': the card holds against the opponents still to play at least this likely."""

CARD_CLASSES = (
    "ole", "high_beater", "low_beater", "chosen_7", "chosen_free", "unchosen_ace", "king", "queen", "blank",
)
POWER_CLASSES = ("ole", "high_beater", "low_beater", "chosen_7")
LEADER_CLASSES = ("chosen_7", "chosen_free", "unchosen_ace")

PHRASE_PREDICATES: dict[int, str] = {}
"""Phrase number -> one-line statement of its truth predicate (filled by ``_predicate`` below)."""


def card_class(card: int, chosen: int) -> str:
    """The role of ``card`` (index in the 48-card layout) under the chosen-suit mask ``chosen`` (bit per
    suit): one of ``CARD_CLASSES``."""
    if not 0 <= card < K.NUM_CARDS:
        raise ValueError(f"card index must lie in 0..{K.NUM_CARDS - 1}, got {card}")
    suit, rank = divmod(card, K.NUM_RANKS)
    if OLE_MASK >> card & 1:
        return "ole"
    if chosen >> suit & 1:
        attack = int(K.ATTACK[chosen, card])
        if attack:
            return "high_beater" if attack >= HIGH_BEATER_ATTACK else "low_beater"
        if rank == K.RANK_7:
            return "chosen_7"
        if rank in (K.RANK_9, K.RANK_8):
            return "chosen_free"
    elif rank == K.RANK_A:
        return "unchosen_ace"
    if rank == K.RANK_K:
        return "king"
    if rank == K.RANK_Q:
        return "queen"
    return "blank"


def class_counts(mask: int, chosen: int) -> dict[str, int]:
    """How many cards of each class the card set ``mask`` holds."""
    counts = dict.fromkeys(CARD_CLASSES, 0)
    for card in cards_of(mask):
        counts[card_class(card, chosen)] += 1
    return counts


# --------------------------------------------------------------------------------------- the speaker


@dataclass(frozen=True)
class SpeakerState:
    """What the truth predicates read: the speaker's private state when it speaks, plus what it (or its
    team) did next. Card sets are int bit masks in the 48-card layout."""

    hand: int
    kept: int  # the hand less the card played (or led face down) at the following card turn
    chosen: int  # 4-bit mask of the chosen suits
    ranking: int  # unchosen-suit ranking of the variant (knuffeln_env.knuffeln.kernel.RANKING_*)
    leading: bool  # no card in the trick yet: the speaker leads
    winner_card: int | None  # the provisional winner's card (None when leading)
    partner_winning: bool  # a teammate's card is the provisional winner
    beating: int  # cards of the hand that beat the provisional winner (the whole hand when leading)
    likely: int  # of those, the cards that hold with probability >= LIKELY_HOLD
    certain: int  # of those, the cards that cannot be beaten by the opponents still to play
    small_margin: int  # of those, the cards that beat it by a small margin (following only)
    sure_leads_kept: int  # cards of the kept hand that win for certain when led
    team_lost_trick: bool  # the opponents have won a trick
    tricks_played: int
    committed_after: bool  # the team is committed to the march once the speaker has made its next move
    next_lead_face_down: bool | None  # the speaker's next lead is face down (None: it never leads again)
    team_flees_next: bool | None  # the team's answer to the next face-down lead offered to it (None: none)

    def kept_classes(self) -> dict[str, int]:
        return class_counts(self.kept, self.chosen)

    def hand_classes(self) -> dict[str, int]:
        return class_counts(self.hand, self.chosen)


def speaker_situation(env, agent: str) -> Situation:
    """The rule agent's reading of ``agent``'s own observation (what that seat knows)."""
    seen = env.observe(agent)
    table = decode(seen["observation"], env.unwrapped.config, token_code=False)
    return Situation(table, listen=True)


def speaker_state(env, agent: str, next_action: str | None, next_lead_face_down: bool | None = None,
                  team_flees_next: bool | None = None) -> SpeakerState:
    """The speaker's state at its talk turn in ``env`` (a Knüffeln env where ``agent`` is to talk), given
    its following card action (``"H2"``, ``"turn:H2"``, ``"stop"`` or None) and its later intentions."""
    config = env.unwrapped.config
    if env.unwrapped.game_name != "knuffeln" or config["talk"] == "off":
        raise ValueError("speaker_state needs a Knüffeln env with talk on")
    situation = speaker_situation(env, agent)
    if situation.t.phase != K.PHASE_TALK:
        raise ValueError(f"{agent} is not at a talk turn (phase {K.PHASE_NAMES[situation.t.phase]})")
    return state_from_situation(situation, env.unwrapped, next_action, next_lead_face_down, team_flees_next)


def state_from_situation(s: Situation, base, next_action: str | None, next_lead_face_down: bool | None = None,
                         team_flees_next: bool | None = None) -> SpeakerState:
    """``speaker_state`` from the speaker's decoded situation (``speaker_situation``) taken at its talk turn;
    ``base`` converts action strings (``env.unwrapped``)."""
    t = s.t
    played_card = _card_of_action(next_action, base)
    kept = t.hand & ~(1 << played_card) if played_card is not None else t.hand
    current = s.provisional_winner()
    later_opponents = [r for r in s.still_to_play() if r in s.opponents]
    beating = t.hand if current is None else t.hand & s.beaten_by[current[1]]
    likely = certain = small = 0
    for card in cards_of(beating):
        hold = s.hold_probability(card, later_opponents)
        if hold >= LIKELY_HOLD:
            likely |= 1 << card
        if hold >= 1.0:
            certain |= 1 << card
        if current is not None and _small_margin(card, current[1], t.chosen, t.ranking):
            small |= 1 << card
    return SpeakerState(
        hand=t.hand, kept=kept, chosen=t.chosen, ranking=t.ranking, leading=current is None,
        winner_card=None if current is None else current[1],
        partner_winning=current is not None and current[0] in s.teammates,
        beating=beating, likely=likely, certain=certain, small_margin=small,
        sure_leads_kept=s.sure_leads(kept).bit_count(),
        team_lost_trick=t.tricks_theirs > 0, tricks_played=t.tricks_played,
        committed_after=bool(t.march_mine or (t.jann_mine and next_action not in (None, "stop"))),
        next_lead_face_down=next_lead_face_down, team_flees_next=team_flees_next,
    )


def _card_of_action(action: str | None, base) -> int | None:
    """The card of a card action (``"H2"`` or ``"turn:H2"``), else None."""
    if action is None or action == "stop":
        return None
    name = action[5:] if action.startswith("turn:") else action
    index = base.string_to_action(name)
    if not 0 <= index < K.NUM_CARDS:
        raise ValueError(f"{action!r} is not a card play")
    return index


def _small_margin(card: int, winner: int, chosen: int, ranking: int) -> bool:
    attack = int(K.ATTACK[chosen, card])
    defence = int(K.DEFENCE[chosen, winner])
    if attack > defence:
        return attack - defence <= SMALL_MARGIN
    suit_rank = K.SUIT_RANK[ranking, chosen]
    return int(suit_rank[card]) - int(suit_rank[winner]) <= SMALL_MARGIN


# --------------------------------------------------------------------------------------- predicates

PREDICATES: dict[int, object] = {}


def _predicate(*numbers: int, statement: str):
    def register(function):
        for number in numbers:
            PREDICATES[number] = function
            PHRASE_PREDICATES[number] = statement
        return function

    return register


def _verdict(holds: bool) -> str:
    return TRUE if holds else FALSE


@_predicate(1, 2, 3, 4, 5, 19, statement="a question: uncheckable")
def _question(state: SpeakerState) -> str:
    return UNCHECKABLE


@_predicate(20, 21, statement="a comment on the play: uncheckable")
def _comment(state: SpeakerState) -> str:
    return UNCHECKABLE


@_predicate(6, statement="the kept hand holds an Ole")
def _has_ole(state: SpeakerState) -> str:
    return _verdict(bool(state.kept & OLE_MASK))


@_predicate(7, statement="the kept hand holds a high beater and at least two leaders")
def _beater_and_two_leaders(state: SpeakerState) -> str:
    counts = state.kept_classes()
    return _verdict(counts["high_beater"] >= 1 and sum(counts[c] for c in LEADER_CLASSES) >= 2)


@_predicate(8, statement="the kept hand's beaters (Oles, chosen beaters) are exactly two low beaters")
def _only_two_puzers(state: SpeakerState) -> str:
    counts = state.kept_classes()
    return _verdict(counts["low_beater"] == 2 and counts["high_beater"] == 0 and counts["ole"] == 0)


@_predicate(9, statement="the kept hand holds no power card (Ole, chosen beater, chosen 7)")
def _feels_bad(state: SpeakerState) -> str:
    counts = state.kept_classes()
    return _verdict(sum(counts[c] for c in POWER_CLASSES) == 0)


@_predicate(10, 11, statement="a card of the hand beats the provisional winner and holds with probability >= 1/2")
def _can_take_it(state: SpeakerState) -> str:
    return _verdict(bool(state.likely))


@_predicate(12, statement="a card of the hand beats the provisional winner and cannot be beaten")
def _certainly(state: SpeakerState) -> str:
    return _verdict(bool(state.certain))


@_predicate(13, 14, statement="following: no card of the hand beats the provisional winner; leading: no power card")
def _cannot_do_anything(state: SpeakerState) -> str:
    if state.leading:
        counts = state.hand_classes()
        return _verdict(sum(counts[c] for c in POWER_CLASSES) == 0)
    return _verdict(not state.beating)


@_predicate(15, statement="following: a card of the hand beats the provisional winner by a small margin")
def _little_ahead(state: SpeakerState) -> str:
    if state.leading:
        return UNCHECKABLE
    return _verdict(bool(state.small_margin))


@_predicate(16, statement="the kept hand holds exactly one power card")
def _help_only_once(state: SpeakerState) -> str:
    counts = state.kept_classes()
    return _verdict(sum(counts[c] for c in POWER_CLASSES) == 1)


@_predicate(17, statement="the kept hand holds at least two cards that win for certain when led")
def _two_sure_tricks(state: SpeakerState) -> str:
    return _verdict(state.sure_leads_kept >= 2)


@_predicate(18, statement="false once the team cannot make a Jann (lost a trick, five played); else uncheckable")
def _one_for_the_jann(state: SpeakerState) -> str:
    if state.team_lost_trick or state.tricks_played >= 5:
        return FALSE
    return UNCHECKABLE


@_predicate(22, statement="the team is committed to the march once the speaker has moved")
def _we_march(state: SpeakerState) -> str:
    return _verdict(state.committed_after)


@_predicate(23, statement="the speaker's next lead in this hand is face down")
def _will_turn(state: SpeakerState) -> str:
    return _verdict(bool(state.next_lead_face_down))


@_predicate(24, statement="the team flees the next face-down lead offered to it (uncheckable if none)")
def _we_fold(state: SpeakerState) -> str:
    if state.team_flees_next is None:
        return UNCHECKABLE
    return _verdict(state.team_flees_next)


def phrase_truth(phrase: int, state: SpeakerState) -> str:
    """Truth label (``"true"``, ``"false"``, ``"uncheckable"``) of ``say:phrase`` spoken in ``state``."""
    if isinstance(phrase, bool) or not isinstance(phrase, int) or phrase not in PREDICATES:
        raise ValueError(f"phrase must be an int in 1..{NUM_PHRASES}, got {phrase!r}")
    return PREDICATES[phrase](state)


# --------------------------------------------------------------------------------------- features

FEATURE_NAMES = (
    "oles", "high_beaters", "low_beaters", "chosen_7s", "leaders", "power_cards", "kept_power_cards",
    "hand_size", "leading", "partner_winning", "can_beat", "can_take_likely", "can_take_certainly",
    "sure_leads_kept", "tricks_played",
)


def private_features(state: SpeakerState) -> dict[str, int]:
    """Small integer features of the speaker's private state (for the log and for speaker consistency)."""
    hand = state.hand_classes()
    kept = state.kept_classes()
    return {
        "oles": hand["ole"],
        "high_beaters": hand["high_beater"],
        "low_beaters": hand["low_beater"],
        "chosen_7s": hand["chosen_7"],
        "leaders": sum(hand[c] for c in LEADER_CLASSES),
        "power_cards": sum(hand[c] for c in POWER_CLASSES),
        "kept_power_cards": sum(kept[c] for c in POWER_CLASSES),
        "hand_size": state.hand.bit_count(),
        "leading": int(state.leading),
        "partner_winning": int(state.partner_winning),
        "can_beat": int(bool(state.beating) and not state.leading),
        "can_take_likely": int(bool(state.likely)),
        "can_take_certainly": int(bool(state.certain)),
        "sure_leads_kept": state.sure_leads_kept,
        "tricks_played": state.tricks_played,
    }
