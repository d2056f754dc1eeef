"""Kernel states from outside checked before any compiled code reads them.

A kernel trusts its state: it indexes its tables and its own arrays with the seat to act, the trick
size, the cards of a hand, the history length... A state another configuration wrote (Knüffeln with
talk into one without, five players into four), a random array or one field changed by hand would make
it write out of bounds and crash the process, or play silently by rules it was not dealt under. So every
public entry that takes a raw state (``BatchEnv.load_states``, and through it ``trick_gym``'s vector
env) hands it to ``checked_states`` first, which refuses a bad one with a ``ValueError`` naming the row
and the field, in three steps:

1. **Shape and configuration** (here, vectorised): an integer array of ``(rows, state_size)``, and the
   ``params`` block equal to the env's own, so a state of another configuration, variant or game is
   refused before anything reads it.
2. **The fields in range** (the game's ``<game>/state_check.py``, plain numpy, vectorised over the rows:
   ``validate_states(states, params)``): the dealer, phase, seat to act, trick number and size, the
   history length and entries, and the dealt cards partitioning the pack. Fast, and the message names
   the field.
3. **The state is the hand its deal and actions make** (``replay_mismatch``, per row): the deal is read
   back from the state (``_deal_from_state``: a permutation of the pack, checked), the kernel starts that
   deal, and the recorded actions are applied one by one, each checked to be the recorded seat's turn and
   legal there before it is applied. Every field of the replayed state must equal the given one (a
   game's ``UNREPLAYED_FIELDS`` excepted: bookkeeping that the deal does not carry, such as Knüffeln's
   redeal count, copied over first). So an accepted state is exactly a position the rules reach, and the
   compiled code only ever reads values the rules wrote.

This is done where a state enters, never per step: the batch env's hot loop is untouched.
"""

from __future__ import annotations

import importlib
import types

import numpy as np

STATE_CHECK_MODULE = "state_check"
"""The module of a game's package (beside its ``kernel``) holding ``validate_states`` and
``UNREPLAYED_FIELDS``."""


def game_state_check(kernel_module: types.ModuleType) -> types.ModuleType:
    """The ``state_check`` module of the package the kernel belongs to (e.g.
    ``schafkopf_env.bavarian.state_check`` for ``schafkopf_env.bavarian.kernel``)."""
    return importlib.import_module(f"{kernel_module.__package__}.{STATE_CHECK_MODULE}")


def require(ok: np.ndarray, game: str, field: str, rule: str, labels: np.ndarray, values: np.ndarray) -> None:
    """``ValueError`` naming the first row whose entry of ``ok`` is False: its label (the batch row), the
    ``field``, what the ``rule`` says and the value found (``values``, one entry or array per row)."""
    ok = np.asarray(ok, dtype=bool)
    if ok.all():
        return
    bad = np.flatnonzero(~ok)
    if bad.size:
        row = int(bad[0])
        value = values[row]
        shown = value.tolist() if isinstance(value, np.ndarray) else int(value)
        more = f" (and {bad.size - 1} more rows)" if bad.size > 1 else ""
        raise ValueError(f"{game}: the state for row {labels[row]} is refused: field {field!r} {rule}, "
                         f"got {shown}{more}")


class FieldChecks:
    """The range checks of one game's states, vectorised over the rows; each raises through ``require``.

    ``states``: ``int64 (rows, state_size)``; ``layout``: the game's ``StateLayout``; ``labels``: the batch
    row of each state, for the messages."""

    def __init__(self, game: str, states: np.ndarray, layout, labels: np.ndarray) -> None:
        self.game = game
        self.states = states
        self.layout = layout
        self.labels = labels

    def field(self, name: str) -> np.ndarray:
        """The field's entries, ``(rows, size)``."""
        offset, size = self.layout.fields[name]
        return self.states[:, offset : offset + size]

    def scalar(self, name: str) -> np.ndarray:
        return self.field(name)[:, 0]

    def in_range(self, name: str, low: int, high: int | np.ndarray) -> None:
        """Every entry of field ``name`` in ``low..high`` (``high`` may differ per row: an array)."""
        values = self.field(name)
        high_per_row = np.broadcast_to(np.asarray(high), (values.shape[0],))[:, None]
        ok = ((values >= low) & (values <= high_per_row)).all(axis=1)
        bound = str(int(high)) if np.ndim(high) == 0 else "its bound"
        require(ok, self.game, name, f"must lie in {low}..{bound}", self.labels, values if values.shape[1] > 1
                else values[:, 0])

    def check(self, ok: np.ndarray, name: str, rule: str) -> None:
        values = self.field(name)
        require(ok, self.game, name, rule, self.labels, values if values.shape[1] > 1 else values[:, 0])

    def common(self, num_seats: int | np.ndarray, num_phases: int, num_tricks: int) -> None:
        """The fields every game has (``trick_core.layout.COMMON_FIELDS``): dealer, phase, seat to act,
        trick number and size, and the history length (its entries: ``history``)."""
        seats = np.asarray(num_seats)
        self.in_range("dealer", 0, seats - 1)
        self.in_range("phase", 0, num_phases - 1)
        self.in_range("seat_to_act", -1, seats - 1)
        self.in_range("trick_number", 0, num_tricks)
        self.in_range("trick_size", 0, seats - 1)
        self.in_range("history_length", 0, self.layout.fields["history_actions"][1])

    def history(self, num_seats: int | np.ndarray, num_actions: int | np.ndarray) -> None:
        """The recorded actions: a seat and an action index in range, for every entry below the length."""
        length = self.scalar("history_length")
        recorded = np.arange(self.layout.fields["history_actions"][1])[None, :] < length[:, None]
        seats = self.field("history_seats")
        actions = self.field("history_actions")
        seat_high = np.broadcast_to(np.asarray(num_seats), length.shape)[:, None]
        action_high = np.broadcast_to(np.asarray(num_actions), length.shape)[:, None]
        self.check((~recorded | ((seats >= 0) & (seats < seat_high))).all(axis=1), "history_seats",
                   "must hold a seat for every recorded action")
        self.check((~recorded | ((actions >= 0) & (actions < action_high))).all(axis=1), "history_actions",
                   "must hold an action index for every recorded action")

    def masks_partition(self, names: list[tuple[str, np.ndarray | None]], full_mask: int, what: str) -> None:
        """The card masks of the fields ``names`` (each ``(field, dealt)``: ``dealt`` a bool ``(rows,
        size)`` array of the entries that must hold cards, None: all of them; the others must be 0) are
        disjoint and together hold the whole pack (``full_mask``)."""
        union = np.zeros(self.states.shape[0], dtype=np.int64)
        overlap = np.zeros(self.states.shape[0], dtype=bool)
        for name, dealt in names:
            masks = self.field(name)
            self.check(((masks & ~np.int64(full_mask)) == 0).all(axis=1), name, "must hold cards of the pack only")
            if dealt is not None:
                self.check(((masks == 0) | dealt).all(axis=1), name, "must be empty for a seat not dealt to")
            for column in range(masks.shape[1]):
                overlap |= (union & masks[:, column]) != 0
                union |= masks[:, column]
        first = names[0][0]
        self.check(~overlap, first, f"must not give a card twice ({what})")
        self.check(union == np.int64(full_mask), first, f"must hold the whole pack ({what})")

    def cards_partition(self, mask_names: list[str], card_field: str, num_cards: int, what: str) -> None:
        """Card masks ``mask_names`` (disjoint) and a list of card indices ``card_field`` (e.g. a stock in
        order) together hold every card of a pack of ``num_cards`` exactly once."""
        cards = self.field(card_field)
        self.check(((cards >= 0) & (cards < num_cards)).all(axis=1), card_field, "must hold card indices")
        bits = (np.int64(1) << cards).astype(np.int64)
        union = np.zeros(self.states.shape[0], dtype=np.int64)
        overlap = np.zeros(self.states.shape[0], dtype=bool)
        for column in range(bits.shape[1]):
            overlap |= (union & bits[:, column]) != 0
            union |= bits[:, column]
        for name in mask_names:
            masks = self.field(name)
            self.check(((masks >> num_cards) == 0).all(axis=1) & (masks >= 0).all(axis=1), name,
                       "must hold cards of the pack only")
            for column in range(masks.shape[1]):
                overlap |= (union & masks[:, column]) != 0
                union |= masks[:, column]
        full = np.int64((1 << num_cards) - 1)
        self.check(~overlap, card_field, f"must not give a card twice ({what})")
        self.check(union == full, card_field, f"must hold the whole pack ({what})")


def checked_states(aec_env, states, labels: np.ndarray) -> np.ndarray:
    """``states`` as a C-contiguous ``int64 (len(labels), state_size)`` array, every row checked to be a
    position of ``aec_env``'s game and configuration (module docstring); ``ValueError`` naming the row
    (its label) and the field otherwise. ``aec_env``: a ``KernelEnv`` of the configuration to play."""
    kernel = aec_env.kernel
    game = aec_env.game_name
    array = np.asarray(states)
    expected = (labels.shape[0], kernel.STATE_SIZE)
    if array.shape != expected or not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"{game}: states must be an integer array of shape {expected}, got {array.dtype} "
                         f"{array.shape}")
    if array.dtype == np.uint64 and array.size and int(array.max()) > np.iinfo(np.int64).max:
        raise ValueError(f"{game}: states hold values beyond int64 (a kernel state is int64)")
    loaded = np.ascontiguousarray(array, dtype=np.int64)
    params = aec_env._params
    block = loaded[:, kernel.S_PARAMS : kernel.S_PARAMS + params.shape[0]]
    require((block == params).all(axis=1), game, "params",
            f"must equal this env's rules {params.tolist()} (a state of another configuration, variant or game)",
            labels, block)
    game_state_check(kernel).validate_states(loaded, params, labels)
    for index in range(loaded.shape[0]):
        mismatch = replay_mismatch(aec_env, loaded[index])
        if mismatch is not None:
            raise ValueError(f"{game}: the state for row {labels[index]} is refused: {mismatch}")
    return loaded


def replay_mismatch(aec_env, state: np.ndarray) -> str | None:
    """None if ``state`` (its fields in range: ``validate_states``) is the position its own deal and action
    history make under ``aec_env``'s rules; else what differs (module docstring, step 3)."""
    kernel = aec_env.kernel
    deal = aec_env._deal_from_state(state)
    cards = deal.cards
    pack = getattr(aec_env, "pack_cards", None)  # the cards dealt, where a game deals less than its deck
    if pack is None:
        pack = np.arange(aec_env.deck.num_cards)
    if cards.shape != pack.shape or not np.array_equal(np.sort(cards), pack):
        return f"its dealt cards are not a deal of the {pack.size}-card pack"
    replayed = np.zeros_like(state)
    kernel.init_state(replayed, aec_env._params, int(deal.dealer), np.ascontiguousarray(cards, dtype=np.int64))
    for name in game_state_check(kernel).UNREPLAYED_FIELDS:
        offset, size = kernel.layout.fields[name]
        replayed[offset : offset + size] = state[offset : offset + size]
    mask = np.zeros(kernel.MAX_ACTIONS, dtype=np.int8)
    length = int(state[kernel.S_HISTORY_LENGTH])
    for index in range(length):
        seat = int(state[kernel.S_HISTORY_SEATS + index])
        action = int(state[kernel.S_HISTORY_ACTIONS + index])
        if int(replayed[kernel.S_SEAT_TO_ACT]) != seat:
            return f"recorded action {index} is by seat {seat}, but the deal and the actions before it give the turn " \
                   f"to seat {int(replayed[kernel.S_SEAT_TO_ACT])}"
        mask[:] = 0
        kernel.legal_action_mask(replayed, mask)
        if not 0 <= action < aec_env.num_actions or not mask[action]:
            return f"recorded action {index} ({action}) is not legal in the position its deal and actions reach"
        kernel.apply_action(replayed, action)
    differing = np.flatnonzero(replayed != state)
    if differing.size == 0:
        return None
    name, offset, size = field_at(kernel.layout, int(differing[0]))
    shown = state[offset : offset + size].tolist()
    expected = replayed[offset : offset + size].tolist()
    return f"field {name!r} is {shown}, but its deal and action history give {expected}"


def field_at(layout, position: int) -> tuple[str, int, int]:
    """``(name, offset, size)`` of the layout's field holding entry ``position``."""
    for name, (offset, size) in layout.fields.items():
        if offset <= position < offset + size:
            return name, offset, size
    raise IndexError(position)
