"""Text knowledge: stopwords, the tokeniser, the stemmer and FTS5 quoting, against real FTS5."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tota_vault.errors import QueryError
from tota_vault.text import (
    CUE_WORDS,
    FUNCTION_WORDS,
    REFLECTION_STOP,
    STOPWORDS,
    StemFinder,
    first_sentence,
    fts_any,
    fts_phrase_query,
    fts_quote,
    query_alternates,
    rarest_within,
    stem,
    tokens,
)


@pytest.mark.parametrize(
    ("word", "stop"),
    [("the", True), ("i'm", True), ("remember", True), ("tota", True), ("will", True),
     ("us", True), ("neovim", False), ("porto", False), ("prefers", False), ("feel", False),
     ("cooking", False)],
)  # fmt: skip
def test_stopwords(word: str, stop: bool):
    assert (word in STOPWORDS) is stop


@pytest.mark.parametrize(
    ("word", "function"),
    [("the", True), ("will", True), ("same", True), ("make", False), ("things", False),
     ("remember", False)],
)  # fmt: skip
def test_the_merge_look_up_leaves_out_function_words_only(word: str, function: bool):
    assert (word in FUNCTION_WORDS) is function
    assert FUNCTION_WORDS < STOPWORDS  # recall leaves out every function word too


@pytest.mark.parametrize(
    ("word", "cue", "reflection"),
    [("prefers", True, False), ("usually", True, False), ("felt", False, True),
     ("years", False, True), ("neovim", False, False)],
)  # fmt: skip
def test_the_named_extensions_say_what_they_add(word: str, cue: bool, reflection: bool):
    assert (word in CUE_WORDS) is cue
    assert (word in REFLECTION_STOP) is reflection


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I prefer Neovim over VS Code.", ["i", "prefer", "neovim", "over", "vs", "code"]),
        ("Writes C++ and e-mail", ["writes", "c++", "and", "e-mail"]),
        ("Jon’s trip in 2023", ["jon's", "trip", "in", "2023"]),
        ("'quoted' -dash- well-", ["quoted", "dash", "well"]),
        ("Café in Zürich", ["café", "in", "zürich"]),
        ("", []),
        ("... !!! ---", []),
    ],
)
def test_tokens(text: str, expected: list[str]):
    assert tokens(text) == expected


@pytest.mark.parametrize(
    ("word", "plural", "forms"),
    [("recipes", "recipe", "recipe"), ("cities", "city", "city"), ("dishes", "dish", "dish"),
     ("boxes", "box", "box"), ("glass", "glass", "glass"), ("bus", "bus", "bus"),
     ("Sam's", "sam", "sam"), ("Jon’s", "jon", "jon"), ("painting", "painting", "paint"),
     ("paintings", "painting", "paint"), ("painted", "painted", "paint"),
     ("painter", "painter", "paint"), ("studied", "studied", "study"),
     ("studies", "study", "study"), ("amazingly", "amazingly", "amaz"), ("red", "red", "red"),
     ("bed", "bed", "bed"), ("", "", ""),
     # a user-style review: "Uses Trello." read as {"us", "trello"}
     ("uses", "use", "use"), ("houses", "house", "house"), ("cases", "case", "case"),
     ("sizes", "size", "size"), ("classes", "class", "class"), ("goes", "go", "go"),
     ("does", "do", "do"),
     # the plural rules' own exceptions, once for every reader (recall, topics, conflicts)
     ("movies", "movie", "movie"), ("cookies", "cookie", "cookie"), ("stories", "story", "story"),
     ("news", "news", "news"), ("series", "series", "series")],
)  # fmt: skip
def test_stem(word: str, plural: str, forms: str):
    assert stem(word) == plural
    assert stem(word, forms=True) == forms


@pytest.mark.parametrize(
    ("term", "expected"),
    [("C++", '"C++"'), ("foo-bar", '"foo-bar"'), ('"unbalanced', '"""unbalanced"'),
     ("NOT", '"NOT"'), ("title:run", '"title:run"'), ("run*", '"run*"'),
     ("Zürich", '"Zürich"'), ("日本語", '"日本語"'), ("", '""')],
)  # fmt: skip
def test_fts_quote(term: str, expected: str):
    assert fts_quote(term) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("C++", '"C++"'),
        ("foo-bar", '"foo-bar"'),
        ('"unbalanced', '"unbalanced"'),
        ("NOT", '"NOT"'),
        ("NOT run", '"NOT" "run"'),
        ("Zürich café", '"Zürich" "café"'),
        ('"two words" more', '"two words" "more"'),
        ("pyth*", '"pyth"*'),
        ("***", '"***"'),
    ],
)
def test_fts_phrase_query(text: str, expected: str):
    assert fts_phrase_query(text) == expected


@pytest.mark.parametrize("text", ["", "   ", '""', '" "'])
def test_fts_phrase_query_refuses_nothing_to_search(text: str):
    with pytest.raises(QueryError, match="nothing to search for"):
        fts_phrase_query(text)


def test_fts_any_ors_quoted_terms():
    assert fts_any(["C++", "NOT"]) == '"C++" OR "NOT"'
    assert fts_any([]) == ""


@pytest.fixture
def fts() -> sqlite3.Connection:
    """A real FTS5 table with the index's tokenizer."""
    conn = sqlite3.connect(":memory:")
    conn.execute(
        "CREATE VIRTUAL TABLE t USING fts5(body, tokenize='porter unicode61 remove_diacritics 2')"
    )
    rows = [
        "writes C++ at work",
        "the foo-bar project",
        'said "unbalanced things"',
        "do NOT disturb",
        "lives in Zürich",
        "title:run is literal",
    ]
    conn.executemany("INSERT INTO t(body) VALUES (?)", [(r,) for r in rows])
    return conn


@pytest.mark.parametrize(
    ("term", "found"),
    [("C++", "writes C++ at work"), ("foo-bar", "the foo-bar project"),
     ('"unbalanced', 'said "unbalanced things"'), ("NOT", "do NOT disturb"),
     ("Zurich", "lives in Zürich"), ("title:run", "title:run is literal")],
)  # fmt: skip
def test_quoted_terms_are_valid_fts5_and_find_their_text(fts, term: str, found: str):
    for match in (fts_quote(term), fts_phrase_query(term), fts_any([term, "absent"])):
        rows = [r[0] for r in fts.execute("SELECT body FROM t WHERE t MATCH ?", (match,))]
        assert rows == [found], match


@pytest.mark.parametrize("term", ["C++", "foo-bar", '"unbalanced', "NOT", "title:run", "AND"])
def test_the_same_terms_unquoted_are_not_what_fts5_searches_for(fts, term: str):
    """Why quoting is needed: raw, each is query syntax (an error, or another meaning)."""
    try:
        rows = [r[0] for r in fts.execute("SELECT body FROM t WHERE t MATCH ?", (term,))]
    except sqlite3.OperationalError:
        return
    quoted = [r[0] for r in fts.execute("SELECT body FROM t WHERE t MATCH ?", (fts_quote(term),))]
    assert rows != quoted


def _every_word(text: str, stems: set[str]) -> set[str]:
    """What `StemFinder` must answer, the plain way: stem every word, keep the stems asked for."""
    return {stem(w, forms=True) for w in tokens(text) if not w.endswith("'s")} & stems


@pytest.mark.parametrize(
    ("text", "words", "found"),
    [("She runs under 45 km a week", ["run", "weeks"], {"run", "week"}),
     ("Visited three cities last year", ["city"], {"city"}),
     ("The city's museums", ["city"], set()),
     ("Sam's book", ["sam"], set()),
     ("a prerun is not runs", ["run"], {"run"}),
     ("e-mail and C++ and rock’n’roll", ["mail", "c++", "rock'n'roll"], {"c++", "rock'n'roll"}),
     ("_knee and 'knee' and -knee", ["knee"], {"knee"}),
     ("a×knee ×knees", ["knee"], set()),
     ("İstanbul knee", ["knee", "istanbul"], {"knee"}),
     ("KNEE Knees", ["knee"], {"knee"}),
     ("studied studies", ["study"], {"study"}),
     ("nothing here", [], set())],
)  # fmt: skip
def test_stem_finder_finds_the_stems_a_text_holds(text: str, words: list[str], found: set[str]):
    stems = {stem(w, forms=True) for w in words}
    assert StemFinder(stems).find(text) == found == _every_word(text, stems)


_WORDS = st.sampled_from(["run", "runs", "running", "runner", "city", "cities", "city's",
                          "studied", "knee", "Knee", "KNEES", "c++", "e-mail", "mail", "×a",
                          "rock’n’roll", "don't", "ÿes", "Ÿes", "İk", "a_b", "x"])  # fmt: skip
_GLUE = st.sampled_from([" ", "", "-", "'", "’", "_", "+", ", ", "×", "÷", ".", "\n"])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(_WORDS, _GLUE), max_size=12), st.lists(_WORDS, max_size=4))
def test_stem_finder_agrees_with_stemming_every_word(parts, asked):
    text = "".join(word + glue for word, glue in parts)
    stems = {stem(w, forms=True) for w in asked}
    assert StemFinder(stems).find(text) == _every_word(text, stems)


@pytest.mark.parametrize(
    ("rare", "counts", "bound", "kept"),
    [
        (["a", "b", "c"], {"a": 3, "b": 2, "c": 40}, 2000, ["a", "b", "c"]),  # all fit
        (["lazo", "training", "log"], {"lazo": 11, "training": 1898, "log": 246}, 2000,
         ["lazo", "log"]),  # the commonest left out, the rest in their own order
        (["a", "b"], {"a": 1500, "b": 1900}, 1000, ["a"]),  # the rarest whatever its count
        (["x", "y"], {"x": 5, "y": 5}, 10, ["x"]),  # a tie: the message's order
    ],
)  # fmt: skip
def test_rarest_within(rare, counts, bound, kept):
    assert rarest_within(rare, counts, bound) == kept


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("Lives in Porto. Likes tea.", "Lives in Porto."),
        ("Sees Dr. Okafor on Mondays. Likes tea.", "Sees Dr. Okafor on Mondays."),
        ("The advisor is Prof. Lindqvist.", "The advisor is Prof. Lindqvist."),
        ("Likes e.g. Rust and Go. Yes.", "Likes e.g. Rust and Go."),
        ("So do I. Yes.", "So do I."),
        ("Ends with Prof.\nNext line", "Ends with Prof."),
        ("One line\nanother", "One line"),
        ("No end at all", "No end at all"),
        ("Really? Yes!", "Really?"),
    ],
)  # fmt: skip
def test_first_sentence(text: str, first: str) -> None:
    assert first_sentence(text) == first


@pytest.mark.parametrize(
    ("word", "alternates"),
    [
        ("art-related", ("art", "related")),
        ("Star-Wars-related", ("star", "wars", "related")),
        ("self-care", ("self", "care")),
        ("t-shirt", ("shirt",)),  # a one-letter part says nothing
        ("well-", ()),  # a hyphen at an edge joins nothing
        ("siblings", ("brother", "sister")),
        ("sibling", ("brother", "sister")),
        ("spouse", ("husband", "wife")),
        ("grandchildren", ("grandson", "granddaughter")),
        ("kids", ()),  # said of one's own family: searched as it is
        ("mentorship", ("mentor",)),
        ("internship", ("intern",)),
        ("hardship", ()),  # "hard" is no person
        ("worship", ()),
        ("neovim", ()),
    ],
)
def test_query_alternates(word: str, alternates: tuple[str, ...]):
    assert query_alternates(word) == alternates
