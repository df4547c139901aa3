"""The console script's hand-written parser for `tota search` and `tota recall`: the forms
typer accepts, and None (typer parses it, and says what is wrong) for every other form; and
the table `tota search` draws."""

from __future__ import annotations

import json

import pytest

from tota_vault.cli_fast import print_search, recall_argv, search_argv

BASE = {"vault": None, "type": None, "limit": 10, "raw": False, "as_json": False}


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["search", "knee"], {**BASE, "query": "knee"}),
        (["--vault", "/v", "search", "C++"], {**BASE, "vault": "/v", "query": "C++"}),
        (["--vault=/v", "search", "a b"], {**BASE, "vault": "/v", "query": "a b"}),
        (["search", "knee", "--json", "--raw"], {**BASE, "query": "knee", "as_json": True, "raw": True}),
        (["search", "-n", "3", "knee", "-t", "habit"], {**BASE, "query": "knee", "limit": 3, "type": "habit"}),
        (["search", "knee", "--limit=2", "--type=goal"], {**BASE, "query": "knee", "limit": 2, "type": "goal"}),
        (["search"], None),  # no query: typer's usage error
        (["search", "a", "b"], None),  # a second word
        (["search", "knee", "-n", "0"], None),  # typer's message for a number out of range
        (["search", "knee", "-n", "x"], None),
        (["search", "knee", "-n"], None),
        (["search", "knee", "-n5"], None),
        (["search", "knee", "--help"], None),
        (["search", "-h"], None),
        (["search", "--", "-x"], None),
        (["search", "knee", "--vault", "/v"], None),  # a root option after the command
        (["search", "knee", "--raw=1"], None),
        (["search", "knee", "--bogus"], None),
        (["--vault"], None),
        (["--vault=", "search", "x"], None),
        (["recall", "knee"], None),
        ([], None),
    ],
)  # fmt: skip
def test_search_argv(argv: list[str], expected: dict | None):
    assert search_argv(argv) == expected


RECALL = {"vault": None, "limit": 10, "budget": None, "type": None, "output": "markdown",
          "as_json": False}  # fmt: skip


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["recall", "my knee?"], {**RECALL, "message": "my knee?"}),
        (["--vault", "/v", "recall", "knee", "--budget", "300"], {**RECALL, "vault": "/v", "message": "knee", "budget": 300}),
        (["recall", "knee", "--format", "json", "-n", "3"], {**RECALL, "message": "knee", "output": "json", "limit": 3}),
        (["recall", "knee", "--format=markdown", "--json", "-t", "goal"], {**RECALL, "message": "knee", "as_json": True, "type": "goal"}),
        (["recall", "knee", "--format", "yaml"], None),  # typer's usage error
        (["recall", "--profile"], None),
        (["recall", "knee", "--profile"], None),
        (["recall"], None),
        (["recall", "knee", "--budget", "0"], None),
        (["recall", "knee", "--help"], None),
        (["search", "knee"], None),
    ],
)  # fmt: skip
def test_recall_argv(argv: list[str], expected: dict | None):
    assert recall_argv(argv) == expected


def test_the_table_shows_a_persons_words_as_written(vault, monkeypatch, capsys):
    """`tota search`'s table prints what the notes say: an emoji code in a type is not
    replaced, and an escape sequence in a hand-written note is shown escaped, never sent to
    the terminal (tota_vault/cli_table.py)."""
    from conftest import write

    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    vault.remember("preference", "Likes green tea: sencha, gyokuro :tada: at noon.")
    write(vault.root, "habit/Odd.md", "---\ntype: ':tada: party'\n---\nGreen tea \x1b[2J notes.\n")
    vault.sync()
    hits = vault.search("green tea")
    print_search(vault, "green tea", hits, as_json=False)
    drawn = capsys.readouterr().out
    assert ":tada: party" in drawn and "gyokuro :tada: at noon" in drawn
    assert "\x1b" not in drawn and "Green tea \\x1b[2J notes." in drawn
    assert drawn.startswith("type ") and "conf.  evidence\n" in drawn


def test_search_marks_a_superseded_memory_and_ranks_it_after_the_active_one(vault_dir):
    """The review's case: "I am vegetarian." then "I am no longer vegetarian." The word is in
    both notes, so bm25 scores them alike (0.0 at the four places --json shows); the active
    memory comes first, and the superseded one says so under its type."""
    from typer.testing import CliRunner

    from tota_vault.cli import app

    runner = CliRunner()
    v = str(vault_dir)
    for cid, said in (("a", "I am vegetarian."), ("b", "I am no longer vegetarian.")):
        learned = runner.invoke(
            app, ["--vault", v, "extract", "-", "--conversation-id", cid], input=f"User: {said}\n"
        )
        assert learned.exit_code == 0, learned.output
    hits = json.loads(runner.invoke(app, ["--vault", v, "search", "vegetarian", "--json"]).output)
    assert [(h["title"], h["status"]) for h in hits] == [
        ("Is no longer vegetarian", "active"),
        ("Is vegetarian", "superseded"),
    ]
    assert hits[0]["score"] == hits[1]["score"]
    table = runner.invoke(app, ["--vault", v, "search", "vegetarian"]).output.splitlines()
    superseded = next(i for i, line in enumerate(table) if line.startswith("identity "))
    assert table[superseded + 1].startswith("superseded  Is vegetarian.")
    assert sum("superseded" in line.split("  ")[0] for line in table) == 1  # the active: none


@pytest.mark.parametrize("message", ["", "   "])
def test_recall_of_an_empty_text_is_a_usage_error(vault_dir, monkeypatch, capsys, message):
    """The review's case: `tota recall ""` printed "No memories match." and exited 0;
    README lists an empty text as a usage error, exit 2. The same on both paths: this
    parser's and typer's."""
    from typer.testing import CliRunner

    from tota_vault import cli_fast
    from tota_vault.cli import app

    v = str(vault_dir)
    assert (
        CliRunner().invoke(app, ["--vault", v, "add", "preference", "Likes coffee."]).exit_code == 0
    )
    monkeypatch.setattr("sys.argv", ["tota", "--vault", v, "recall", message])
    with pytest.raises(SystemExit) as exited:
        cli_fast.main()
    assert exited.value.code == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.startswith("tota: error: recall needs a message")
    typed = CliRunner().invoke(app, ["--vault", v, "recall", message, "--limit", "3"])
    assert typed.exit_code == 2 and "recall needs a message" in typed.output
    assert "No memories match" not in typed.output
    assert CliRunner().invoke(app, ["--vault", v, "recall", "--profile"]).exit_code == 0


def test_a_budget_too_small_for_any_match_says_so_and_what_the_first_needs(vault_dir):
    """The review's case: `tota recall coffee --budget 30` said "No memories match." while
    --budget 40 returned a memory. The budget it names is the smallest that shows it."""
    from typer.testing import CliRunner

    from tota_vault.cli import app

    runner = CliRunner()
    v = str(vault_dir)
    text = "Drinks a flat white with oat milk every morning before the coffee shop opens."
    assert runner.invoke(app, ["--vault", v, "add", "preference", text]).exit_code == 0
    cut = runner.invoke(app, ["--vault", v, "recall", "coffee", "--budget", "30"])
    assert cut.exit_code == 0
    assert cut.output.startswith(
        "Found 1 match, but a budget of 30 tokens holds none: the first needs "
    )
    needed = int(cut.output.split("the first needs ")[1].split()[0])
    assert needed > 30 and f"(--budget {needed} or more)" in cut.output
    shown = runner.invoke(app, ["--vault", v, "recall", "coffee", "--budget", str(needed)])
    assert shown.output.startswith("## Memories") and "flat white" in shown.output
    short = runner.invoke(app, ["--vault", v, "recall", "coffee", "--budget", str(needed - 1)])
    assert short.output.startswith("Found 1 match")
    nothing = runner.invoke(app, ["--vault", v, "recall", "zebra", "--budget", "30"])
    assert nothing.output == "No memories match.\n"


@pytest.mark.parametrize("needed", [1, 2, 7, 42, 1000])
def test_smallest_budget(needed: int):
    from tota_vault.cli_fast import smallest_budget

    assert smallest_budget(lambda b: b >= needed) == needed


@pytest.mark.parametrize("query", ["", "   "])
def test_search_of_an_empty_text_is_a_usage_error(vault_dir, monkeypatch, capsys, query):
    """A user review: `tota search ""` exited 1 ("nothing to search for"); README lists an
    empty text as a usage error, exit 2, as `recall ""` is. Both paths."""
    from typer.testing import CliRunner

    from tota_vault import cli_fast
    from tota_vault.cli import app

    v = str(vault_dir)
    assert CliRunner().invoke(app, ["--vault", v, "add", "preference", "Likes tea."]).exit_code == 0
    monkeypatch.setattr("sys.argv", ["tota", "--vault", v, "search", query])
    with pytest.raises(SystemExit) as exited:
        cli_fast.main()
    assert exited.value.code == 2
    assert capsys.readouterr().err.startswith("tota: error: search needs words to find")
    typed = CliRunner().invoke(app, ["--vault", v, "search", query, "--type", "preference"])
    assert typed.exit_code == 2 and "search needs words to find" in typed.output
