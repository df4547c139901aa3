"""tota.toml: a key tota does not read is refused in one line, naming the file, the key and
the keys it knows, never ignored."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tota_vault.cli import app
from tota_vault.config import load_config
from tota_vault.errors import ValidationError

runner = CliRunner()


def test_a_misspelt_learning_key_is_refused_naming_the_known_ones(vault_dir: Path):
    """The review's case: `[learning] min_confidnce = 0.6` was silently ignored."""
    toml = vault_dir / "tota.toml"
    toml.write_text("[learning]\nmin_confidnce = 0.6\n", "utf-8")
    done = runner.invoke(
        app, ["--vault", str(vault_dir), "extract", "-"], input="User: I like coffee.\n"
    )
    assert done.exit_code == 2
    assert done.output == (
        f"tota: error: {toml}: learning.min_confidnce is not a setting "
        "(known: merge_threshold, min_confidence)\n"
    )
    assert not list((vault_dir / "preference").glob("*.md"))  # nothing learned past it


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[sync]\nfollow_links = true\n", "sync.follow_links is not a setting (known: "
         "follow_external_links)"),
        ("min_confidence = 0.6\n", "min_confidence is not a section of tota.toml (known: "
         "[extract], [learning], [recall], [sync])"),
        ("[learnin]\nmin_confidence = 0.6\n", "learnin is not a section"),
    ],
)  # fmt: skip
def test_an_unknown_key_or_section_is_one_line_naming_it(tmp_path: Path, text: str, words: str):
    (tmp_path / "tota.toml").write_text(text, "utf-8")
    with pytest.raises(ValidationError) as caught:
        load_config(tmp_path)
    assert str(caught.value).startswith(f"{tmp_path / 'tota.toml'}: {words}")
    assert "\n" not in str(caught.value)


def test_every_known_setting_is_still_read(tmp_path: Path):
    (tmp_path / "tota.toml").write_text(
        "[learning]\nmin_confidence = 0.6\nmerge_threshold = 80\n"
        "[sync]\nfollow_external_links = true\n[recall]\nturns = false\n"
        '[extract]\nbackend = "rules"\n',
        "utf-8",
    )
    config = load_config(tmp_path)
    assert (config.min_confidence, config.merge_threshold) == (0.6, 80.0)
    assert config.follow_external_links and not config.turns
