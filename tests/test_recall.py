"""Recall: query building, the ranking formula, the context block, the profile."""

from __future__ import annotations

from datetime import datetime

import pytest

from tota_vault import Vault
from tota_vault import recall as recall_module
from tota_vault.extract.messages import Message
from tota_vault.recall import (
    MEMBER_ANSWERS,
    NAME_WEIGHT,
    RARE_WEIGHT,
    MemoryQuery,
    QueryPlan,
    about_the_person,
    build_query,
    context_block,
    estimate_tokens,
    plan_match,
    rank,
    turns_later,
)
from tota_vault.rows import MemoryRow

NOW = datetime(2026, 11, 29, 12, 0)


@pytest.mark.parametrize(
    ("message", "terms"),
    [
        ("What editor does she use?", {"editor", "use"}),
        ("When did Caroline go to the support group?", {"caroline", "support", "group"}),
        ("C++ or foo-bar?", {"c++", "foo-bar"}),
        ("the and of", set()),
    ],
)
def test_build_query_drops_stopwords(message, terms):
    assert set(build_query(message).terms) == terms


def test_names_and_rare_words_weigh_more():
    plan = build_query("Did Caroline mention marathons or tea?")
    assert plan.weights["caroline"] == NAME_WEIGHT
    assert plan.weights["marathons"] == RARE_WEIGHT
    assert plan.weights["tea"] == 1.0
    assert plan.match.startswith('"caroline"')


def _row(path, score, **extra):
    """A candidate as the index gives it: the row and its bm25 score."""
    row = {
        "path": path, "title": path, "text": extra.pop("text", path), "memory_id": path,
        "type": "preference", "confidence": 0.8, "durability": 0.8,
        "importance": 0.5, "updated": "2026-11-01T00:00:00", "confirmed": "2026-11-01T00:00:00",
        "evidence": "direct", "sources": ("c#1",), "status": "active", "subject": "user",
    }  # fmt: skip
    row.update(extra)
    row["sources"] = tuple(row["sources"])
    return MemoryRow(**row), score


def test_rank_combines_relevance_and_confidence():
    plan = QueryPlan(("tea",), {"tea": 1.0})
    rows = [
        _row("weak", -2.0, text="Likes tea", confidence=0.6),
        _row("strong", -2.0, text="Likes tea", confidence=0.95),
        _row("best-match", -4.0, text="Drinks tea, green tea", confidence=0.6),
    ]
    ranked = rank(rows, plan, NOW)
    assert [r.path for r in ranked] == ["best-match", "strong", "weak"]
    assert ranked[0].matched == ("tea",)
    assert ranked[1].effective_confidence < 0.95  # decayed a little since November 1st


def test_context_block_groups_by_type_and_keeps_the_budget():
    plan = QueryPlan(("tea",), {"tea": 1.0})
    rows = [
        _row(f"m{i}", -1.0 - i, text=f"Fact number {i} about tea", type=t)
        for i, t in enumerate(["identity", "preference", "preference", "goal"])
    ]
    results = rank(rows, plan, NOW)
    block = context_block(results)
    assert block.index("### identity") < block.index("### preference") < block.index("### goal")
    assert "(confidence 0." in block and "direct, 2026-11-01" in block
    small = context_block(results, budget=40)
    assert estimate_tokens(small) <= 40
    assert small.count("- Fact") < 4


def test_recall_on_the_sample_vault(sample_dir):
    with Vault.open(sample_dir) as vault:
        results = vault.recall("Which editor does she use?", 3, now=NOW)
        assert "Neovim" in results[0].text
        assert "editor" in results[0].matched
        assert all(r.status == "active" for r in results)
        profile = vault.profile(now=NOW)
        assert profile and {r.type for r in profile} <= {"identity", "preference", "constraint"}


def test_recall_leaves_out_superseded_and_archived(vault):
    vault.observe([{"role": "user", "content": "I live in Porto."}], conversation_id="a")
    vault.observe([{"role": "user", "content": "I live in Lisbon now."}], conversation_id="b")
    texts = [r.text for r in vault.recall("where does the user live, Porto or Lisbon?")]
    assert any("Lisbon" in t for t in texts) and not any("Porto" in t for t in texts)


def test_a_memory_is_found_by_the_words_of_the_question_it_answered(vault):
    # "Woodhaven" says nothing of a road trip; the message it answered does, and the note
    # keeps that message, so the question finds it.
    vault.observe(
        [
            {"role": "user", "name": "Nate", "content": "Your road trip sounds great! Where did you go?"},
            {"role": "user", "name": "Joanna", "content": "I went to Woodhaven, a small town in the Midwest."},
        ],
        conversation_id="c",
    )  # fmt: skip
    results = vault.recall("Where did Joanna go on her road trip?", 3)
    assert results[0].text.startswith("Joanna went to Woodhaven")
    assert results[0].sources == ("c#2",)
    note = (vault.root / results[0].path).read_text()
    assert "> Nate: Your road trip sounds great! Where did you go?" in note


def test_the_topics_of_a_message_are_searched_among_tags():
    plan = build_query("Which cities has Jon visited?")
    assert plan.topics == ("travel",)
    assert plan.topic_match == 'tags : ("travel")'  # a second query, beside the words
    assert build_query("Which editor?").topic_match == ""


def test_a_memory_that_shares_only_a_topic_is_found(vault):
    vault.remember("episode", "Took a short trip to Rome to clear my head.")
    vault.remember("preference", "Likes cities with good coffee.", tags=["food"])
    results = vault.recall("Which cities have I visited?", 5)
    rome = [r for r in results if "Rome" in r.text]
    assert rome and "topic/travel" in rome[0].matched
    assert results[0].text.startswith("Likes cities")  # a word match still ranks first


def test_only_one_reflection_in_the_top_results():
    plan = build_query("pottery")
    rows = [
        _row("r1", -9.0, text="Reflection one about pottery", type="reflection", sources=["c#1"]),
        _row("r2", -8.0, text="Reflection two about pottery", type="reflection", sources=["c#2"]),
        _row("m", -3.0, text="Made pottery", sources=["c#3"]),
    ]
    assert [r.path for r in rank(rows, plan, NOW)] == ["r1", "m", "r2"]


def test_memories_from_an_already_cited_message_move_down():
    plan = QueryPlan(("tea",), {"tea": 1.0})
    rows = [
        _row("a", -5.0, text="Likes tea", sources=["c#1"]),
        _row("b", -4.9, text="Likes green tea", sources=["c#1"]),
        _row("c", -3.0, text="Drinks tea at four", sources=["c#2"]),
    ]
    assert [r.path for r in rank(rows, plan, NOW)] == ["a", "c", "b"]


@pytest.mark.parametrize(
    ("member_text", "order"),
    [("Knee limits running volume", ["second", "reflection", "other", "member"]),
     ("Knee limits running volume in a plan", ["member", "reflection", "other", "second"])],
    ids=["a member holding too few words moves down", "the best member that answers goes first"],
)  # fmt: skip
def test_a_reflection_that_merely_cites_a_member_does_not_hide_it(member_text, order):
    plan = QueryPlan(("knee", "plan", "running"), {"knee": 1.0, "plan": 1.0, "running": 1.0})
    rows = [
        _row("reflection", -9.0, text="Running plan for the knee", type="reflection",
             sources=["c#1", "c#2"]),
        _row("member", -4.0, text=member_text, sources=["c#1"]),
        _row("other", -3.9, text="Likes a plan", sources=["c#3"]),
        # Another member that answers: one goes before the reflection, the rest move down.
        _row("second", -3.8, text="A running plan for a knee", sources=["c#2"]),
    ]  # fmt: skip
    assert 2 / 3 < MEMBER_ANSWERS <= 1.0  # the two cases sit either side of the threshold
    assert [r.path for r in rank(rows, plan, NOW)] == order


def test_a_list_to_be_fused_keeps_a_reflections_members_in_their_places():
    # The fusion may cut the reflection to the members that fit its context budget, so the
    # list it fuses keeps the others where they rank (fusion.fuse moves the repeats of what
    # the cut reflection still cites); a repeat of a memory that is no reflection moves down.
    plan = QueryPlan(("knee", "plan", "running"), {"knee": 1.0, "plan": 1.0, "running": 1.0})
    rows = [
        _row("reflection", -9.0, text="Running plan for the knee", type="reflection",
             sources=["c#1", "c#2"]),
        _row("member", -4.0, text="Knee limits running volume", sources=["c#1"]),
        _row("other", -3.9, text="Likes a plan", sources=["c#3"]),
        _row("second", -3.8, text="A running plan for a knee", sources=["c#2"]),
        _row("repeat", -3.7, text="Likes a plan a lot", sources=["c#3"]),
    ]  # fmt: skip
    alone = [r.path for r in rank(rows, plan, NOW)]
    assert alone == ["second", "reflection", "other", "member", "repeat"]
    fused = [r.path for r in rank(rows, plan, NOW, members_stay=True)]
    assert fused == ["second", "reflection", "member", "other", "repeat"]


def test_the_readme_example_recalls_the_knee_constraint(sample_dir):
    # README: `tota recall "Can you plan my running week around my knee?" --budget 300`.
    # The reflection on training cites the knee constraint's sources; the constraint says
    # what the question asks in its own words, so it ranks ahead and fits the budget.
    message = "Can you plan my running week around my knee?"
    with Vault.open(sample_dir) as vault:
        results = vault.recall(message, 10, now=NOW)
        titles = [r.title for r in results]
        knee = titles.index("Left knee limits running volume")
        assert knee < titles.index("Training for the Lisbon half-marathon")
        assert knee < 3
        block = context_block(results, budget=300)
        assert "patellar tendon problem in her left knee" in block
        top = vault.recall(message, knee + 1, now=NOW)  # a limit counts in rank order
        assert [r.title for r in top] == titles[: knee + 1]


def test_a_memory_about_the_person_the_message_names_ranks_first():
    plan = build_query("What did Caroline paint?")
    rows = [
        _row("melanie", -5.0, text="Melanie painted a lake; Caroline loved it", subject="Melanie"),
        _row("caroline", -4.8, text="Caroline painted a sunset", subject="Caroline"),
    ]
    assert [r.path for r in rank(rows, plan, NOW)] == ["caroline", "melanie"]


@pytest.mark.parametrize(
    ("question", "text", "matched"),
    [
        ("Which cities did Jon visit?", "Jon visited the city of Rome", ("cities", "jon", "visit")),
        ("What recipes does Joanna cook?", "Cooked a dairy-free recipe", ("cook", "recipes")),
        ("Who painted the lake?", "Painting lakes at dawn", ("lake", "painted")),
        ("What did Caroline paint?", "Painted Caroline's portrait", ("paint",)),
    ],
    ids=["plural and form", "forms", "forms both ways", "a possessive does not cover"],
)
def test_coverage_counts_plurals_and_word_forms(question: str, text: str, matched: tuple):
    [result] = rank([_row("m", -1.0, text=text, title="m")], build_query(question), NOW)
    assert result.matched == matched


def test_a_hyphenated_word_and_a_kinship_word_are_searched_with_their_alternates():
    plan = build_query("How many art-related events, and how many siblings?")
    assert {"art-related", "siblings"} <= set(plan.terms)  # the words themselves stay terms
    assert plan.alternates == {"art-related": ("art", "related"), "siblings": ("brother", "sister")}
    assert plan.searched[: len(plan.terms)] == plan.terms
    assert set(plan.searched) - set(plan.terms) == {"art", "related", "brother", "sister"}
    assert '"sister"' in plan.match and '"art-related"' in plan.match
    plain = build_query("Which editor do I use?")
    assert plain.alternates == {} and plain.searched == plain.terms


def test_a_memory_that_holds_an_alternate_covers_the_term():
    plan = build_query("How many siblings do I have?")
    [sisters] = rank([_row("m", -1.0, text="Has three sisters", title="m")], plan, NOW)
    assert sisters.matched == ("siblings",)
    [museum] = rank([_row("m", -1.0, text="Went to the street art fair", title="m")],
                    build_query("Which art-related events?"), NOW)  # fmt: skip
    assert museum.matched == ("art-related",)


def test_recall_finds_the_sister_asked_about_as_a_sibling(vault):
    vault.remember("identity", "Has three sisters and a brother.")
    vault.remember("preference", "Likes hiking in the Alps.")
    results = vault.recall("What is the total number of siblings I have?", 5)
    assert results and "sisters" in results[0].text


def _counts(table: dict[str, int]):
    """A `matches` for `plan_match`: each expression's count from a table, up to the cap."""

    def matches(expression: str, cap: int) -> int:
        return min(cap, table.get(expression, 0))

    return matches


def test_a_small_vault_query_is_every_rare_term_in_message_order():
    counts = _counts({'"kofi"': 3, '"sousa"': 2, '"sailing"': 40})
    query = plan_match(["kofi", "sousa", "sailing"], counts, common=2000, scored=2000)
    assert query == MemoryQuery('"kofi" OR "sousa" OR "sailing"', scored=None)


def test_rare_terms_are_kept_rarest_first_while_their_matches_sum_under_the_bound():
    # 11 + 246 + 1,898 matches: the commonest of the rare terms is left to coverage.
    counts = _counts({'"lazo"': 11, '"training"': 1898, '"log"': 246, '"written"': 3603})
    query = plan_match(["lazo", "training", "written", "log"], counts, common=2000, scored=2000)
    assert query == MemoryQuery('"lazo" OR "log"')
    # The rarest is kept whatever its count.
    assert plan_match(["a", "b"], _counts({'"a"': 1500, '"b"': 1900}), scored=1000).match == '"a"'


def test_a_term_no_note_holds_leaves_the_others_in_the_query():
    # "tanaka" is in no note: left out, the common word is what is searched, not nothing.
    counts = _counts({'"thinking"': 5000, '"tanaka"': 0})
    query = plan_match(["tanaka", "thinking"], counts, common=2000, newest=500)
    assert query == MemoryQuery('"thinking"', 500)
    counts = _counts({'"kofi"': 3, '"tanaka"': 0, '"sailing"': 2500})
    assert plan_match(["tanaka", "kofi", "sailing"], counts, common=2000).match == '"kofi"'
    # No term in any note: the query is the message's terms, which find nothing.
    assert plan_match(["zork"], _counts({}), common=2000).match == '"zork"'


def test_a_message_of_common_words_only_has_its_newest_matches_scored():
    counts = _counts({'"came"': 9214})
    assert plan_match(["came"], counts, common=2000, newest=500) == MemoryQuery('"came"', 500)
    both = {'"plan"': 12829, '"works"': 36639, '"plan" AND "works"': 2100}
    both['title : ("plan" AND "works")'] = 92
    query = plan_match(["plan", "works"], _counts(both), common=2000, newest=300)
    assert query == MemoryQuery('title : ("plan" AND "works")', 300)
    # No note holds all three: the two weightiest, in fewer than `common` notes, are searched
    # whole (no title fallback), and still only their newest matches scored.
    fewer = {'"came"': 9214, '"plan"': 12829, '"works"': 36639, '"plan" AND "works"': 1500}
    query = plan_match(["plan", "works", "came"], _counts(fewer), common=2000, newest=300)
    assert query == MemoryQuery('"plan" AND "works"', 300)


def test_the_bound_keeps_the_memory_the_rare_word_names(vault, monkeypatch):
    monkeypatch.setattr(recall_module, "COMMON_MATCHES", 10)
    monkeypatch.setattr(recall_module, "SCORED_MATCHES", 4)
    for day in ("Monday", "Tuesday", "Wednesday"):
        vault.remember("habit", f"Goes to swimming lessons every {day}.")
    vault.remember("relationship", "Ilse gives the swimming lessons at the lake.")
    # "ilse" (1 note) and "lessons" (4): their sum reaches the bound, so only "ilse" is
    # searched; "lessons" still counts in what the memory is credited with.
    assert plan_match(["ilse", "lessons"], vault.index.count_matches, scored=4).match == '"ilse"'
    results = vault.recall("Who gives lessons, Ilse?", 3, now=NOW)
    assert results[0].text.startswith("Ilse gives")
    assert set(results[0].matched) >= {"ilse", "lessons"}


def test_the_newest_matches_scored_are_of_the_type_and_status_asked_for(vault, monkeypatch):
    """A typed recall of common words scores the newest matches *of its type* (found by
    review: counted over every match, the newest were all of another type and it found
    none), and archived memories do not use up the bound."""
    monkeypatch.setattr(recall_module, "COMMON_MATCHES", 3)
    monkeypatch.setattr(recall_module, "NEWEST_SCORED", 2)
    for i in range(2):
        vault.remember("identity", f"Works from home with an umbrella stand ({i}).")
    for i in range(6):
        vault.remember("relationship", f"Friend {i} forgot an umbrella at the user's place.")
    assert [r.type for r in vault.recall("umbrella", 5, type="identity", now=NOW)] == [
        "identity", "identity",
    ]  # fmt: skip
    for result in vault.recall("umbrella", 10, type="relationship", now=NOW)[:4]:
        vault.archive(result.path)
    active = vault.recall("umbrella", 10, type="relationship", now=NOW)
    assert len(active) == 2 and all(r.status == "active" for r in active)


def test_only_the_newest_matches_of_common_words_are_scored(vault, monkeypatch):
    monkeypatch.setattr(recall_module, "COMMON_MATCHES", 3)
    monkeypatch.setattr(recall_module, "NEWEST_SCORED", 2)
    for i, colour in enumerate(("green", "black", "red", "white")):
        vault.remember("preference", f"Carries a {colour} umbrella (note {i}).")
    index = vault.index
    every = index.recall_candidates('"umbrella"', type=None, include_archived=False, limit=10)
    newest = index.recall_candidates(
        '"umbrella"', type=None, include_archived=False, limit=10, scored=2
    )
    assert len(every) == 4
    assert {row.text for row, _ in newest} == {"Carries a red umbrella (note 2).",
                                               "Carries a white umbrella (note 3)."}  # fmt: skip
    # bm25's values are the same, only fewer rows get one.
    scores = {row.path: score for row, score in every}
    assert all(scores[row.path] == score for row, score in newest)
    assert not build_query("umbrella?").topics  # so recall's only candidates are these
    recalled = vault.recall("umbrella?", 10, type="preference", now=NOW)
    assert {r.text for r in recalled} == {row.text for row, _ in newest}
    # More to score than there are matches: all of them, as without the bound.
    wide = index.recall_candidates(
        '"umbrella"', type=None, include_archived=False, limit=10, scored=50
    )
    assert wide == every


def test_a_reflection_cites_the_members_the_message_reached_best_first():
    plan = QueryPlan(("pottery",), {"pottery": 1.0})
    rows = [
        _row("reflection", -9.0, text="Pottery and painting", type="reflection",
             sources=["c#1", "c#2", "c#3", "c#4"]),
        _row("weak", -2.0, text="Made pottery once", sources=["c#4"]),
        _row("strong", -6.0, text="Loves pottery, pottery class", sources=["c#2"]),
        _row("elsewhere", -5.0, text="Pottery with friends", sources=["d#9"]),
    ]  # fmt: skip
    ranked = {r.path: r for r in rank(rows, plan, NOW)}
    # Its members among the candidates, best-ranked first; c#1 and c#3 the message never reached.
    assert ranked["reflection"].sources == ("c#2", "c#4")
    assert ranked["strong"].sources == ("c#2",)
    whole = {r.path: r for r in rank(rows, plan, NOW, cite_members=False)}
    assert whole["reflection"].sources == ("c#1", "c#2", "c#3", "c#4")


def test_a_reflection_no_member_of_which_is_a_candidate_keeps_its_sources():
    plan = QueryPlan(("pottery",), {"pottery": 1.0})
    rows = [
        _row("reflection", -9.0, text="Pottery", type="reflection", sources=["c#1", "c#2"]),
        _row("other", -5.0, text="Pottery with friends", sources=["d#9"]),
    ]  # fmt: skip
    assert rank(rows, plan, NOW)[0].sources == ("c#1", "c#2")


@pytest.mark.parametrize(
    ("message", "personal"),
    [
        ("How many charity events did I participate in?", True),
        ("What is the total number of siblings I have?", True),
        ("I'm planning my meal prep next week, can you suggest new recipes?", True),
        ("Do you know how much I raised?", True),
        ("What did you recommend for my knee?", False),
        ("Can you remind me of the song you wrote for me?", False),
        ("I was going through our previous conversation, can you remind me?", False),
        ("What did Caroline research?", False),  # no first person: a question about others
    ],
)
def test_a_question_about_the_person_is_told_from_one_about_the_assistant(message, personal):
    assert about_the_person(message) is personal
    assert build_query(message).personal is personal


@pytest.mark.parametrize(
    ("message", "later"),
    [
        # One speaker named: the others' turns go after hers.
        ("Where has Melanie camped?", [True, False, True, False]),
        # Every speaker named, or none, or a name at the start of a sentence (not weighed as
        # one, as recall does not take it for a memory's subject): bm25's order.
        ("Have Caroline and Melanie camped?", [False] * 4),
        ("Where did they camp?", [False] * 4),
        ("Melanie camped where?", [False] * 4),
        # A name no turn of the list speaks is no speaker's: nothing goes after.
        ("Where has Gina camped?", [False] * 4),
    ],
)
def test_the_turns_of_speakers_a_question_does_not_name_rank_later(message, later):
    roles, speakers = ["user"] * 4, ["Caroline", "Melanie", "Caroline", "Melanie"]
    assert turns_later(build_query(message), roles, speakers) == later


def test_the_assistant_s_turns_rank_later_for_a_question_about_the_person():
    roles, speakers = ["assistant", "user"], ["assistant", "user"]
    assert turns_later(build_query("When did I plant my tulips?"), roles, speakers) == [
        True,
        False,
    ]
    assert turns_later(build_query("What did you say about tulips?"), roles, speakers) == [
        False,
        False,
    ]


def test_vault_recall_quotes_the_named_speaker_s_turns_before_the_other_s(vault: Vault):
    said = [
        ("Melanie", "Pine Ridge, camping under the stars."),
        ("Caroline", "Melanie, camping! Camping, Melanie?"),
        ("Melanie", "The kids loved the lake."),
        ("Caroline", "So lovely."),
    ]
    vault.observe(
        [Message(role="user", content=t, id=str(i), name=who) for i, (who, t) in enumerate(said)],
        conversation_id="c1",
    )

    def speakers(message: str) -> list[str | None]:
        return [r.subject for r in vault.recall(message) if r.kind == "turn"]

    # bm25 ranks Caroline's question first (it says both words twice); the answer is Melanie's.
    assert speakers("Where did they go camping?")[0] == "Caroline"
    assert speakers("Where did Melanie go camping?") == ["Melanie", "Melanie", "Caroline"]


def test_vault_recall_ranks_an_echo_as_the_words_it_was_found_by(vault: Vault):
    """The person's "Great, noted." is found only through the assistant's reply before it
    (its context): for a question about the person it ranks with the assistant's turns,
    after the person's own words, not before the reply whose words it was found by."""
    said = [
        ("user", "Is there a trail to hike near Sintra? I love a long trail."),
        ("assistant", "Try the Ridgeback loop: the Ridgeback trail has the best views."),
        ("user", "Great, noted."),
    ]
    vault.observe(
        [Message(role=r, content=t, id=str(i)) for i, (r, t) in enumerate(said, 1)],
        conversation_id="c1",
    )
    turns = [
        r.sources[0]
        for r in vault.recall("Which Ridgeback trail did I mean to hike?")
        if r.kind == "turn"
    ]
    assert turns[-2:] == ["c1#2", "c1#3"]  # the reply, then its echo


def test_vault_recall_keeps_members_in_place_only_for_the_list_it_fuses(vault, monkeypatch):
    vault.remember("preference", "Likes green tea.")
    asked: list[bool] = []
    plain = recall_module.recall

    def spy(*args, **kwargs):
        asked.append(kwargs.get("members_stay", False))
        return plain(*args, **kwargs)

    monkeypatch.setattr(recall_module, "recall", spy)
    assert vault.recall("tea", 5) and vault.recall("tea", 5, type="preference")
    assert asked == [True, False]  # fused with turns; memories of one type alone


def test_a_reflection_cites_first_the_members_holding_more_of_the_message_s_words():
    plan = QueryPlan(("pottery", "glaze"), {"pottery": 1.0, "glaze": 1.0})
    rows = [
        _row("reflection", -9.0, text="Pottery and painting", type="reflection",
             sources=["c#1", "c#2", "c#3"]),
        _row("loud", -8.0, text="Pottery, pottery, pottery", sources=["c#1"]),
        _row("both", -3.0, text="A pottery glaze that cracked", sources=["c#2"]),
        _row("plain", -2.0, text="Made pottery once", sources=["c#3"]),
    ]  # fmt: skip
    ranked = {r.path: r for r in rank(rows, plan, NOW)}
    # The member that says both words comes first though bm25 ranks it below the one that
    # says one of them three times; those alike in coverage keep their rank order.
    assert ranked["loud"].score > ranked["both"].score
    assert ranked["reflection"].sources == ("c#2", "c#1", "c#3")


def test_the_query_leaves_out_the_prepositions_stopwords_leave():
    plan = build_query("What offer does Gina make to Jon regarding social media, according to Tim?")
    assert "regarding" not in plan.terms and "according" not in plan.terms
    assert {"offer", "gina", "jon", "social", "media", "tim"} <= set(plan.terms)
    # A word that is a preposition and a content word alike stays.
    assert "past" in build_query("What did I buy in the past month?").terms


def test_the_profile_holds_the_health_of_the_people_the_person_tells_of(vault):
    """A user-style review: "My daughter Ivy is allergic to shellfish." was a relationship
    memory, so the session-start profile an assistant plans dinners with left it out."""
    vault.observe(
        [
            {
                "role": "user",
                "content": "My daughter Ivy is allergic to shellfish. I'm vegetarian. "
                "My son Leo has asthma.",
            }
        ],
        conversation_id="c1",
    )
    vault.remember("relationship", "The user's sister Ana lives in Berlin.", importance=0.6)
    vault.remember("relationship", "Mum takes insulin.", importance=0.6, tags=["health"])
    profile = {r.text: r.type for r in vault.profile()}
    assert profile.get("The user's daughter Ivy is allergic to shellfish.") == "relationship"
    assert profile.get("The user's son Leo has asthma.") == "relationship"
    assert profile.get("Mum takes insulin.") == "relationship"  # the person's own tag
    assert profile.get("Is vegetarian.") == "identity"
    assert "The user's sister Ana lives in Berlin." not in profile  # health, not every relative
