"""Quality where a person talks to an assistant: LongMemEval-S (a sample) through tota's own
pipeline, turns and memories fused by `Vault.recall`.

Each question has its own haystack of about 50 user-assistant sessions (about 500 turns).
One fresh vault per question: every session is observed in order through `Vault.observe`
with the roles as given (`user`, `assistant`), the session as the conversation (its id as
`conversation_id`, the turn's position as the message id, the session's date as each
message's timestamp). Then the question is asked through `Vault.recall(question, 20)` at the
question's date, and the sources of the results are the run file, scored by the evaluation
kit (evidence: the turns flagged `has_answer`; some are the assistant's own words).

    python -m bench.quality.longmemeval                 # every question of ../shared/eval/lme-dev
    python -m bench.quality.longmemeval --limit 3       # the first three
    python -m bench.quality.longmemeval --keep /tmp/lme-vaults   # observe once, recall again

With `--keep` each question's vault is left in that folder and, on a later run, opened
instead of observed again (a vault is reused only when its observation finished): recall-side
changes are then measured in a minute. A vault kept by other extraction code gives that
code's memories, so keep a folder per checkout of the write side.

Beside the product's figures it prints, for the tuning and the untouched part
(`fused.split_of`), memories alone, turns alone and the two fused, and it keeps both
rankings per question (`rankings.jsonl`) for `bench.quality.fusion_grid`. The data is read
from ../shared/eval/ and never copied here; its figures are in docs/quality.md.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from bench import _kit
from bench.quality import fused
from tota_vault import Vault
from tota_vault.extract.messages import Message

#: LongMemEval's categories, in the order its own tables list them.
ORDER = [
    "single-session-user", "single-session-assistant", "single-session-preference",
    "multi-session", "knowledge-update", "temporal-reasoning",
]  # fmt: skip


def lme_date(text: str) -> datetime | None:
    """`2023/05/20 (Sat) 02:21` as a datetime (None when it is not one)."""
    try:
        return datetime.strptime(text.strip(), "%Y/%m/%d (%a) %H:%M")
    except ValueError:
        return None


def ingest(evalkit, conv, root: Path) -> tuple[Vault, int, float]:
    """Observe every session of one question's haystack into a new vault."""
    vault = Vault.open(root)
    turns = 0
    started = time.perf_counter()
    for session, date, items in evalkit.iter_sessions(conv):
        when = lme_date(date)
        messages = [
            Message(role=t.speaker, content=t.text, id=t.local_id.rsplit(":", 1)[1],
                    timestamp=when)
            for t in items
        ]  # fmt: skip
        turns += len(messages)
        vault.observe(messages, conversation_id=session, now=when)
    return vault, turns, time.perf_counter() - started


def kept_or_ingest(evalkit, conv, root: Path, keep: bool) -> tuple[Vault, int, float]:
    """The vault kept at `root` by an earlier run (its observation finished: the marker file
    is written after it), or a new one observed there; turns and seconds are 0 when reused."""
    marker = root.parent / f"{root.name}.observed"
    if keep and marker.exists():
        return Vault.open(root), 0, 0.0
    if root.exists():
        shutil.rmtree(root)
    vault, turns, seconds = ingest(evalkit, conv, root)
    if keep:
        marker.write_text(f"{turns}\n")
    return vault, turns, seconds


def short_turn(source: str) -> str:
    """`<session>#3` as the kit's short id `<session>:3`."""
    session, _, index = source.rpartition("#")
    return f"{session}:{index}"


def main(argv: list[str] | None = None) -> int:
    parser = _kit.parser(__doc__)
    parser.set_defaults(out=_kit.OUT_DIR / "longmemeval")
    parser.add_argument("--eval-dir", type=Path, default=_kit.eval_dir())
    parser.add_argument("--data", type=Path, help="default: lme-dev/ in --eval-dir")
    parser.add_argument("--limit", type=int, default=0, help="only the first N questions")
    parser.add_argument("--split", choices=("tune", "held"), help="only that part's questions")
    parser.add_argument("--keep", type=Path, help="keep the vaults here and reuse them")
    args = parser.parse_args(argv)
    args.data = args.data or args.eval_dir / "lme-dev"

    evalkit = _kit.load_evalkit(args.eval_dir)
    dataset = evalkit.load_longmemeval(str(args.data))
    questions = sorted(dataset.questions, key=lambda q: q.question_id)
    if args.split:
        questions = [q for q in questions if fused.split_of(q.question_id) == args.split]
    if args.limit:
        questions = questions[: args.limit]
    args.out.mkdir(parents=True, exist_ok=True)
    args.work.mkdir(parents=True, exist_ok=True)
    run: list[dict] = []
    kept: list[dict] = []
    timing = {"turns": 0, "seconds": 0.0}
    with tempfile.TemporaryDirectory(prefix="lme-", dir=args.work) as tmp:
        for number, question in enumerate(questions, 1):
            conv = dataset.conversation(question.conv_id)
            vault, turns, seconds = kept_or_ingest(
                evalkit, conv, (args.keep or Path(tmp)) / question.question_id, bool(args.keep)
            )
            timing["turns"] += turns
            timing["seconds"] += seconds
            now = lme_date(question.question_date)
            results = vault.recall(question.question, 20, now=now)
            ranked = fused.rankings(vault, question.question, now)
            fused.check_replica(vault, question.question, now, ranked, 20)
            kept.append({"question_id": question.question_id, "category": question.category,
                         "split": fused.split_of(question.question_id), **ranked})  # fmt: skip
            run.append({
                "question_id": question.question_id,
                "results": [{"source_turns": [short_turn(s) for s in r.sources],
                             "kind": r.kind} for r in results],
            })  # fmt: skip
            vault.close()
            _kit.log(f"{number}/{len(questions)} {question.question_id}: {turns} turns, "
                     f"{seconds:.1f} s")  # fmt: skip
    with open(args.out / "run.jsonl", "w", encoding="utf-8") as handle:
        for line in run:
            handle.write(json.dumps(line) + "\n")
    fused.write_rankings(args.out / "rankings.jsonl", kept)
    dataset.questions = questions
    summary = evalkit.score_run(dataset, {r["question_id"]: r["results"] for r in run}, (5, 10, 20))
    summary.pop("per_question", None)
    summary["observe"] = {"turns": timing["turns"], "seconds": round(timing["seconds"], 1)}
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1))
    print(f"{len(questions)} questions, {timing['turns']:,} turns observed in "
          f"{timing['seconds']:.0f} s\n")  # fmt: skip
    print(evalkit.format_table(summary, category_order=ORDER))
    print("turns@10:", round(summary["overall"].get("turns@10", 0.0), 1))
    print()
    print(split_tables(evalkit, dataset, kept))
    return 0


def split_tables(evalkit, dataset, kept: list[dict]) -> str:
    """Memories alone, turns alone and the two fused, on the tuning and the untouched part."""
    out = []
    for split in ("tune", "held"):
        rows = [r for r in kept if r["split"] == split]
        if not rows:
            continue
        ids = {r["question_id"] for r in rows}
        part = [q for q in dataset.questions if q.question_id in ids]
        sub = evalkit.Dataset(dataset.name, dataset.conversations, part)
        for name, make in (("memories only", fused.memories_only),
                           ("turns only", fused.turns_only), ("fused", fused.fused)):  # fmt: skip
            run = fused.run_lines(rows, [make(r, 20) for r in rows], short_turn)
            summary = evalkit.score_run(sub, run, (5, 10, 20))
            out.append(f"### {split} ({len(rows)} questions): {name}\n")
            out.append(evalkit.format_table(summary, category_order=ORDER))
            out.append(f"turns@10: {summary['overall'].get('turns@10', 0.0):.1f}\n")
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
