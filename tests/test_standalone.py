"""The checker of whether a memory stands alone (bench/quality/standalone.py): each row a
statement as the extractor stores it and the class a reader gives it."""

from __future__ import annotations

import pytest

from bench.quality.standalone import Memory, classify, parts, shares

LABELS = ("Sam", "Alex")

# fmt: off
ROWS = [
    # the examples
    ("He's Sam's best friend.", "dangling"),
    ("Sam loves the challenge of it.", "dangling"),
    ("Sam is sorry to hear that.", "reaction"),
    ("Sam is sure you'd like it.", "reaction"),
    ("Sam will have to check it out.", "reaction"),
    # the thing liked, named nowhere; an ellipsis; a place not said
    ("Sam loves it.", "dangling"),
    ("Sam has always wanted to.", "dangling"),
    ("Sam has been there twice.", "dangling"),
    ("Sam has one too.", "dangling"),
    ("Sam is trying it now.", "dangling"),
    ("Sam loves the history and the culture.", "dangling"),  # of where?
    ("Sam loves the Beatles.", "ok"),
    ("Watching that movie with Tim's family was awesome.", "dangling"),
    ("Sam went to the gym this week.", "ok"),
    ("Sam bought a bike and loves that bike.", "ok"),
    # ... but named in the statement, or in the turn a framed reply quotes
    ("Sam loves cats and feeds them daily.", "ok"),
    ("Sam loves hiking and does it often.", "ok"),
    ("Sam has been to Paris and loved it there.", "ok"),
    ('Replying to "I like to paint.", Alex said: "I haven\'t done it in a long time."', "ok"),
    ('Sam said: "I used to play shortstop. I\'m not very good at it."', "ok"),
    # a quoted turn that names nothing resolves nothing
    ('Replying to "Wow, that sounds amazing!", Sam said: "It was definitely scary at first."',
     "dangling"),
    ('Replying to "I like to make time stop.", Alex said: "I wish I could do that."', "reaction"),
    # an "it" that stands for nothing, an idiom, information technology
    ("It's hard to say no.", "ok"),
    ("Sam loves it when it rains.", "ok"),
    ("Sam made it to the finals.", "ok"),
    ('Asked "What do you do for work?", Sam said: "I work in IT."', "ok"),
    # the listener spoken to
    ("Alex is free this weekend if you want to go together.", "listener"),
    ("Caroline went to a support group on 7 May 2023.", "ok"),
]
# fmt: on


@pytest.mark.parametrize(("text", "kind"), ROWS, ids=[r[0] for r in ROWS])
def test_classify(text: str, kind: str):
    assert classify(text, LABELS).kind == kind


def test_parts_split_a_framed_reply_and_a_statement_from_its_subject():
    assert parts('Asked "Do you?", Sam said: "I do."', LABELS) == ("Do you?", "I do.")
    assert parts("Sam loves it.", LABELS) == ("", "loves it.")
    assert parts("Loves it.") == ("", "Loves it.")


def test_shares_count_each_class_once():
    memories = [Memory("spc-0", t, LABELS) for t in ("Sam loves it.", "Sam loves jazz.")]
    result = shares(memories)
    assert result["dangling_share"] == 0.5 and result["ok_share"] == 0.5
    assert result["counts"] == {"dangling": 1, "ok": 1}
