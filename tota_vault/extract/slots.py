"""One fact per memory: a clause that fills several slots becomes one clause per slot.

"I'm Tomás, a data analyst at Brightwell in Valencia" is a name, a role, an employer and a
place: four facts, each with its own conflict key once the cues read them.
"""

from __future__ import annotations

import re

#: "I'm Tomás, a data analyst at Brightwell in Valencia": a name, then an appositive that
#: holds a role, an employer and a place. Each is a fact with its own slot.
_APPOSITIVE = re.compile(
    r"^I(?:'m| am) ([A-Z][\w'-]+),\s+(an? [\w' -]+?)"
    r"(?:\s+(?:at|for|with)\s+([A-Z][\w&'.-]*(?: [A-Z][\w&'.-]*)*))?"
    r"(?:\s+(?:in|from|based in)\s+([A-Z][\w'-]*(?: [A-Z][\w'-]*)*))?\W*$"
)


def split_appositive(clause: str) -> list[str]:
    """A clause of a name with an appositive, as one first-person clause per fact; any other
    clause as it is (an empty one dropped)."""
    match = _APPOSITIVE.match(clause)
    if match is None:
        return [clause] if clause else []
    name, role, employer, place = match.groups()
    facts = [f"My name is {name}.", f"I'm {role}."]
    if employer:
        facts.append(f"I work at {employer}.")
    if place:
        facts.append(f"I'm based in {place}.")
    return facts
