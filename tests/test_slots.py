"""One fact per memory: a clause that fills several slots (extract/slots.py)."""

from __future__ import annotations

import pytest

from tota_vault.extract.slots import split_appositive

# fmt: off
APPOSITIVES = [
    ("I'm Tomás, a data analyst at Brightwell in Valencia.",
     ["My name is Tomás.", "I'm a data analyst.", "I work at Brightwell.",
      "I'm based in Valencia."]),
    ("I'm Ana, a nurse.", ["My name is Ana.", "I'm a nurse."]),
    ("I'm Lee, an engineer from Busan.", ["My name is Lee.", "I'm an engineer.",
                                          "I'm based in Busan."]),
    # no name and appositive: the clause as it is
    ("I'm a nurse in Leeds.", ["I'm a nurse in Leeds."]),
    ("I'm tired, a long day at work.", ["I'm tired, a long day at work."]),
    ("", []),
]
# fmt: on


@pytest.mark.parametrize(
    ("clause", "facts"), APPOSITIVES, ids=[a[0] or "empty" for a in APPOSITIVES]
)
def test_split_appositive(clause: str, facts: list[str]):
    assert split_appositive(clause) == facts
