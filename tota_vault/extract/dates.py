"""Relative dates in a message, resolved against the message's own timestamp.

"I went to a support group yesterday", said on 8 May 2023, is a memory about 7 May 2023: the
memory must say so, because "yesterday" means nothing a week later. `resolve_dates` rewrites
each relative phrase into an absolute one and returns the dates it found, so the merge step
can refuse to fold two facts that happened on different days.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta

__all__ = ["RESOLVED_DATE", "format_day", "resolve_dates", "says_when"]

_WEEKDAYS = {name.lower(): i for i, name in enumerate(calendar.day_name)}
_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "a couple of": 2, "a few": 3, "couple of": 2,
    "few": 3,
}  # fmt: skip
_NUMBER_RE = (
    r"(\d+|a couple of|couple of|a few|few|an?|one|two|three|four|five|six|seven|eight|nine|ten)"
)
#: Each pattern is tried in order; longer phrases first so "last weekend" beats "last week".
_PATTERNS = [
    ("ago", re.compile(rf"\b{_NUMBER_RE}\s+(day|week|month|year)s?\s+ago\b", re.I)),
    ("last_weekday", re.compile(r"\b(last|this past)\s+(" + "|".join(_WEEKDAYS) + r")\b", re.I)),
    ("next_weekday", re.compile(r"\b(next|this coming)\s+(" + "|".join(_WEEKDAYS) + r")\b", re.I)),
    ("rel", re.compile(
        r"\b(the day before yesterday|yesterday|last night|this morning|this afternoon|"
        r"this evening|tonight|today|tomorrow|last weekend|this weekend|next weekend|"
        r"last week|this week|next week|last month|this month|next month|last year|"
        r"this year|next year)\b", re.I)),
]  # fmt: skip


#: A time as `resolve_dates` writes it in place of a relative one ("on 7 May 2023", "in the
#: week before 5 March 2026", "on the weekend of 6 May 2023", "in May 2023", "in 2023"): read
#: by what compares statements, where such a phrase says when, never what or for whom.
_MONTHS = "|".join(calendar.month_name[1:])
RESOLVED_DATE = re.compile(
    r"\b(?:on|around|in)\s+(?:the (?:weekend|week) (?:of|before|after) )?"
    rf"(?:(?:{'|'.join(calendar.day_name)}) )?(?:\d{{1,2}} )?(?:(?:{_MONTHS}) )?\d{{4}}\b"
)


def format_day(day: date) -> str:
    """`7 May 2023`: day-month-year with the month's name, unambiguous in every locale."""
    return f"{day.day} {calendar.month_name[day.month]} {day.year}"


def _month(day: date, delta: int) -> date:
    month = day.month - 1 + delta
    return date(day.year + month // 12, month % 12 + 1, 1)


def _phrase(kind: str, match: re.Match[str], today: date) -> tuple[str, date]:
    """The absolute replacement for one relative phrase, and the day it stands for."""
    if kind == "ago":
        count = _NUMBERS.get(match.group(1).lower())
        n = count if count is not None else int(match.group(1))
        unit = match.group(2).lower()
        if unit == "day":
            day = today - timedelta(days=n)
            return f"on {format_day(day)}", day
        if unit == "week":
            day = today - timedelta(weeks=n)
            return f"around {format_day(day)}", day
        if unit == "month":
            day = _month(today, -n)
            return f"in {calendar.month_name[day.month]} {day.year}", day
        day = date(today.year - n, 1, 1)
        return f"in {day.year}", day
    if kind in ("last_weekday", "next_weekday"):
        target = _WEEKDAYS[match.group(2).lower()]
        if kind == "last_weekday":
            back = (today.weekday() - target) % 7 or 7
            day = today - timedelta(days=back)
        else:
            ahead = (target - today.weekday()) % 7 or 7
            day = today + timedelta(days=ahead)
        return f"on {calendar.day_name[day.weekday()]} {format_day(day)}", day
    phrase = match.group(1).lower()
    simple = {
        "the day before yesterday": -2, "yesterday": -1, "last night": -1, "this morning": 0,
        "this afternoon": 0, "this evening": 0, "tonight": 0, "today": 0, "tomorrow": 1,
    }  # fmt: skip
    if phrase in simple:
        day = today + timedelta(days=simple[phrase])
        return f"on {format_day(day)}", day
    if phrase.endswith("weekend"):
        shift = {"last": -1, "this": 0, "next": 1}[phrase.split()[0]]
        # The weekend of the current Monday-based week: on a Sunday, "this weekend" is the
        # day before, "last weekend" a week earlier.
        saturday = today - timedelta(days=today.weekday()) + timedelta(days=5 + 7 * shift)
        return f"on the weekend of {format_day(saturday)}", saturday
    if phrase.endswith("week"):
        shift = {"last": -1, "this": 0, "next": 1}[phrase.split()[0]]
        if shift == 0:
            return f"in the week of {format_day(today)}", today
        day = today + timedelta(weeks=shift)
        word = "before" if shift < 0 else "after"
        return f"in the week {word} {format_day(today)}", day
    if phrase.endswith("month"):
        shift = {"last": -1, "this": 0, "next": 1}[phrase.split()[0]]
        day = _month(today, shift)
        return f"in {calendar.month_name[day.month]} {day.year}", day
    shift = {"last": -1, "this": 0, "next": 1}[phrase.split()[0]]
    day = date(today.year + shift, 1, 1)
    return f"in {day.year}", day


#: A day or month named outright: "on March 3", "last Friday", "in May".
_NAMED_TIME = re.compile(
    "\\b(?:" + "|".join([*calendar.month_name[1:], *calendar.day_name]) + ")s?\\b"
)


def says_when(text: str) -> bool:
    """Whether `text` says when: a relative phrase `resolve_dates` rewrites ("yesterday",
    "last week"), or a month or weekday named ("on March 3", "on Friday")."""
    return _NAMED_TIME.search(text) is not None or any(p.search(text) for _, p in _PATTERNS)


def resolve_dates(text: str, when: datetime | date | None) -> tuple[str, list[date]]:
    """Rewrite relative date phrases in `text` as absolute ones, relative to `when`.

    Returns the new text and the days mentioned. Without a timestamp the text is unchanged.
    A preposition before the phrase ("on yesterday" never occurs, but "since last week" does)
    is kept; "on"/"in" that the replacement already carries are not doubled.
    """
    if when is None:
        return text, []
    today = when.date() if isinstance(when, datetime) else when
    days: list[date] = []
    for kind, pattern in _PATTERNS:

        def replace(match: re.Match[str], kind: str = kind) -> str:
            replacement, day = _phrase(kind, match, today)
            days.append(day)
            return replacement

        text = pattern.sub(replace, text)
    text = re.sub(r"\b(on|in) (on|in|around) ", r"\2 ", text)
    return text, days
