"""The public record (``env.unwrapped.public_record(agent)``, what ``SeatView`` lets an agent read) hides
every card its seat cannot see, derived independently of the games' tables of what each seat sees
(``action_visibility``, ``trick_core.visibility``):

- **twin tables**: a table and a twin that differs from it only in cards the seat cannot see (a world
  resampled for that seat, replayed on a fresh table) give that seat the same public record, at every
  step of whole hands of every game, registered variant and talk mode, for every seat. A table that
  forgot to hide a card fails (``test_a_missing_entry_of_the_table_is_caught``). They also give it the
  same sampled kernel state for the same seed (``sampled_kernel_state``, the search agents' world);
- **against the rules**: what is hidden agrees with the compiled rule the Knüffeln resampling uses
  (``resample.hidden_from``) and with Palatinate's rules (only the declarer sees its discards), so that
  nothing public is hidden either;
- **a hostile plug-in** that reads its public record (and everything else ``SeatView`` hands out) at each
  of its decisions never reads a card its seat may not see, checked against the true hidden cards
  (``tests.play.helpers.forbidden_cards``, written from the rules).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.play.helpers import all_card_names, card_tokens, forbidden_cards, shown_by_teammates
from trick_core.registry import VARIANTS, make_env, variant_id
from trick_core.seat_view import SeatView
from trick_core.visibility import check_visibility, hidden_form, is_hidden

CONFIGS = [*VARIANTS, ("knuffeln", {"talk": "lexicon", "players": 5}), ("knuffeln", {"talk": "lexicon", "match": True})]
CONFIG_IDS = [variant_id(game, config) for game, config in CONFIGS]
HANDS = 2
MATCH_STEPS = 150
"""Actions of a Knüffeln match compared (a hand with talk takes about 80): every twin replays the match."""
HIDDEN_PREFIXES = ("turn:", "show:", "discard:")


def hidden_kinds_expected(game: str, config: dict) -> set[str]:
    """The kinds of action whose card the rules hide from some seat and that the biased play below reaches
    in a couple of hands (rules: Knüffeln sections 6 and 7, Palatinate's simple game)."""
    if game == "palatinate":
        return {"discard"}
    if game != "knuffeln":
        return set()
    kinds = set() if config.get("variant") == "hattstedt" else {"turn"}  # Hattstedt has no drehen
    return kinds | ({"show"} if config.get("talk") == "lexicon" else set())


def biased_action(env, rng) -> int:
    """A random legal action that seeks the actions whose card some seats do not see: Knüffeln's face-down
    leads and half-shown cards, Palatinate's simple game (all pass, then ``simple``) and its discards."""
    legal = env.unwrapped.legal_action_strings()
    if "simple" in legal:
        choice = "simple"
    elif "accept" in legal and "flee" in legal and rng.random() < 0.75:
        choice = "accept"  # play on: whole hands, not mostly first tricks fled from
    elif "pass" in legal and "solo" in legal and env.unwrapped.game_name == "palatinate" and rng.random() < 0.8:
        choice = "pass"
    elif (seeking := [a for a in legal if a.startswith(HIDDEN_PREFIXES)]) and rng.random() < 0.5:
        choice = seeking[int(rng.integers(len(seeking)))]
    else:
        choice = legal[int(rng.integers(len(legal)))]
    return env.unwrapped.string_to_action(choice)


def seen_without_result(record: dict) -> dict:
    """A public record less its result: the settlement is paid on the real cards (Schafkopf's hoch and
    Laufende) and announced to all once the hand is over."""
    return {key: value for key, value in record.items() if key != "result"}


def twin_table(env, game: str, config: dict, agent: str, seed: int):
    """A fresh table that replayed a world resampled for ``agent``: dealt differently only where ``agent``
    cannot see, with the same actions as far as ``agent`` can tell."""
    world = env.unwrapped.resample_from_infostate(agent, seed)
    twin = make_env(game, **config)
    twin.unwrapped.replay(world.game_record())
    return twin


def compare_twins(game: str, config: dict, hands: int, seed: int):
    """Play ``hands`` whole hands (a match: its first ``MATCH_STEPS`` actions, into its second hand); at every
    step compare each seat's public record of the table with that of a twin. Returns ``(first difference or
    None, kinds hidden somewhere, kinds whose card differed between twins)``."""
    env = make_env(game, **config)
    rng = np.random.default_rng(seed)
    masked, differing = set(), set()
    for hand in range(hands):
        env.reset(seed=seed * 100 + hand)
        for _ in range(MATCH_STEPS if config.get("match") else 10**6):
            over = all(env.terminations.values())
            full = env.unwrapped.game_record()["actions"]
            for agent in env.possible_agents:
                twin = twin_table(env, game, config, agent, int(rng.integers(2**31)))
                seen, seen_twin = env.unwrapped.public_record(agent), twin.unwrapped.public_record(agent)
                if seen_without_result(seen) != seen_without_result(seen_twin):
                    return (agent, full, seen["actions"], seen_twin["actions"]), masked, differing
                masked |= {action.partition(":")[0] for _, action in seen["actions"] if is_hidden(action)}
                differing |= {mine.partition(":")[0] for (_, mine), (_, theirs)
                              in zip(full, twin.unwrapped.game_record()["actions"], strict=True) if mine != theirs}
            if over:
                break
            env.step(biased_action(env, rng))
    return None, masked, differing


@pytest.mark.parametrize(("game", "config"), CONFIGS, ids=CONFIG_IDS)
def test_twin_tables_give_a_seat_the_same_sampled_kernel_state(game, config):
    """What the search agents hand to compiled code depends only on what the seat knows: at every step of a
    hand (a match: its first ``MATCH_STEPS`` actions, into its second hand), every seat gets the same
    ``sampled_kernel_state`` for the same seed from the table and from a twin table."""
    env = make_env(game, **config)
    rng = np.random.default_rng(6)
    env.reset(seed=600)
    compared = 0
    for _ in range(MATCH_STEPS if config.get("match") else 10**6):
        if all(env.terminations.values()):
            break
        for agent in env.possible_agents:
            twin = twin_table(env, game, config, agent, int(rng.integers(2**31)))
            seed = int(rng.integers(2**31))
            sampled = env.unwrapped.sampled_kernel_state(agent, seed)
            assert np.array_equal(sampled, twin.unwrapped.sampled_kernel_state(agent, seed)), (
                f"{agent} after {env.unwrapped.game_record()['actions']}")
            compared += twin.unwrapped.state()["hands"] != env.unwrapped.state()["hands"]
        env.step(biased_action(env, rng))
    assert compared > 0, "no twin differed from the table: nothing was compared"


@pytest.mark.parametrize(("game", "config"), CONFIGS, ids=CONFIG_IDS)
def test_twin_tables_give_a_seat_the_same_public_record(game, config):
    difference, masked, differing = compare_twins(game, config, HANDS, seed=5)
    assert difference is None, "public records differ between twin tables (seat, actions, seen, twin's): " + repr(
        difference)
    expected = hidden_kinds_expected(game, config)
    assert masked == expected, f"hidden kinds {masked}, the rules hide {expected}"
    # Each kind hidden was hidden for a reason: in some twin its card really was another one.
    assert masked <= differing, f"{masked - differing} hidden, but no twin ever named another card there"


@pytest.mark.parametrize(("game", "config"), [("knuffeln", {"talk": "lexicon"}), ("palatinate", {})],
                         ids=["knuffeln-talk=lexicon", "palatinate"])
def test_a_missing_entry_of_the_table_is_caught(game, config, monkeypatch):
    """The twin test is not vacuous: with the game's table emptied (every card public), it fails."""
    monkeypatch.setattr(type(make_env(game, **config).unwrapped), "action_visibility", {})
    difference, _, _ = compare_twins(game, config, HANDS, seed=5)
    assert difference is not None


@pytest.mark.parametrize(("game", "config"), CONFIGS, ids=CONFIG_IDS)
def test_every_table_names_kinds_of_its_own_actions(game, config):
    env = make_env(game, **config).unwrapped
    check_visibility(env.action_visibility, env.action_names, game)
    assert set(env.action_visibility) == hidden_kinds_expected(game, {"talk": "lexicon"})


def test_check_visibility_names_a_wrong_entry():
    with pytest.raises(ValueError, match="'tun'"):
        check_visibility({"tun": "actor"}, ["turn:H2", "accept"], "knuffeln")
    with pytest.raises(ValueError, match="'everyone'"):
        check_visibility({"turn": "everyone"}, ["turn:H2", "accept"], "knuffeln")


# ---------------------------------------------------------------------------------------------- the rules


KNUFFELN_RULE_CONFIGS = [{"talk": "lexicon"}, {"players": 5, "talk": "lexicon"}, {"variant": "bernhard1924"}]


@pytest.mark.parametrize("config", KNUFFELN_RULE_CONFIGS, ids=["lexicon", "lexicon-5", "bernhard1924"])
def test_knuffeln_hides_what_its_compiled_resampling_hides(config):
    """The env's table and the kernel's own rule (``resample.hidden_from``, which the sampled worlds obey)
    hide the same actions from every seat: a face-down lead until accepted, a shown card outside the team."""
    from knuffeln_env.knuffeln.resample import hidden_from

    env = make_env("knuffeln", **config)
    rng = np.random.default_rng(8)
    hidden_seen = 0
    for hand in range(6):
        env.reset(seed=800 + hand)
        while True:
            state = env.unwrapped.kernel_state()
            for seat, agent in enumerate(env.possible_agents):
                actions = env.unwrapped.public_record(agent)["actions"]
                kernel_hidden = [bool(hidden_from(state, seat, i)) for i in range(len(actions))]
                assert [is_hidden(action) for _, action in actions] == kernel_hidden, (agent, actions)
                hidden_seen += sum(kernel_hidden)
            if all(env.terminations.values()):
                break
            env.step(biased_action(env, rng))
    assert hidden_seen > 0


def records_of_played_hands(env, seeds, rng):
    """For each seed, a hand of ``env`` played to its end by ``biased_action``: ``(full, seen)``, the whole
    record's actions and each viewer's public record's actions (agent -> list)."""
    for seed in seeds:
        env.reset(seed=seed)
        while not all(env.terminations.values()):
            env.step(biased_action(env, rng))
        seen = {viewer: env.unwrapped.public_record(viewer)["actions"] for viewer in env.possible_agents}
        yield env.unwrapped.game_record()["actions"], seen


def test_knuffeln_accepted_turn_and_team_show_are_public_to_whom_the_rules_say():
    """Section 6: an accepted face-down card is public; section 7: a shown card reaches the shower's
    partner only; the actor always sees its own action."""
    env = make_env("knuffeln", talk="lexicon")
    found = {"accepted turn": 0, "fled or pending turn": 0, "show": 0}
    for full, seen_by in records_of_played_hands(env, range(400, 408), np.random.default_rng(4)):
        for viewer, seen in seen_by.items():
            for index, ((actor, action), (_, shown)) in enumerate(zip(full, seen, strict=True)):
                if action.startswith("turn:"):
                    accepted = index + 1 < len(full) and full[index + 1][1] == "accept"
                    found["accepted turn" if accepted else "fled or pending turn"] += 1
                    assert shown == (action if accepted or actor == viewer else "turn:?")
                elif action.startswith("show:"):
                    found["show"] += 1
                    partners = int(actor[-1]) % 2 == int(viewer[-1]) % 2  # teams 0+2 against 1+3
                    assert shown == (action if partners else "show:?")
                else:
                    assert shown == action
    assert all(found.values()), found


def test_palatinate_discards_are_seen_by_the_declarer_only():
    env = make_env("palatinate")
    discards = 0
    for full, seen_by in records_of_played_hands(env, range(600, 610), np.random.default_rng(6)):
        for viewer, seen in seen_by.items():
            expected = [[actor, hidden_form(action) if action.startswith("discard:") and actor != viewer else action]
                        for actor, action in full]
            assert seen == expected
        discards += sum(action.startswith("discard:") for _, action in full)
    assert discards > 0


def test_the_record_holds_the_seats_hand_as_dealt_after_a_redeal():
    """Knüffeln redeals when four cards of one suit are turned (decision K1): the seat's hand in its public
    record is the one it was dealt and holds (``state()["dealt_hands"]``), not the first deal of the record."""
    env = make_env("knuffeln")
    for seed in range(2000):
        env.reset(seed=seed)
        if env.unwrapped.state()["redeals"]:
            break
    state, record = env.unwrapped.state(), env.unwrapped.game_record()
    for agent in env.possible_agents:
        hand = env.unwrapped.public_record(agent)["hand"]
        assert hand == state["dealt_hands"][agent] == state["hands"][agent], seed
    assert any(set(record["deal"]["hands"][a]) != set(state["dealt_hands"][a]) for a in env.possible_agents)


# ---------------------------------------------------------------------------------------------- a hostile reader


class RecordReader:
    """A plug-in agent that reads everything its ``SeatView`` offers as text — its public record, its legal
    actions, the table's public settings and turn state — then plays a biased random legal action."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.read: list = []

    def act(self, view, agent: str) -> int:
        table = view.unwrapped
        self.read = [table.public_record(), table.legal_action_strings(), dict(table.config),
                     dict(view.infos), dict(view.rewards), list(view.agents), view.agent_selection]
        return biased_action(view, self.rng) if table.legal_actions() else None


def leaked_cards(env, agent: str, read: list, names: set[str]) -> set[str]:
    """The cards hidden from ``agent`` now that ``read`` names. A card a teammate half-showed to ``agent`` may
    be named in that ``show:`` entry even once it lies face down (``agent`` saw it shown, not turned)."""
    forbidden = forbidden_cards(env, agent)
    state = env.unwrapped.state()
    shown = shown_by_teammates(state, agent) if env.unwrapped.game_name == "knuffeln" else set()
    record, others = read[0], read[1:]
    leaked = card_tokens([others, {k: v for k, v in record.items() if k != "actions"}], names) & forbidden
    for _, action in record["actions"]:
        leaked |= card_tokens(action, names) & (forbidden - shown if action.startswith("show:") else forbidden)
    return leaked


def hostile_leaks(game: str, config: dict, hands: int, seed: int) -> list:
    """Whole hands played by ``RecordReader`` at every seat through its seat's view; every card name it read
    that is hidden from its seat at that moment (and which seat, which move)."""
    env = make_env(game, **config)
    reader = RecordReader(seed)
    names = all_card_names(env)
    leaks = []
    for hand in range(hands):
        env.reset(seed=seed * 100 + hand)
        while not all(env.terminations.values()):
            agent = env.agent_selection
            action = reader.act(SeatView(env, agent), agent)
            if leaked := leaked_cards(env, agent, reader.read, names):
                leaks.append((agent, len(env.unwrapped.game_record()["actions"]), sorted(leaked)))
            env.step(action)
        for agent in env.possible_agents:  # once more at the end of the hand, every seat
            if leaked := leaked_cards(env, agent, [SeatView(env, agent).unwrapped.public_record()], names):
                leaks.append((agent, "end", sorted(leaked)))
    return leaks


@pytest.mark.parametrize(("game", "config"), CONFIGS[:-1], ids=CONFIG_IDS[:-1])
def test_a_plug_in_reading_the_public_record_gets_no_hidden_card(game, config):
    assert hostile_leaks(game, config, hands=6, seed=9) == []


def test_the_hostile_reader_would_see_a_leak(monkeypatch):
    """The reader's check is not vacuous: with Knüffeln's table emptied it reads face-down and shown cards."""
    from knuffeln_env.knuffeln_v0 import KnuffelnEnv

    monkeypatch.setattr(KnuffelnEnv, "action_visibility", {})
    assert hostile_leaks("knuffeln", {"talk": "lexicon"}, hands=6, seed=9) != []
