"""Relative dates resolved against the message's own timestamp (`extract.dates`)."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from tota_vault.extract.dates import format_day, resolve_dates, says_when

MON = datetime(2023, 5, 8, 13, 56)  # Monday 8 May 2023
SAT = datetime(2023, 5, 13, 9, 0)  # Saturday 13 May 2023
SUN = datetime(2023, 5, 14, 9, 0)  # Sunday 14 May 2023
JAN = datetime(2024, 1, 15, 9, 0)  # Monday 15 January 2024
JAN_3 = datetime(2024, 1, 3, 9, 0)  # Wednesday 3 January 2024

SUNDAY_WEEKEND = (
    "dates._phrase counts a Sunday as the start of the next weekend: on Sunday 14 May 'this "
    "weekend' gives 20 May and 'last weekend' 13 May (the Saturday before it gives 13 and 6)"
)


def row(text: str, when: datetime, out: str, *days: date, marks=()):
    return pytest.param(text, when, out, list(days), marks=marks, id=f"{when:%a %d %b %Y}: {text}")


# fmt: off
TABLE = [
    row("I went to a support group yesterday.", MON,
        "I went to a support group on 7 May 2023.", date(2023, 5, 7)),
    row("Yesterday I went to a support group.", MON,
        "on 7 May 2023 I went to a support group.", date(2023, 5, 7)),
    row("I went there the day before yesterday.", MON, "I went there on 6 May 2023.",
        date(2023, 5, 6)),
    row("I went out last night.", MON, "I went out on 7 May 2023.", date(2023, 5, 7)),
    row("I have a dentist appointment today.", MON,
        "I have a dentist appointment on 8 May 2023.", date(2023, 5, 8)),
    row("I'm cooking pasta tonight.", MON, "I'm cooking pasta on 8 May 2023.", date(2023, 5, 8)),
    row("I fly to Rome tomorrow.", MON, "I fly to Rome on 9 May 2023.", date(2023, 5, 9)),
    row("Tomorrow is the last day of the year.", datetime(2023, 12, 30),
        "on 31 December 2023 is the last day of the year.", date(2023, 12, 31)),
    row("I fly home tomorrow.", datetime(2023, 12, 31, 23, 0), "I fly home on 1 January 2024.",
        date(2024, 1, 1)),
    # weeks
    row("I moved last week.", MON, "I moved in the week before 8 May 2023.", date(2023, 5, 1)),
    row("I'll call this week.", MON, "I'll call in the week of 8 May 2023.", date(2023, 5, 8)),
    row("I start a new job next week.", MON, "I start a new job in the week after 8 May 2023.",
        date(2023, 5, 15)),
    # weekends
    row("We went camping last weekend.", MON, "We went camping on the weekend of 6 May 2023.",
        date(2023, 5, 6)),
    row("We're going camping this weekend.", MON,
        "We're going camping on the weekend of 13 May 2023.", date(2023, 5, 13)),
    row("We're going camping next weekend.", MON,
        "We're going camping on the weekend of 20 May 2023.", date(2023, 5, 20)),
    row("We went camping last weekend.", SAT, "We went camping on the weekend of 6 May 2023.",
        date(2023, 5, 6)),
    row("We're going camping this weekend.", SAT,
        "We're going camping on the weekend of 13 May 2023.", date(2023, 5, 13)),
    row("We went camping last weekend.", SUN, "We went camping on the weekend of 6 May 2023.",
        date(2023, 5, 6)),
    row("We're camping this weekend.", SUN, "We're camping on the weekend of 13 May 2023.",
        date(2023, 5, 13)),
    # months, across a year boundary
    row("I started a course last month.", JAN, "I started a course in December 2023.",
        date(2023, 12, 1)),
    row("I started a course last month.", JAN_3, "I started a course in December 2023.",
        date(2023, 12, 1)),
    row("I started this month.", MON, "I started in May 2023.", date(2023, 5, 1)),
    row("I'm moving next month.", MON, "I'm moving in June 2023.", date(2023, 6, 1)),
    row("I'm moving next month.", datetime(2023, 12, 20), "I'm moving in January 2024.",
        date(2024, 1, 1)),
    # years
    row("I graduated last year.", MON, "I graduated in 2022.", date(2022, 1, 1)),
    row("I graduated last year.", JAN, "I graduated in 2023.", date(2023, 1, 1)),
    row("My goal this year is to read 50 books.", MON,
        "My goal in 2023 is to read 50 books.", date(2023, 1, 1)),
    row("I'll be 40 next year.", MON, "I'll be 40 in 2024.", date(2024, 1, 1)),
    # N units ago, in words and digits
    row("I met her three days ago.", MON, "I met her on 5 May 2023.", date(2023, 5, 5)),
    row("I met her 3 days ago.", MON, "I met her on 5 May 2023.", date(2023, 5, 5)),
    row("I started a day ago.", MON, "I started on 7 May 2023.", date(2023, 5, 7)),
    row("I arrived a few days ago.", MON, "I arrived on 5 May 2023.", date(2023, 5, 5)),
    row("I moved two weeks ago.", MON, "I moved around 24 April 2023.", date(2023, 4, 24)),
    row("I moved 2 weeks ago.", MON, "I moved around 24 April 2023.", date(2023, 4, 24)),
    row("I started a couple of weeks ago.", MON, "I started around 24 April 2023.",
        date(2023, 4, 24)),
    row("I quit six months ago.", MON, "I quit in November 2022.", date(2022, 11, 1)),
    row("I quit 6 months ago.", MON, "I quit in November 2022.", date(2022, 11, 1)),
    row("I quit 2 months ago.", JAN, "I quit in November 2023.", date(2023, 11, 1)),
    row("I quit a month ago.", JAN, "I quit in December 2023.", date(2023, 12, 1)),
    row("I started painting five years ago.", MON, "I started painting in 2018.",
        date(2018, 1, 1)),
    row("I left 10 years ago.", MON, "I left in 2013.", date(2013, 1, 1)),
    # weekdays
    row("I saw her last Friday.", MON, "I saw her on Friday 5 May 2023.", date(2023, 5, 5)),
    row("I saw her last Monday.", MON, "I saw her on Monday 1 May 2023.", date(2023, 5, 1)),
    row("I saw her this past Sunday.", MON, "I saw her on Sunday 7 May 2023.", date(2023, 5, 7)),
    row("I met her last Sunday.", SUN, "I met her on Sunday 7 May 2023.", date(2023, 5, 7)),
    row("I saw her last Friday.", JAN_3, "I saw her on Friday 29 December 2023.",
        date(2023, 12, 29)),
    row("I'll see her next Monday.", MON, "I'll see her on Monday 15 May 2023.",
        date(2023, 5, 15)),
    row("I'll see her next Friday.", MON, "I'll see her on Friday 12 May 2023.",
        date(2023, 5, 12)),
    row("I'll see her this coming Wednesday.", MON, "I'll see her on Wednesday 10 May 2023.",
        date(2023, 5, 10)),
    # several phrases, case, and a preposition already there
    row("I'll call her tomorrow and I called him yesterday.", MON,
        "I'll call her on 9 May 2023 and I called him on 7 May 2023.",
        date(2023, 5, 9), date(2023, 5, 7)),
    row("I moved here last month and started work last week.", MON,
        "I moved here in April 2023 and started work in the week before 8 May 2023.",
        date(2023, 4, 1), date(2023, 5, 1)),
    row("YESTERDAY was great.", MON, "on 7 May 2023 was great.", date(2023, 5, 7)),
    row("I went there on yesterday.", MON, "I went there on 7 May 2023.", date(2023, 5, 7)),
    # nothing relative
    row("I live in Porto.", MON, "I live in Porto."),
    row("I was born on 3 March 1990.", MON, "I was born on 3 March 1990."),
    row("Todays pastries were yesterdays dough.", MON, "Todays pastries were yesterdays dough."),
]
# fmt: on


@pytest.mark.parametrize(("text", "when", "expected", "days"), TABLE)
def test_resolve_dates(text: str, when: datetime, expected: str, days: list[date]):
    assert resolve_dates(text, when) == (expected, days)


@pytest.mark.parametrize(
    "text",
    ["I went yesterday.", "I moved last week.", "I quit 2 months ago.", "I saw her last Friday."],
    ids=["yesterday", "last week", "2 months ago", "last Friday"],
)
def test_without_a_timestamp_nothing_changes(text: str):
    assert resolve_dates(text, None) == (text, [])


def test_a_plain_date_works_like_a_datetime():
    assert resolve_dates("I went yesterday", date(2023, 5, 8)) == (
        "I went on 7 May 2023",
        [date(2023, 5, 7)],
    )


def test_the_time_of_day_does_not_matter():
    early, late = datetime(2023, 5, 8, 0, 0, 1), datetime(2023, 5, 8, 23, 59, 59)
    assert resolve_dates("I went yesterday", early) == resolve_dates("I went yesterday", late)


@pytest.mark.parametrize(
    ("day", "text"),
    [(date(2023, 5, 7), "7 May 2023"), (date(2024, 1, 1), "1 January 2024")],
    ids=["7 May 2023", "1 January 2024"],
)
def test_format_day(day: date, text: str):
    assert format_day(day) == text


@pytest.mark.parametrize(
    ("text", "when"),
    [
        ("I was bored yesterday", True),
        ("We moved last week", True),
        ("I moved in May", True),
        ("My exam is on Friday", True),
        ("I may go", False),  # a modal, not the month
        ("I live in Porto", False),
    ],
)
def test_says_when(text: str, when: bool):
    assert says_when(text) is when
