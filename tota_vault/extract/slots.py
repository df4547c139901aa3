"""One fact per memory: a clause that fills several slots becomes one clause per slot.

"I'm Tomás, a data analyst at Brightwell in Valencia" is a name, a role, an employer and a
place: four facts, each with its own conflict key once the cues read them.
"""

from __future__ import annotations

import re

#: "I'm Tomás, a data analyst at Brightwell in Valencia": a name, then an appositive that
#: holds a role, an employer and a place. Each is a fact with its own slot.
_APPOSITIVE = re.compile(
    # the name, or a template's slot for it ("I'm [name], a stay at home dad": the slot is
    # skipped as a placeholder, the role is still learned)
    r"^I(?:'m| am) ([A-Z][\w'-]+|\[[^\]\[]{1,40}\]),\s+(?:(\d{1,3}),\s+)?(an? [\w' -]+?)"
    r"(?:\s+(?:at|for|with)\s+([A-Z][\w&'.-]*(?: [A-Z][\w&'.-]*)*))?"
    r"(?:\s+(?:in|from|based in)\s+([A-Z][\w'-]*(?: [A-Z][\w'-]*)*))?\W*$"
)


def split_appositive(clause: str) -> list[str]:
    """A clause of a name with an appositive, as one first-person clause per fact; any other
    clause as it is (an empty one dropped)."""
    match = _APPOSITIVE.match(clause)
    if match is None:
        return [clause] if clause else []
    name, age, role, employer, place = match.groups()
    facts = [f"My name is {name}."]
    if age:  # "I'm Priya, 29, a backend developer": the age between the name and the role
        facts.append(f"I'm {age}.")
    facts.append(f"I'm {role}.")
    if employer:  # its dots are a name's ("J.P. Morgan", "Acme Inc."), the last one the end's
        facts.append(f"I work at {employer.rstrip('.')}.")
    if place:
        facts.append(f"I'm based in {place}.")
    return facts


#: Who a person lives with: "my partner Joris", "our two kids", "my parents".
_HOUSEHOLD = r"(?P<who>(?:my|our) [^,;]+?)"
#: Where a person lives, in their words: "Utrecht", "a small flat near the river".
_HOME = r"(?P<place>[^,;]+?)"
#: "I live", "I still live", "We're living": the head of a statement of where someone lives.
_LIVES = (
    r"(?P<head>(?:I|We)(?: (?:still|now|currently|also|actually))* "
    r"(?:live|am living|'m living|are living|'re living))"
)
#: "I live in Utrecht with my partner Joris": a place, then the people a home is shared with.
_LIVES_IN_WITH = re.compile(rf"^{_LIVES} in {_HOME} with {_HOUSEHOLD}\W*$", re.I)
#: "I live with my girlfriend Sara in Madrid": the people, then a named place.
_LIVES_WITH_IN = re.compile(
    rf"^{_LIVES} with {_HOUSEHOLD} in (?P<place>(?-i:[A-Z][\w'-]*(?:[ -][A-Z][\w'-]*)*))\W*$",
    re.I,
)
#: "I'm 34 and live in Oslo", "I'm from Spain but live in Oslo": a second predicate whose "I"
#: is dropped after "and"/"but", when it fills a slot of its own (where one lives or works).
#: Only after a head with no infinitive or modal ("I want to travel and live in Paris": the
#: wish governs both, nothing is stated).
_AND_SLOT = re.compile(
    r"^(?P<head>I(?:'m| am)? (?:(?!\b(?:to|would|could|can|will|might|should|may|must|"
    r"want|wanna|gonna|hope|plan|wish|if|when)\b)[^,;])+?),?\s+(?:and|but)\s+"
    r"(?P<tail>(?:(?:still|now|currently|also) )*"
    r"(?:live (?:in|with)|work (?:at|for|as)|moved to|grew up in)\b.+)$"
)


def split_slots(clause: str) -> list[str]:
    """A clause that states where a person lives beside who they live with, or a second slot
    after "and"/"but" with the "I" dropped, as one first-person clause per fact; any other
    clause as it is.

    "I live in Utrecht with my partner Joris" is a place (the location slot, which a later "I
    moved to Leiden" replaces) and a household (a relationship that survives the move): two
    memories, so a change of one leaves the other standing. "I'm 34 and live in Oslo" is an
    age and a place, and the dropped "I" would leave "live" uninflected in the statement."""
    if " with " not in clause and " and " not in clause and " but " not in clause:
        return [clause] if clause else []  # most clauses: no pattern below can match
    match = _AND_SLOT.match(clause)
    if match is not None:
        return [match.group("head"), *split_slots(f"I {match.group('tail')}")]
    match = _LIVES_IN_WITH.match(clause) or _LIVES_WITH_IN.match(clause)
    if match is None:
        return [clause] if clause else []
    head = match.group("head")
    return [f"{head} in {match.group('place')}.", f"{head} with {match.group('who')}."]
