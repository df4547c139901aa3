"""Model: `memory_from_fields` rules, ids, dates."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from tota_vault.errors import InvalidNoteError
from tota_vault.model import (
    MANUAL_DEFAULTS,
    Evidence,
    Memory,
    MemoryType,
    Status,
    format_date,
    memory_from_fields,
    new_id,
    parse_date,
    source_total,
    validate_score,
)

ULID = "01JDX3M7Q9T8ZK4W5N6P2R1S0V"
CROCKFORD = set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
BASE: dict[str, Any] = {"id": ULID, "type": "preference"}


def build(**fields: Any) -> Memory:
    return memory_from_fields({**BASE, **fields}, "Prefers tea.")


INVALID = [
    ({"type": "food"}, "unknown type 'food'"),
    ({"type": ["goal"]}, "type is not text"),
    ({"evidence": "guess"}, "unknown evidence 'guess'"),
    ({"evidence": {"a": "b"}}, "list or mapping"),
    ({"status": "gone"}, "unknown status 'gone'"),
    ({"confidence": "1.5"}, "out of [0, 1]"),
    ({"importance": "-0.1"}, "out of [0, 1]"),
    ({"durability": "2"}, "out of [0, 1]"),
    ({"confidence": "nan"}, "confidence"),
    ({"confidence": "NaN"}, "confidence"),
    ({"confidence": ".nan"}, "confidence"),
    ({"confidence": "inf"}, "out of [0, 1]"),
    ({"confidence": "true"}, "not a number"),
    ({"confidence": True}, "not a number"),
    ({"confidence": "high"}, "not a number"),
    ({"confidence": "50%"}, "not a number"),
    ({"confidence": ["0.5"]}, "not a number"),
    ({"confidence": {"v": "0.5"}}, "not a number"),
    ({"created": "2023-13-45"}, "created '2023-13-45'"),
    ({"created": "yesterday"}, "created 'yesterday' is not a date"),
    ({"updated": "2026-02-30"}, "updated"),
    ({"confirmed": "2026-11-29T25:00"}, "confirmed"),
    ({"created": "29/11/2026"}, "not a date"),
    ({"created": ["2026-11-29"]}, "not a date"),
    ({"confirmations": "two"}, "not a whole number"),
    ({"confirmations": "1.5"}, "not a whole number"),
    ({"confirmations": "true"}, "not a whole number"),
    ({"confirmations": ["1"]}, "not a whole number"),
    ({"confirmations": "-1"}, "negative"),
    ({"tags": {"a": "b"}}, "tags is a mapping"),
    ({"sources": {"a": "b"}}, "sources is a mapping"),
    ({"aliases": {"a": "b"}}, "aliases is a mapping"),
    ({"tags": [["nested"]]}, "nested"),
    ({"key": ["a"]}, "list or mapping"),
    ({"subject": {"who": "me"}}, "list or mapping"),
]


@pytest.mark.parametrize(
    ("fields", "reason"), INVALID, ids=[f"{k}={v!r}" for f, _ in INVALID for k, v in f.items()]
)
def test_invalid_fields_raise_one_clear_reason(fields: dict[str, Any], reason: str) -> None:
    with pytest.raises(InvalidNoteError) as caught:
        build(**fields)
    assert reason in caught.value.reason
    assert "\n" not in str(caught.value)


def test_invalid_note_error_names_the_path() -> None:
    with pytest.raises(InvalidNoteError) as caught:
        memory_from_fields({"type": "food"}, "x", path="goal/x.md")
    assert str(caught.value).startswith("goal/x.md: unknown type")


SCORES = [
    ("0", 0.0),
    ("1", 1.0),
    ("0.5", 0.5),
    ("1.0", 1.0),
    ("0.82", 0.82),
    ("1e-1", 0.1),
    ("'0.3'", 0.3),
    (0.25, 0.25),
    (1, 1.0),
]


@pytest.mark.parametrize(("value", "expected"), SCORES, ids=[repr(v) for v, _ in SCORES])
def test_scores_accepted(value: Any, expected: float) -> None:
    assert build(confidence=value).confidence == expected
    assert validate_score(value, name="x") == expected


def test_missing_scores_take_manual_defaults() -> None:
    memory = memory_from_fields({"type": "goal"}, "Run.")
    assert (memory.confidence, memory.importance, memory.durability) == (
        MANUAL_DEFAULTS["confidence"],
        MANUAL_DEFAULTS["importance"],
        MANUAL_DEFAULTS["durability"],
    )


def local(utc: datetime) -> datetime:
    return utc.replace(tzinfo=UTC).astimezone().replace(tzinfo=None)


DATES = [
    ("2026-11-29", datetime(2026, 11, 29)),
    ("2026-11-29T11:43", datetime(2026, 11, 29, 11, 43)),
    ("2026-11-29 11:43", datetime(2026, 11, 29, 11, 43)),
    ("2026-11-29T11:43:07", datetime(2026, 11, 29, 11, 43, 7)),
    ("2026-11-29 11:43:07", datetime(2026, 11, 29, 11, 43, 7)),
    ("2026-11-29T11:43:07.123456", datetime(2026, 11, 29, 11, 43, 7)),
    ("2026-11-29T11:43:00Z", local(datetime(2026, 11, 29, 11, 43))),
    ("2026-11-29T11:43Z", local(datetime(2026, 11, 29, 11, 43))),
    ("2026-11-29T13:43:00+02:00", local(datetime(2026, 11, 29, 11, 43))),
    ("2026-11-29T06:43:00-0500", local(datetime(2026, 11, 29, 11, 43))),
    ('"2026-11-29T11:43:00"', datetime(2026, 11, 29, 11, 43)),
    ("  2026-11-29  ", datetime(2026, 11, 29)),
]


@pytest.mark.parametrize(("text", "expected"), DATES, ids=[t.strip() for t, _ in DATES])
def test_accepted_date_forms(text: str, expected: datetime) -> None:
    assert parse_date(text) == expected
    assert build(created=text).created == expected


@pytest.mark.parametrize(
    "text",
    ["2023-13-45", "yesterday", "2026-02-30", "2026-11-29T24:00:00", "26-11-29", "2026/11/29", ""],
    ids=["month-13", "word", "feb-30", "hour-24", "short-year", "slashes", "empty"],
)
def test_parse_date_rejects(text: str) -> None:
    with pytest.raises(ValueError, match="created"):
        parse_date(text, name="created")


ROUND_TRIP_DATES = [
    datetime(2026, 11, 29, 11, 43),
    datetime(1999, 12, 31, 23, 59, 59),
    datetime(2024, 2, 29, 0, 0, 0),
    datetime(1, 1, 1, 0, 0, 0),
]


@pytest.mark.parametrize("value", ROUND_TRIP_DATES, ids=[str(d) for d in ROUND_TRIP_DATES])
def test_format_and_parse_date_round_trip(value: datetime) -> None:
    text = format_date(value)
    assert len(text) == 19 and text[10] == "T"
    assert parse_date(text) == value
    assert format_date(parse_date(text)) == text


def test_parse_date_drops_microseconds_and_zone_of_datetimes() -> None:
    aware = datetime(2026, 11, 29, 11, 43, 5, 999, tzinfo=timezone(timedelta(hours=3)))
    assert parse_date(aware) == datetime(2026, 11, 29, 11, 43, 5)


def test_missing_dates_fall_back() -> None:
    fallback = datetime(2025, 1, 2, 3, 4, 5)
    memory = memory_from_fields({"type": "goal"}, "Run.", fallback_time=fallback)
    assert memory.created == memory.updated == memory.confirmed == fallback
    created = memory_from_fields(
        {"type": "goal", "created": "2024-05-06"}, "Run.", fallback_time=fallback
    )
    assert created.updated == created.confirmed == datetime(2024, 5, 6)


EVIDENCE = [
    ({"type": "goal"}, Evidence.MANUAL, ""),
    ({"type": "goal", "id": ""}, Evidence.MANUAL, ""),
    ({"type": "goal", "evidence": "direct"}, Evidence.DIRECT, ""),
    ({"type": "goal", "id": ULID}, Evidence.SYSTEM, ULID),
    ({"type": "goal", "id": ULID, "evidence": "Inferred"}, Evidence.INFERRED, ULID),
]


@pytest.mark.parametrize(
    ("fields", "evidence", "memory_id"),
    EVIDENCE,
    ids=["no-id", "empty-id", "no-id-with-evidence", "id", "id-with-evidence"],
)
def test_evidence_defaults(fields: dict[str, Any], evidence: Evidence, memory_id: str) -> None:
    memory = memory_from_fields(fields, "Run.")
    assert memory.evidence is evidence
    assert memory.id == memory_id


def test_type_from_folder_and_case() -> None:
    assert memory_from_fields({}, "x", default_type=MemoryType.HABIT).type is MemoryType.HABIT
    assert memory_from_fields({"type": "Goal"}, "x").type is MemoryType.GOAL
    with pytest.raises(InvalidNoteError, match="no type"):
        memory_from_fields({}, "x")
    with pytest.raises(InvalidNoteError, match="no type"):
        memory_from_fields({"type": "  "}, "x")


def test_lists_and_extras() -> None:
    memory = build(
        tags=["a", "", None, " b "], sources="chat#1", aliases=None, publish="true", zz=["x"]
    )
    assert memory.tags == ("a", "b")
    assert memory.sources == ("chat#1",)
    assert memory.aliases == ()
    assert memory.extra == {"publish": "true", "zz": ["x"]}
    assert list(memory.extra) == ["publish", "zz"]


@pytest.mark.parametrize(
    ("fields", "total"),
    [
        ({}, 0),
        ({"sources": ["a#1", "b#1"]}, 2),  # no count: the list is the whole story
        ({"sources": ["a#1", "b#1"], "sources_count": "40"}, 40),
        ({"sources": ["a#1", "b#1"], "sources_count": " 40 "}, 40),
        ({"sources": ["a#1", "b#1"], "sources_count": "1"}, 2),  # never less than the list
        ({"sources": ["a#1"], "sources_count": "many"}, 1),  # not a number: the list
        ({"sources": ["a#1"], "sources_count": "-5"}, 1),
        ({"sources": ["a#1"], "sources_count": ""}, 1),
    ],
)
def test_source_total(fields: dict[str, Any], total: int) -> None:
    assert source_total(build(**fields)) == total


def test_statuses_and_confirmations() -> None:
    assert build(status="Archived").status is Status.ARCHIVED
    assert build(confirmations="7").confirmations == 7
    assert build(confirmations="").confirmations == 1


# --- ids ---------------------------------------------------------------------------------------


def test_new_id_is_26_crockford_characters() -> None:
    ids = {new_id() for _ in range(500)}
    assert len(ids) == 500
    for memory_id in ids:
        assert len(memory_id) == 26
        assert set(memory_id) <= CROCKFORD
        assert memory_id[0] in "01234567"  # 128 bits in 130: the top two are zero


TIMES = [0.0, 1.0, 1.25, 1.5, 1_000_000.0, 1_764_400_000.0, 1_764_400_000.5, 4_000_000_000.0]


def test_new_id_sorts_by_time() -> None:
    ids = [new_id(at) for at in TIMES]
    assert ids == sorted(ids)
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize("at", TIMES, ids=[str(t) for t in TIMES])
def test_new_id_encodes_milliseconds_in_its_first_ten_characters(at: float) -> None:
    prefix = new_id(at)[:10]
    value = 0
    for char in prefix:
        value = value * 32 + "0123456789ABCDEFGHJKMNPQRSTVWXYZ".index(char)
    assert value == int(at * 1000)
    assert new_id(at)[:10] == prefix
