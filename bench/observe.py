"""Learning throughput: observe 10k messages into a vault that already holds 100k memories.

    python -m bench.observe --size 100000 --messages 10000

The vault (`--size N`, generated if missing, or `--vault PATH`) is copied first (the original
is left as it was) and synced cold, untimed. Then a stream of messages is observed in turns
of 4, the way an assistant calls `observe` after each response. Two streams (`--stream`):

* `locomo` (the default): real dialog turns from ../shared/eval/locomo-dev.json (read from
  there, never copied; `--data` names another file), both speakers as named people, each
  session dated, conversations cycled (with fresh conversation ids) until there are enough
  messages;
* `synthetic`: 15 templates of facts, questions and small talk with a small vocabulary, so the
  same few facts are stated hundreds of times: a stress case for merging, in which the hot
  notes' `sources` grow to thousands of entries;
* `lme`: a person talking to an assistant, as the product is used: the sessions of the
  LongMemEval-S sample (../shared/eval/lme-dev, read in place) with their roles as given
  (`user`, `assistant`; the assistant's replies are kept as turns, not learned from), each
  session dated, in order, cycled with fresh session ids until there are enough messages.

Reported, in one run:

* messages per second through `Vault.observe` (target >= 500), by the clock and by this
  process's CPU time (on a loaded machine the clock also counts the other processes' turns and
  the disk's queue for each note's fsync), next to the same stream through the extractor alone
  (the baseline: no look-ups, no writes), as a ratio;
* where the CPU time goes: extraction, the look-ups and `decide`, the writes and the
  reflections after each `observe` (`--phases`,
  which wraps those calls with a timer, so it is off by default);
* the merge look-up (`Index.similar`, the FTS5 query that finds near-duplicate candidates)
  latency p50/p95 (target p95 < 5 ms);
* what the stream did: created, merged, superseded, kept, skipped.

`--against CHECKOUT` measures two codes side by side instead: this one and another checkout's
`tota_vault`, in one process, observing the same calls in turn into their own copies of the
vault, each's CPU summed (`_against`): the figure to compare two codes by on a loaded machine.

Results go to bench/out/observe-<stream>.json.
"""

from __future__ import annotations

import functools
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path

from bench import _kit
from tota_vault import Vault
from tota_vault.extract.formats import parse_conversation
from tota_vault.extract.messages import Message
from tota_vault.extract.rules import RuleExtractor
from tota_vault.index import Index
from tota_vault.pipeline import Outcome

#: The house targets: messages per second through observe, and the merge look-up's p95.
TARGET_RATE = 500
TARGET_LOOKUP_P95_MS = 5.0

PLACES = ["Lisbon", "Porto", "Berlin", "Austin", "Osaka", "Nairobi", "Lyon", "Quito", "Perth"]
THINGS = [
    "sourdough bread",
    "trail running",
    "jazz records",
    "board games",
    "climbing",
    "tea",
    "watercolor painting",
    "chess",
    "sci-fi novels",
    "cycling",
    "pottery",
    "salsa dancing",
    "bird watching",
    "kayaking",
    "knitting",
    "photography",
    "gardening",
    "yoga",
]
TOOLS = ["Neovim", "VS Code", "PostgreSQL", "SQLite", "Rust", "Go", "Python", "Emacs", "Figma"]
PEOPLE = ["sister", "brother", "manager", "partner", "best friend", "neighbour", "cousin"]
PROJECTS = ["a budgeting app", "a garden shed", "a podcast", "a board game", "a photo book"]
TEMPLATES = [
    "I live in {place} these days.",
    "I prefer {tool} over {tool2} for most of my work.",
    "I really love {thing}, it keeps me sane.",
    "I'm working on {project} in my spare time.",
    "I usually go {thing2} every Saturday morning.",
    "We decided to use {tool} for the new service.",
    "I can't eat gluten, so no {thing3} for me.",
    "My {person} is visiting next month from {place}.",
    "Yesterday I ran {n} km along the river.",
    "I want to learn {tool} properly this year.",
    "My favorite board game is {game}.",
    "I went to a {thing} workshop last weekend and loved it.",
    "What do you think about {tool}?",
    "Thanks, that helps a lot!",
    "Can you remind me how {tool} handles transactions?",
]
GAMES = ["Wingspan", "Catan", "Azul", "Carcassonne", "Root"]


def message_stream(count: int, seed: int = 11) -> list[Message]:
    """A deterministic chat: user facts, repeats, questions and assistant replies."""
    rng = random.Random(seed)
    start = datetime(2026, 1, 1, 9, 0)
    out: list[Message] = []
    for i in range(count):
        when = start + timedelta(minutes=7 * i)
        if i % 4 == 3:
            out.append(Message("assistant", "Noted! Anything else I can help with?", str(i + 1),
                               timestamp=when))  # fmt: skip
            continue
        text = rng.choice(TEMPLATES).format(
            place=rng.choice(PLACES), tool=rng.choice(TOOLS), tool2=rng.choice(TOOLS),
            thing=rng.choice(THINGS), thing2=rng.choice(THINGS), thing3=rng.choice(THINGS),
            project=rng.choice(PROJECTS), person=rng.choice(PEOPLE), n=rng.choice([5, 10, 21]),
            game=rng.choice(GAMES),
        )  # fmt: skip
        out.append(Message("user", text, str(i + 1), timestamp=when))
    return out


def _cycled(
    count: int, sessions: Callable[[int], Iterator[tuple[str, list[Message]]]]
) -> list[tuple[str, list[Message]]]:
    """`sessions(cycle)` as (id-cycleN, messages), cycle after cycle, cut at `count` messages."""
    out: list[tuple[str, list[Message]]] = []
    total, cycle = 0, 0
    while total < count:
        for name, messages in sessions(cycle):
            kept = messages[: count - total]
            out.append((f"{name}-cycle{cycle}", kept))
            total += len(kept)
            if total >= count:
                return out
        cycle += 1
    return out


def locomo_stream(count: int, data: Path) -> list[tuple[str, list[Message]]]:
    """Real dialog turns as (conversation id, session messages), cycled to `count` messages."""
    evalkit = _kit.load_evalkit(data.parent)
    dataset = evalkit.load_locomo(str(data))

    def sessions(cycle: int) -> Iterator[tuple[str, list[Message]]]:
        for conv in dataset.conversations:
            for _key, date, turns in evalkit.iter_sessions(conv):
                when = parse_conversation(f"Date: {date}\nX: x", "text")[0].timestamp
                yield (
                    conv.conv_id,
                    [
                        Message("user", t.text, t.local_id, name=t.speaker, timestamp=when)
                        for t in turns
                    ],
                )

    return _cycled(count, sessions)


def lme_stream(count: int, folder: Path) -> list[tuple[str, list[Message]]]:
    """User-assistant sessions as (session id, messages), roles as given, cycled to `count`."""
    from bench.quality.longmemeval import lme_date

    evalkit = _kit.load_evalkit(folder.parent)
    dataset = evalkit.load_longmemeval(str(folder))
    seen: set[str] = set()

    def sessions(cycle: int) -> Iterator[tuple[str, list[Message]]]:
        for conv in dataset.conversations:
            for session, date, turns in evalkit.iter_sessions(conv):
                if cycle == 0 and session in seen:
                    continue  # the haystacks share sessions: each is said once a cycle
                seen.add(session)
                when = lme_date(date)
                yield (
                    session,
                    [
                        Message(t.speaker, t.text, t.local_id.rsplit(":", 1)[1], timestamp=when)
                        for t in turns
                        if t.speaker in ("user", "assistant")
                    ],
                )

    return _cycled(count, sessions)


def main(argv: list[str] | None = None) -> int:
    parser = _kit.parser(__doc__)
    parser.add_argument("--vault", type=Path, help="a generated vault (copied)")
    parser.add_argument("--size", type=int, default=100_000,
                        help="without --vault: the generated vault of this many notes")  # fmt: skip
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--turn", type=int, default=4, help="messages per observe call")
    parser.add_argument("--stream", choices=("locomo", "synthetic", "lme"), default="locomo")
    parser.add_argument("--data", type=Path, help="locomo-dev.json, or the lme-dev folder")
    parser.add_argument("--phases", action="store_true", help="time the pipeline's phases")
    parser.add_argument("--outcomes", type=Path,
                        help="write each candidate's outcome here (JSON lines)")  # fmt: skip
    parser.add_argument("--against", type=Path, metavar="CHECKOUT",
                        help="observe with another checkout's tota_vault too, call by call "
                             "in turn with this one, each into its own copy")  # fmt: skip
    args = parser.parse_args(argv)

    source = args.vault or _kit.generated_vault(args.size, work=args.work)
    work = _kit.copy_vault(source, args.work / "observe")
    if args.stream == "synthetic":
        sessions = [("bench", message_stream(args.messages))]
    elif args.stream == "lme":
        sessions = lme_stream(args.messages, args.data or _kit.eval_dir() / "lme-dev")
    else:
        sessions = locomo_stream(args.messages, args.data or _kit.eval_dir() / "locomo-dev.json")
    turns = [
        (cid, session[i : i + args.turn])
        for cid, session in sessions
        for i in range(0, len(session), args.turn)
    ]
    messages = [m for _cid, turn in turns for m in turn]
    if args.against is not None:
        return _against(args.against, source, args.work, turns, args.stream)

    started = time.perf_counter()
    extractor = RuleExtractor()
    for cid, turn in turns:
        extractor.extract(turn, conversation_id=cid)
    baseline = time.perf_counter() - started

    lookups: list[float] = []
    original = Index.similar

    def timed_similar(self, *a, **k):  # type: ignore[no-untyped-def]
        t0 = time.perf_counter()
        try:
            return original(self, *a, **k)
        finally:
            lookups.append(time.perf_counter() - t0)

    Index.similar = timed_similar  # type: ignore[method-assign]
    phases = _phase_timers() if args.phases else None
    counts: dict[str, int] = {}
    reflections = 0  # reflection notes written or rewritten after the calls
    outcomes: list[str] = []
    with Vault.open(work) as vault:
        t0 = time.perf_counter()
        vault.sync()
        cold = time.perf_counter() - t0
        memories = vault.stats()["memories"]
        started, cpu_started = time.perf_counter(), time.process_time()
        for cid, turn in turns:
            report = vault.observe(turn, conversation_id=cid)
            for action, n in report.to_dict()["counts"].items():
                counts[action] = counts.get(action, 0) + n
            reflections += len(report.reflections)
            if args.outcomes is not None:
                outcomes.extend(_outcome_line(o) for o in report.outcomes)
        seconds = time.perf_counter() - started
        cpu = time.process_time() - cpu_started
    Index.similar = original  # type: ignore[method-assign]
    if phases is not None:
        phases.undo()

    if args.outcomes is not None:
        args.outcomes.parent.mkdir(parents=True, exist_ok=True)
        args.outcomes.write_text("".join(line + "\n" for line in outcomes), "utf-8")
    rate = len(messages) / seconds
    result = {
        "stream": args.stream,
        "memories_before": memories,
        "messages": len(messages),
        "observe_seconds": round(seconds, 2),
        "messages_per_second": round(rate, 1),
        "observe_cpu_seconds": round(cpu, 2),
        "messages_per_cpu_second": round(len(messages) / cpu, 1),
        "extract_only_seconds": round(baseline, 3),
        "ratio_to_extract_only": round(seconds / baseline, 1),
        "merge_lookup_p50_ms": round(statistics.median(lookups) * 1000, 2),
        "merge_lookup_p95_ms": round(_kit.percentile(lookups, 0.95) * 1000, 2),
        "lookups": len(lookups),
        "outcomes": counts,
        "reflections_written": reflections,
        "cold_sync_seconds_untimed_setup": round(cold, 1),
    }
    if phases is not None:
        result["cpu_seconds_by_phase"] = {k: round(v, 2) for k, v in phases.spent.items()}
    _kit.write_result(args.out, f"observe-{args.stream}", result)
    p95 = result["merge_lookup_p95_ms"]
    print(_kit.table(
        ("stream", "messages/s", "messages/CPU s", "baseline (extract only)", "ratio",
         "merge look-up p50 / p95", "outcomes"),
        [(args.stream, f"{rate:.0f}", f"{len(messages) / cpu:.0f}", f"{baseline:.2f} s for all",
          f"{seconds / baseline:.1f}×",
          f"{result['merge_lookup_p50_ms']} / {p95} ms",
          ", ".join(f"{n:,} {action}" for action, n in sorted(counts.items())))],
    ))  # fmt: skip
    print(f"\nreflections written or rewritten after observe: {reflections:,}")
    if phases is not None:
        print("\nCPU seconds by phase: " + ", ".join(
            f"{k} {v:.2f}" for k, v in sorted(phases.spent.items(), key=lambda kv: -kv[1])
        ) + f" (of {cpu:.2f})")  # fmt: skip
    met = "met" if rate >= TARGET_RATE else "NOT met"
    print(f"\nthroughput {rate:.0f} msg/s (target >= {TARGET_RATE}): {met}")
    cpu_met = "met" if len(messages) / cpu >= TARGET_RATE else "NOT met"
    print(f"throughput by CPU time {len(messages) / cpu:.0f} msg/s: {cpu_met}")
    met = "met" if p95 < TARGET_LOOKUP_P95_MS else "NOT met"
    print(f"merge look-up p95 {p95} ms (target < {TARGET_LOOKUP_P95_MS:.0f} ms): {met}")
    return 0


def _against(
    checkout: Path, source: Path, work: Path, turns: list[tuple[str, list[Message]]], stream: str
) -> int:
    """This code and another checkout's, in one process, observing the same calls in turn
    (which goes first alternates), each into its own synced copy of the vault: a loaded
    machine's noise falls on both alike, which separate runs cannot promise (the same code's
    runs differ by a third here). The other code is imported as a package of another name,
    `tota_against` (tota_vault imports itself by relative imports only)."""
    import compileall
    import importlib
    import importlib.util
    import shutil
    import tempfile

    where = Path(tempfile.mkdtemp(prefix="tota-against-"))
    shutil.copytree(checkout / "tota_vault", where / "tota_against",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    # Compiled before any timing, as this checkout's own modules are: the lazy imports of the
    # first `observe` would otherwise compile the other code's from source on its clock.
    compileall.compile_dir(where, quiet=1)
    init = where / "tota_against" / "__init__.py"
    spec = importlib.util.spec_from_file_location(
        "tota_against", init, submodule_search_locations=[str(init.parent)]
    )
    assert spec is not None and spec.loader is not None
    other = importlib.util.module_from_spec(spec)
    sys.modules["tota_against"] = other  # its relative imports find it by this name
    spec.loader.exec_module(other)
    other_message = importlib.import_module("tota_against.extract.messages").Message
    codes = {
        "this": (Vault, _kit.copy_vault(source, work / "observe"), lambda m: m),
        "against": (other.Vault, _kit.copy_vault(source, work / "observe-against"),
                    lambda m: other_message(**vars(m))),
    }  # fmt: skip
    cpu = dict.fromkeys(codes, 0.0)
    counts: dict[str, dict[str, int]] = {name: {} for name in codes}
    vaults = {name: vault_class.open(path) for name, (vault_class, path, _) in codes.items()}
    try:
        for vault in vaults.values():
            vault.sync()  # cold, untimed
        own = {name: [[convert(m) for m in t] for _, t in turns]
               for name, (_, _, convert) in codes.items()}  # fmt: skip
        order = list(codes)
        for k, (cid, _turn) in enumerate(turns):
            for name in order if k % 2 == 0 else order[::-1]:
                t0 = time.process_time()
                report = vaults[name].observe(own[name][k], conversation_id=cid)
                cpu[name] += time.process_time() - t0
                for action, n in report.to_dict()["counts"].items():
                    counts[name][action] = counts[name].get(action, 0) + n
    finally:
        for vault in vaults.values():
            vault.close()
        shutil.rmtree(where, ignore_errors=True)
    total = sum(len(t) for _, t in turns)
    print(_kit.table(
        ("code", "messages/CPU s", "CPU s", "outcomes"),
        [(name if name == "this" else f"against {checkout}", f"{total / cpu[name]:.0f}",
          f"{cpu[name]:.2f}", ", ".join(f"{n:,} {a}" for a, n in sorted(counts[name].items())))
         for name in codes],
    ))  # fmt: skip
    print(
        f"\n{stream}, {total:,} messages: this code's CPU / the other's = "
        f"{cpu['this'] / cpu['against']:.3f}"
    )
    return 0


def _outcome_line(outcome: Outcome) -> str:
    """One candidate's outcome as one JSON line (source, action, statement, note), so two runs
    of the same stream can be compared message for message."""
    return json.dumps(
        [outcome.source, outcome.action, outcome.text, outcome.path], ensure_ascii=False
    )


class _PhaseTimers:
    """CPU time spent in a few of the pipeline's calls, by wrapping them (undone at the end)."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}
        self.saved: list[tuple[object, str, object]] = []

    def wrap(self, owner: object, name: str, label: str) -> None:
        original = getattr(owner, name)
        spent = self.spent

        # `wraps`: the pipeline reads the extractor's signature (`known_people`), which a bare
        # wrapper would hide, and the run would skip the look-up of people named before.
        @functools.wraps(original)  # type: ignore[arg-type]
        def timed(*a, **k):  # type: ignore[no-untyped-def]
            t0 = time.process_time()
            try:
                return original(*a, **k)
            finally:
                spent[label] = spent.get(label, 0.0) + time.process_time() - t0

        self.saved.append((owner, name, original))
        setattr(owner, name, timed)

    def undo(self) -> None:
        for owner, name, original in reversed(self.saved):
            setattr(owner, name, original)


def _phase_timers() -> _PhaseTimers:
    from tota_vault import pipeline, reflect

    timers = _PhaseTimers()
    timers.wrap(RuleExtractor, "extract", "extract")
    timers.wrap(pipeline.Learner, "_decide", "look-ups and decide")
    timers.wrap(pipeline.Learner, "_apply", "writes")
    timers.wrap(pipeline, "guard", "guard")
    timers.wrap(pipeline, "clean_message", "clean messages")
    # Imported by `observe` when it runs, so wrapped where it is looked up (the module).
    timers.wrap(reflect, "note_new_members", "reflections after observe")
    return timers


if __name__ == "__main__":
    sys.exit(main())
