"""False alarms of the secret detector on real conversations, read in place.

    .venv/bin/python -m bench.quality.secret_false_alarms  # [--locomo PATH --spc PATH --lme DIR]

Every LoCoMo turn, every line of the Synthetic-Persona-Chat conversations and every user
message of LongMemEval goes through `find_secrets`. None of these corpora holds a real secret,
so every hit is a false alarm (a fact the pipeline would redact or skip). The counts go to
stdout by corpus and kind, with each hit shown as its sentence (the redacted text, so nothing
of the corpus is written anywhere). Nothing is copied into the repository.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from bench import _kit
from tota_vault.extract.secrets import find_secrets, redact


def locomo_turns(path: Path) -> Iterator[str]:
    """The text of every turn of every LoCoMo conversation."""
    for sample in json.loads(path.read_text(encoding="utf-8")):
        conversation = sample["conversation"]
        for key, session in conversation.items():
            if key.startswith("session_") and isinstance(session, list):
                for turn in session:
                    yield turn.get("text", "")


def spc_lines(path: Path) -> Iterator[str]:
    """Every line of every Synthetic-Persona-Chat conversation (the personas too)."""
    csv.field_size_limit(sys.maxsize)
    with path.open(encoding="utf-8", newline="") as handle:
        for row in csv.reader(handle):
            for cell in row:
                yield from cell.splitlines()


def lme_user_messages(folder: Path) -> Iterator[str]:
    """Every user message of every LongMemEval haystack (one JSON file per question)."""
    for file in sorted(folder.iterdir()):
        opener = gzip.open if file.name.endswith(".gz") else open
        with opener(file, "rt", encoding="utf-8") as handle:
            item = json.load(handle)
        for session in item["haystack_sessions"]:
            for turn in session:
                if turn.get("role") == "user":
                    yield turn.get("content") or ""


def main(argv: list[str] | None = None) -> int:
    evaluation = _kit.eval_dir()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--locomo", type=Path, default=evaluation / "locomo-dev.json")
    parser.add_argument("--spc", type=Path, default=evaluation / "spc-valid.csv")
    parser.add_argument("--lme", type=Path, default=evaluation / "lme-dev")
    parser.add_argument("--show", type=int, default=40, help="hits shown per corpus")
    args = parser.parse_args(argv)
    corpora = {
        "locomo": (locomo_turns, args.locomo),
        "spc": (spc_lines, args.spc),
        "lme": (lme_user_messages, args.lme),
    }
    for name, (read, path) in corpora.items():
        if path is None or not path.exists():
            continue
        texts = chars = 0
        kinds: Counter[str] = Counter()
        shown: list[str] = []
        started = time.perf_counter()
        for text in read(path):
            texts += 1
            chars += len(text)
            found = find_secrets(text)
            if found:
                kinds.update(s.kind for s in found)
                if len(shown) < args.show:
                    for secret in found:
                        window = redact(text, [secret])
                        at = max(0, secret.start - 60)
                        shown.append(f"  {secret.kind}: ...{window[at : secret.start + 80]!r}")
        seconds = time.perf_counter() - started
        hits = sum(kinds.values())
        print(f"{name}: {texts:,} texts, {chars:,} characters, {hits} hits {dict(kinds)}, "
              f"{seconds:.1f} s")  # fmt: skip
        print("\n".join(shown))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
