"""Quality on real conversations: LoCoMo (development split) through tota's own pipeline.

Each conversation is ingested, session by session, into its own fresh vault with
`Vault.observe` (both speakers are people: `user` messages named after the speaker, the session
date as the timestamp, the dialog id `D1:3` as the message id). The memories are then scored
with the evaluation kit's judge-free extraction scorer.

    python -m bench.quality.locomo                   # extraction and recall, both scored
    python -m bench.quality.locomo --limit 1         # the first conversation only
    python -m bench.quality.locomo --conversations conv-42,conv-43   # these, scored alone

Recall: once a conversation is ingested, `Vault.reflect` consolidates it (as `tota reflect` or
a scheduled run would), then every question (category 5, adversarial, is skipped by the
scorer) is asked of its own conversation's vault through `Vault.recall(question, limit=20)`;
the ranked memories' sources are written as the run file (`run.jsonl`) and scored like any
memory system.

The data is read from ../shared/eval/ (found by `_kit.eval_dir`; `--eval-dir` names another
folder) and never copied into this repository. A quality evaluation, not a speed figure: its
results are in docs/quality.md.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from bench import _kit
from bench.quality import fused
from tota_vault import Vault
from tota_vault.extract.messages import Message


def session_messages(evalkit, turns, date: str) -> list[Message]:
    from tota_vault.extract.formats import parse_conversation

    when = None
    if date:
        parsed = parse_conversation(f"Date: {date}\nX: x", "text")
        when = parsed[0].timestamp
    return [
        Message(role="user", content=t.text, id=t.local_id, name=t.speaker, timestamp=when)
        for t in turns
    ]


def ingest(evalkit, conv, root: Path) -> tuple[Vault, int, float]:
    """Observe every session of one conversation into a new vault; return it, turns, seconds."""
    vault = Vault.open(root)
    turns = 0
    started = time.perf_counter()
    for _key, date, session in evalkit.iter_sessions(conv):
        messages = session_messages(evalkit, session, date)
        turns += len(messages)
        vault.observe(messages, conversation_id=conv.conv_id, now=messages[0].timestamp)
    return vault, turns, time.perf_counter() - started


def last_date(evalkit, conv):
    """The date of a conversation's last session: when its questions are asked."""
    from tota_vault.extract.formats import parse_conversation

    dates = [date for _key, date, _turns in evalkit.iter_sessions(conv) if date]
    if not dates:
        return None
    return parse_conversation(f"Date: {dates[-1]}\nX: x", "text")[0].timestamp


def memories_of(vault: Vault, conv_id: str) -> list[dict]:
    """Every active memory extraction made (not the reflections that come by themselves after
    observe) with the dialog turns it cites."""
    rows = (
        _kit.index_sql(vault)
        .execute(
            "SELECT text, sources, type FROM notes WHERE error IS NULL AND memory_id IS NOT NULL "
            "AND status = 'active' AND type IS NOT 'reflection'"
        )
        .fetchall()
    )
    out = []
    for text, sources, mtype in rows:
        turns = [s.split("#", 1)[1] for s in json.loads(sources) if "#" in s]
        out.append({"text": text, "type": mtype, "source_turns": turns})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = _kit.parser(__doc__)
    parser.set_defaults(out=_kit.OUT_DIR / "locomo")
    parser.add_argument("--eval-dir", type=Path, default=_kit.eval_dir())
    parser.add_argument("--data", type=Path, help="default: locomo-dev.json in --eval-dir")
    parser.add_argument("--limit", type=int, default=0, help="only the first N conversations")
    parser.add_argument(
        "--conversations", default="",
        help="only these conversations (comma-separated ids), their questions scored alone: "
        "a split tuned on and a split held out report side by side",
    )  # fmt: skip
    args = parser.parse_args(argv)
    args.data = args.data or args.eval_dir / "locomo-dev.json"

    evalkit = _kit.load_evalkit(args.eval_dir)
    dataset = evalkit.load_locomo(str(args.data), skip_categories=(5,))  # as score_recall.py
    if args.conversations:
        chosen = set(args.conversations.split(","))
        unknown = chosen - {c.conv_id for c in dataset.conversations}
        if unknown:
            raise SystemExit(f"no such conversation: {', '.join(sorted(unknown))}")
        dataset.conversations = [c for c in dataset.conversations if c.conv_id in chosen]
        dataset.questions = [q for q in dataset.questions if q.conv_id in chosen]
    args.out.mkdir(parents=True, exist_ok=True)
    extracted: dict[str, list[dict]] = {}
    run: list[dict] = []
    kept: list[dict] = []  # both rankings per question, for bench.quality.fusion_grid
    per_conv = []
    args.work.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="locomo-", dir=args.work) as tmp:
        conversations = dataset.conversations
        if args.limit:
            conversations = conversations[: args.limit]
        for conv in conversations:
            vault, turns, seconds = ingest(evalkit, conv, Path(tmp) / conv.conv_id)
            mems = memories_of(vault, conv.conv_id)  # what extraction made, before reflections
            vault.reflect(now=last_date(evalkit, conv))
            reflections = vault.open_index().counts()["by_type"].get("reflection", 0)
            for question in dataset.questions:
                if question.conv_id != conv.conv_id:
                    continue
                now = last_date(evalkit, conv)
                results = vault.recall(question.question, 20, now=now)
                ranked = fused.rankings(vault, question.question, now)
                fused.check_replica(vault, question.question, now, ranked, 20)
                kept.append({"question_id": question.question_id, "split": fused.split_of(
                    conv.conv_id), **ranked})  # fmt: skip
                run.append({
                    "question_id": question.question_id,
                    "results": [{"source_turns": [s.split("#", 1)[1] for s in r.sources],
                                 "text": r.text} for r in results],
                })  # fmt: skip
            vault.close()
            extracted[conv.conv_id] = mems
            per_conv.append({"conversation": conv.conv_id, "turns": turns,
                             "memories": len(mems), "reflections": reflections,
                             "seconds": round(seconds, 2)})  # fmt: skip
    with open(args.out / "memories.jsonl", "w", encoding="utf-8") as handle:
        for cid, mems in extracted.items():
            handle.write(json.dumps({"conversation_id": cid, "memories": mems}) + "\n")
    with open(args.out / "run.jsonl", "w", encoding="utf-8") as handle:
        for line in run:
            handle.write(json.dumps(line) + "\n")
    fused.write_rankings(args.out / "rankings.jsonl", kept)
    recall_summary = evalkit.score_run(
        dataset, {line["question_id"]: line["results"] for line in run}, (5, 10, 20)
    )
    recall_summary.pop("per_question", None)
    gold = evalkit.locomo_gold_facts(str(args.data))
    gold = [fact for fact in gold if fact["conversation_id"] in extracted]
    scores = evalkit.score_extraction(gold, extracted)
    result = {"extraction": scores, "recall": recall_summary, "per_conversation": per_conv}
    (args.out / "extraction.json").write_text(json.dumps(result, indent=1))
    print("| conversation | turns | memories | reflections | seconds |\n|---|---:|---:|---:|---:|")
    for row in per_conv:
        print(f"| {row['conversation']} | {row['turns']} | {row['memories']} "
              f"| {row['reflections']} | {row['seconds']} |")  # fmt: skip
    print()
    for name in ("grounded_precision", "grounded_recall", "lexical_recall", "memories"):
        value = scores[name]
        print(f"{name}: {value:.3f}" if isinstance(value, float) else f"{name}: {value}")
    print()
    order = ["single-hop", "multi-hop", "temporal", "open-domain"]
    print(evalkit.format_table(recall_summary, category_order=order))
    overall = recall_summary["overall"]
    print("turns@10:", round(overall.get("turns@10", 0.0), 1))
    print()
    print(split_tables(evalkit, dataset, kept, order))
    return 0


def short_turn(source: str) -> str:
    """`conv-26#D1:3` as the kit's short id `D1:3`."""
    return source.split("#", 1)[1]


def split_tables(evalkit, dataset, kept: list[dict], order: list[str]) -> str:
    """Memories alone, turns alone and the two fused, on the tuning and the untouched part."""
    out = []
    for split in ("tune", "held"):
        rows = [r for r in kept if r["split"] == split]
        if not rows:
            continue
        ids = {r["question_id"] for r in rows}
        convs = sorted({qid.rsplit("-q", 1)[0] for qid in ids})
        for name, make in (("memories only", fused.memories_only),
                           ("turns only", fused.turns_only), ("fused", fused.fused)):  # fmt: skip
            run = fused.run_lines(rows, [make(r, 20) for r in rows], short_turn)
            part = [q for q in dataset.questions if q.question_id in ids]
            sub = evalkit.Dataset(dataset.name, dataset.conversations, part)
            summary = evalkit.score_run(sub, run, (5, 10, 20))
            out.append(f"### {split} ({', '.join(convs)}): {name}\n")
            out.append(evalkit.format_table(summary, category_order=order))
            out.append(f"turns@10: {summary['overall'].get('turns@10', 0.0):.1f}\n")
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
