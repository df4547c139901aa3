"""Fusing the memory ranking with the turn ranking: plain lists in, positions out."""

from __future__ import annotations

import pytest

from tota_vault.fusion import MAX_TURNS, RRF_K, Pick, fuse


def kinds(picks: list[Pick]) -> list[tuple[str, int]]:
    return [(p.kind, p.index) for p in picks]


def test_without_turns_the_memories_keep_their_order():
    memories = [("c#1",), ("c#2",), ("c#3",)]
    assert kinds(fuse(memories, [], limit=10)) == [("memory", 0), ("memory", 1), ("memory", 2)]


def test_without_memories_the_turns_keep_their_order():
    assert kinds(fuse([], ["c#1", "c#2"], limit=10)) == [("turn", 0), ("turn", 1)]


def test_reciprocal_rank_interleaves_two_lists():
    picks = fuse([("c#1",), ("c#2",)], ["c#8", "c#9"], limit=10)
    # Equal ranks earn equally; a tie puts the memory first.
    assert kinds(picks) == [("memory", 0), ("turn", 0), ("memory", 1), ("turn", 1)]
    assert picks[0].score == pytest.approx(1 / (RRF_K + 1))


def test_a_turn_a_memory_cites_lifts_that_memory_and_is_not_listed():
    memories = [("c#1",), ("c#2",), ("c#3",)]
    # The best turn is the message the third memory was learned from.
    picks = fuse(memories, ["c#3", "c#9"], limit=10)
    assert kinds(picks) == [("memory", 2), ("memory", 0), ("memory", 1), ("turn", 1)]
    assert picks[0].score == pytest.approx(1 / (RRF_K + 3) + 1 / (RRF_K + 1))


def test_a_turn_cited_by_two_memories_lifts_the_better_one_only():
    memories = [("c#5",), ("c#1",), ("c#1", "c#2")]
    picks = fuse(memories, ["c#1"], limit=10)
    assert kinds(picks) == [("memory", 1), ("memory", 0), ("memory", 2)]


def test_an_echo_of_a_memory_s_turn_is_dropped():
    # "c#2" matched through the words of "c#1" only; a ranked memory was learned from c#1.
    picks = fuse([("c#1",)], ["c#2", "c#9"], limit=10, echoes=["c#1", None])
    assert kinds(picks) == [("memory", 0), ("turn", 1)]
    assert picks[0].score == pytest.approx(1 / (RRF_K + 1))  # the echo lifts nothing


def test_an_echo_a_memory_was_learned_from_still_lifts_that_memory():
    # c#2 matched by c#1's words only, but the second memory was learned from c#2 itself.
    picks = fuse([("c#1",), ("c#2",)], ["c#2"], limit=10, echoes=["c#1"])
    assert kinds(picks) == [("memory", 1), ("memory", 0)]
    assert picks[0].score == pytest.approx(1 / (RRF_K + 2) + 1 / (RRF_K + 1))


def test_an_echo_of_a_turn_no_memory_cites_is_kept():
    # The answer to a question nobody learned: found by the question's words, and kept.
    picks = fuse([("c#5",)], ["c#2"], limit=10, echoes=["c#1"])
    assert kinds(picks) == [("memory", 0), ("turn", 0)]


@pytest.mark.parametrize("weight", [0.5, 2.0])
def test_the_turn_weight_moves_turns_against_memories(weight):
    picks = fuse([("c#1",)], ["c#9"], limit=2, turn_weight=weight)
    first = "turn" if weight > 1 else "memory"
    assert picks[0].kind == first


def test_the_limit_counts_memories_and_turns_alike():
    memories = [(f"c#{i}",) for i in range(10)]
    turns = [f"c#{i}" for i in range(100, 110)]
    picks = fuse(memories, turns, limit=7)
    assert len(picks) == 7
    assert {p.kind for p in picks} == {"memory", "turn"}


def test_the_top_ten_cite_at_most_twelve_turns():
    reflection = tuple(f"c#{i}" for i in range(16))  # a summary citing sixteen messages
    memories = [reflection, *((f"c#{i}",) for i in range(100, 120))]
    picks = fuse(memories, [], limit=20)
    top = picks[:10]
    cited = set().union(*(memories[p.index] for p in top))
    assert len(cited) <= MAX_TURNS
    assert ("memory", 0) not in kinds(top)
    # Moved after the top ten, never dropped: it is still the first of the rest.
    assert kinds(picks)[10] == ("memory", 0)


def test_a_budget_fills_with_what_fits():
    big = tuple(f"c#{i}" for i in range(11))  # 11 turns: fits alone, not with two others
    memories = [("a#1",), ("a#2",), big, ("a#3",)]
    picks = fuse(memories, [], limit=4)
    assert kinds(picks) == [("memory", 0), ("memory", 1), ("memory", 3), ("memory", 2)]


def test_the_budget_holds_when_what_fits_runs_out():
    # A memory citing nine turns first, then only single-turn results: taking it would leave
    # the other nine places to results that pass the budget, so it waits after the top ten.
    nine = tuple(f"c#{i}" for i in range(9))
    memories = [nine, *((f"c#{i}",) for i in range(100, 115))]
    picks = fuse(memories, [], limit=20)
    cited = set().union(*(p.sources for p in picks[:10]))
    assert len(cited) <= MAX_TURNS
    assert ("memory", 0) not in kinds(picks[:10])
    # Each place keeps room for one new turn per place after it: a cost of three fits first.
    three = tuple(f"c#{i}" for i in range(3))
    picks = fuse([three, *memories[1:]], [], limit=20)
    assert kinds(picks)[0] == ("memory", 0)
    assert len(set().union(*(p.sources for p in picks[:10]))) == MAX_TURNS


def test_a_reflection_is_cut_to_the_sources_that_fit():
    reflection = tuple(f"c#{i}" for i in range(16))  # its best members' sources first
    memories = [reflection, *((f"c#{i}",) for i in range(100, 120))]
    picks = fuse(memories, [], limit=20, cuttable=[True] + [False] * 20)
    assert kinds(picks)[0] == ("memory", 0)
    # Three of its sources: room for one new turn in each of the nine places after it.
    assert picks[0].sources == reflection[:3]
    assert len(set().union(*(p.sources for p in picks[:10]))) == MAX_TURNS
    # Past the top ten nothing is cut: a result cites what it cites.
    picks = fuse(memories, [], limit=20)
    assert picks[10].sources == reflection


def test_a_cut_reflection_counts_the_turns_already_cited_as_free():
    memories = [("c#1",), ("c#5", "c#1", "c#6", "c#7", "c#8"), ("c#9",)]
    picks = fuse(memories, [], limit=10, cuttable=[False, True, False], max_turns=4)
    # One place after it keeps room for one new turn: of four, c#5 and c#6 are new, c#1 free.
    assert picks[1].sources == ("c#5", "c#1", "c#6")
    assert kinds(picks) == [("memory", 0), ("memory", 1), ("memory", 2)]


def test_turns_ranked_later_come_after_the_others_of_their_list():
    # The assistant's reply (c#2) was the best turn; for a question about the person it
    # ranks after the person's turns, which keep their order.
    picks = fuse([], ["c#2", "c#3", "c#5"], limit=10, later=[True, False, False])
    assert kinds(picks) == [("turn", 1), ("turn", 2), ("turn", 0)]
    assert picks[0].score == pytest.approx(1 / (RRF_K + 1))
    assert picks[2].score == pytest.approx(1 / (RRF_K + 3))


def test_a_turn_ranked_later_still_lifts_the_memory_that_cites_it():
    picks = fuse([("c#7",), ("c#2",)], ["c#2", "c#3"], limit=10, later=[True, False])
    assert kinds(picks) == [("memory", 1), ("memory", 0), ("turn", 1)]
    assert picks[0].score == pytest.approx(1 / (RRF_K + 2) + 1 / (RRF_K + 2))


def test_a_result_citing_only_turns_already_cited_moves_after_the_top():
    # The third memory was learned from the message the first was: its place goes to the
    # next message's memory. Past the top it keeps its order.
    memories = [("c#1",), ("c#2",), ("c#1",), ("c#3",)]
    assert kinds(fuse(memories, [], limit=4, budget_ranks=3)) == [
        ("memory", 0), ("memory", 1), ("memory", 3), ("memory", 2),
    ]  # fmt: skip
    # A memory citing an already cited turn and a new one adds something: it stays.
    memories = [("c#1",), ("c#1", "c#2"), ("c#3",)]
    assert kinds(fuse(memories, [], limit=3)) == [("memory", 0), ("memory", 1), ("memory", 2)]
    # A memory that cites nothing is not a repeat.
    assert kinds(fuse([("c#1",), ()], [], limit=2)) == [("memory", 0), ("memory", 1)]


def test_with_best_place_a_memory_takes_its_turn_s_place_when_the_turn_ranks_higher():
    memories = [("c#1",), ("c#2",), ("c#3",)]
    # The best turn is the message the third memory was learned from: the memory stands
    # where the turn stood, level with the first memory, which keeps its place (ties keep
    # memories in their own order).
    picks = fuse(memories, ["c#3", "c#9"], limit=10, best_place=True)
    assert kinds(picks) == [("memory", 0), ("memory", 2), ("memory", 1), ("turn", 1)]
    assert picks[1].score == pytest.approx(1 / (RRF_K + 1))


def test_with_best_place_a_turn_ranked_below_its_memory_lifts_it_over_nothing():
    # Summed, the ninth memory's turn (9th of the turns) would lift it over the eight
    # memories above it; as the better of its two places it stays ninth.
    memories = [(f"c#{i}",) for i in range(1, 10)]
    turns = [f"c#{i}" for i in range(100, 108)] + ["c#9"]
    summed = fuse(memories, turns, limit=20)
    assert summed[0] == Pick("memory", 8, 2 / (RRF_K + 9), ("c#9",))
    best = fuse(memories, turns, limit=20, best_place=True)
    assert [p.index for p in best if p.kind == "memory"] == list(range(9))
    assert best[16] == Pick("memory", 8, pytest.approx(1 / (RRF_K + 9)), ("c#9",))


def test_with_best_place_k_does_not_change_the_order():
    memories = [("c#1",), ("c#2",), ("c#3",), ("c#4",)]
    turns = ["c#9", "c#4", "c#8", "c#2"]
    orders = {
        tuple(kinds(fuse(memories, turns, limit=10, best_place=True, k=k))) for k in (1, 10, 60)
    }
    assert len(orders) == 1
