"""The docs stay true: README commands, CI, and every command documented."""

from __future__ import annotations

import re
from pathlib import Path

from test_cli import COMMANDS

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def _readme_commands() -> list[str]:
    return re.findall(r"```sh\n(.+?)\n```", README)


def test_readme_has_the_two_commands():
    commands = _readme_commands()
    assert any("sample-vault" in c and " sync" in c and " search " in c for c in commands)
    assert any("pytest" in c for c in commands)


def test_ci_runs_the_readme_test_command():
    test_command = next(c for c in _readme_commands() if "pytest" in c)
    assert test_command in (ROOT / ".ci" / "run").read_text()


def test_every_command_is_in_the_readme():
    for command in COMMANDS:
        assert f"`tota {command}" in README, command


def test_the_cli_reference_is_current():
    from tota_vault.cli import cli_reference

    assert (ROOT / "docs" / "cli.md").read_text() == cli_reference(), (
        "docs/cli.md is stale: python -m tota_vault.cli --reference > docs/cli.md"
    )


def test_every_command_has_help_text_in_the_reference():
    reference = (ROOT / "docs" / "cli.md").read_text()
    for command in COMMANDS:
        section = reference.split(f"## tota {command}\n", 1)[1].split("## tota ", 1)[0]
        summary = section.split("\n\n", 2)[1].strip() if "\n\n" in section else ""
        assert len(summary) > 10, command


def test_the_readme_python_example_runs(tmp_path: Path, capsys) -> None:
    """ "Use it from Python" as a person would paste it, on a vault of their own."""
    section = README.split("## Use it from Python", 1)[1]
    code = re.search(r"```python\n(.+?)```", section, re.S).group(1)
    assert '"~/notes/memory"' in code
    exec(compile(code.replace('"~/notes/memory"', repr(str(tmp_path / "v"))), "README", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "preference/Prefers Neovim over VS Code.md"
    assert out[1] == "Prefers Neovim over VS Code Prefers **Neovim** over VS Code."
