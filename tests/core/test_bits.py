"""The compiled helpers every kernel uses: bit tricks, the explicit RNG, constrained dealing, the cache."""

import numpy as np
import pytest

from trick_core.bits import (
    lowest_bit,
    make_rng,
    nth_bit,
    popcount,
    random_bit,
    rng_next,
    shuffle_pack,
    uniform01,
    uniform_below,
    uniform_below_modulo,
)
from trick_core.sampling import deal_with_constraints


def test_bit_helpers_match_python_on_random_masks():
    rng = np.random.default_rng(1)
    for _ in range(500):
        mask = int(rng.integers(1, 2**63)) | (int(rng.integers(0, 2)) << 63)
        bits = [i for i in range(64) if mask >> i & 1]
        assert popcount(np.uint64(mask)) == len(bits)
        assert lowest_bit(np.uint64(mask)) == bits[0]
        k = int(rng.integers(0, len(bits)))
        assert nth_bit(np.uint64(mask), k) == bits[k]


@pytest.mark.parametrize("draw", [uniform_below, uniform_below_modulo])
def test_rng_is_reproducible_and_roughly_uniform(draw):
    a, b = make_rng(7), make_rng(7)
    draws_a = [draw(a, 6) for _ in range(6000)]
    draws_b = [draw(b, 6) for _ in range(6000)]
    assert draws_a == draws_b
    counts = np.bincount(draws_a, minlength=6)
    assert counts.min() > 850 and counts.max() < 1150
    assert [draw(make_rng(8), 6) for _ in range(20)] != draws_a[:20]


def test_the_two_reductions_are_the_documented_formulas_of_one_stream():
    """Both reduce the same splitmix64 draw: modulo n, and the top 32 bits times n shifted down."""
    for seed in range(50):
        bits = int(rng_next(make_rng(seed)))
        assert uniform_below_modulo(make_rng(seed), 7) == bits % 7
        assert uniform_below(make_rng(seed), 7) == ((bits >> 32) * 7) >> 32
        assert uniform01(make_rng(seed)) == (bits >> 11) / 2**53


def test_splitmix64_matches_its_published_first_output():
    """splitmix64 seeded with 0 (Vigna's reference implementation) first returns 0xE220A8397B1DCDAF."""
    assert int(rng_next(make_rng(0))) == 0xE220A8397B1DCDAF


@pytest.mark.parametrize("modulo", [False, True])
def test_shuffle_pack_is_fisher_yates_from_the_top_with_the_chosen_reduction(modulo):
    """Cards 0..n-1 laid out at the offset and swapped from the top down, each swap drawn from the one
    stream by ``uniform_below_modulo`` or ``uniform_below``: the same permutation as that loop in Python,
    the entries around the pack untouched."""
    for seed in range(20):
        pack = np.full(40, -7, dtype=np.int64)
        shuffle_pack(pack, 5, 32, make_rng(seed), modulo)
        stream, expected = make_rng(seed), list(range(32))
        for i in range(31, 0, -1):
            bits = int(rng_next(stream))
            j = bits % (i + 1) if modulo else ((bits >> 32) * (i + 1)) >> 32
            expected[i], expected[j] = expected[j], expected[i]
        assert pack[5:37].tolist() == expected
        assert (pack[:5] == -7).all() and (pack[37:] == -7).all()


def test_random_bit_only_returns_set_bits():
    rng = make_rng(3)
    mask = np.uint64(0b1010_0000_0001)
    seen = {random_bit(rng, mask) for _ in range(200)}
    assert seen == {0, 9, 11}


def test_constrained_deal_respects_counts_and_allowed_masks():
    rng = make_rng(11)
    unknown = np.uint64((1 << 24) - 1)
    counts = np.array([8, 8, 8], dtype=np.int64)
    # seat 0 is void in cards 0..7, seat 1 may only hold 0..15
    allowed = np.array([((1 << 24) - 1) & ~0xFF, (1 << 16) - 1, (1 << 24) - 1], dtype=np.uint64)
    out = np.zeros(3, dtype=np.uint64)
    for _ in range(100):
        assert deal_with_constraints(unknown, counts, allowed, rng, out, 100)
        assert int(out[0]) | int(out[1]) | int(out[2]) == (1 << 24) - 1
        assert [popcount(m) for m in out] == [8, 8, 8]
        assert int(out[0]) & 0xFF == 0
        assert int(out[1]) & ~((1 << 16) - 1) == 0


def test_constrained_deal_reports_impossible_constraints():
    out = np.zeros(2, dtype=np.uint64)
    allowed = np.array([0b0011, 0b0011], dtype=np.uint64)
    ok = deal_with_constraints(np.uint64(0b1111), np.array([2, 2]), allowed, make_rng(0), out, 20)
    assert not ok


def test_constrained_deal_is_uniform_without_constraints():
    rng = make_rng(5)
    out = np.zeros(2, dtype=np.uint64)
    allowed = np.array([0b1111, 0b1111], dtype=np.uint64)
    seen = {}
    for _ in range(6000):
        assert deal_with_constraints(np.uint64(0b1111), np.array([2, 2]), allowed, rng, out, 10)
        seen[int(out[0])] = seen.get(int(out[0]), 0) + 1
    assert len(seen) == 6
    assert min(seen.values()) > 850 and max(seen.values()) < 1150


def test_constrained_deal_places_cards_only_one_seat_may_hold_first():
    """Seats 1 and 2 are void in cards 0..3 and seat 0 in 4..8: seat 0 must get exactly 0..3 plus two of
    9..17. Dealing the most constrained seat first found this in only ~2% of attempts."""
    unknown = np.uint64((1 << 18) - 1)
    counts = np.array([6, 6, 6], dtype=np.int64)
    allowed = np.array(
        [((1 << 18) - 1) & ~0b1_1111_0000, ((1 << 18) - 1) & ~0b1111, ((1 << 18) - 1) & ~0b1111], dtype=np.uint64
    )
    out = np.zeros(3, dtype=np.uint64)
    rng = make_rng(9)
    for _ in range(300):
        assert deal_with_constraints(unknown, counts, allowed, rng, out, 1)
        assert int(out[0]) & 0b1111 == 0b1111
        assert int(out[0]) & 0b1_1111_0000 == 0
        assert sum(popcount(m) for m in out) == 18


def test_a_seat_that_can_only_just_be_filled_takes_all_its_eligible_cards():
    """Seat 1 may hold only cards 0..2 and needs three; seat 0 may hold anything. Dealing card by card
    would give seat 0 one of 0..2 in most attempts; the forced-seat rule never does."""
    unknown = np.uint64((1 << 10) - 1)
    allowed = np.array([(1 << 10) - 1, 0b111, (1 << 10) - 1 & ~0b111], dtype=np.uint64)
    out = np.zeros(3, dtype=np.uint64)
    rng = make_rng(4)
    for _ in range(200):
        assert deal_with_constraints(unknown, np.array([4, 3, 3]), allowed, rng, out, 1)
        assert int(out[1]) == 0b111


def test_numba_cache_folder_is_keyed_by_every_compiled_source(tmp_path):
    """Numba would keep stale machine code when only a called function's file changed; the cache folder
    name hashes every compiled source, so any edit selects a fresh folder."""
    import numba

    from trick_core import jit

    assert numba.config.CACHE_DIR == str(jit.CACHE_DIR)
    assert jit.CACHE_DIR.name == jit.source_fingerprint()
    for folder in ("trick_core", "schafkopf_env/bavarian", "knuffeln_env/knuffeln", "agents", "trick_gym"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "trick_core" / "jit.py").write_text("x = 1\n")
    (tmp_path / "schafkopf_env" / "bavarian" / "kernel.py").write_text("y = 2\n")
    (tmp_path / "knuffeln_env" / "knuffeln" / "heuristic.py").write_text("z = 3\n")
    (tmp_path / "agents" / "arena.py").write_text("not compiled\n")
    (tmp_path / "schafkopf_env" / "bavarian_v0.py").write_text("an env: not compiled\n")
    (tmp_path / "schafkopf_env" / "bavarian" / "reference.py").write_text("plain Python\n")
    (tmp_path / "trick_gym" / "loops.py").write_text("w = 4\n")
    (tmp_path / "trick_gym" / "one_seat.py").write_text("not compiled\n")
    before = jit.source_fingerprint(tmp_path)
    for pure_python in ("agents/arena.py", "schafkopf_env/bavarian_v0.py", "schafkopf_env/bavarian/reference.py",
                        "trick_gym/one_seat.py"):
        (tmp_path / pure_python).write_text("edited\n")
        assert jit.source_fingerprint(tmp_path) == before, pure_python  # pure-Python modules do not count
    for edited in ("schafkopf_env/bavarian/kernel.py", "knuffeln_env/knuffeln/heuristic.py", "trick_core/jit.py",
                   "trick_gym/loops.py"):
        path = tmp_path / edited
        original = path.read_text()
        path.write_text(original + "# edited\n")
        assert jit.source_fingerprint(tmp_path) != before, edited
        path.write_text(original)
        assert jit.source_fingerprint(tmp_path) == before
