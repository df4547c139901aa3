"""The benchmark suite cannot rot: the kit's statistics are right, every entry is registered
and documented, and every entry (and probe) runs end to end at a tiny size.

The smoke runs check that an entry completes and writes what it reports, never how fast
anything was: speed is for the entries themselves, in docs/benchmarks.md.
"""

from __future__ import annotations

import importlib
import json
import re
import shutil
from pathlib import Path

import pytest

from bench import ENTRIES, _kit, gen_vault
from bench.__main__ import main as bench_main

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
BENCHMARKS_MD = (ROOT / "docs" / "benchmarks.md").read_text()
SMALL = 120  # notes in the smoke runs' generated vault


# --- the kit ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "q", "expected"),
    [
        ([3.0], 0.95, 3.0),
        ([1.0, 2.0, 3.0], 0.5, 2.0),
        ([4.0, 1.0, 3.0, 2.0], 0.5, 2.5),  # unsorted input; halfway between the middle two
        ([1.0, 2.0, 3.0, 4.0, 5.0], 0.0, 1.0),
        ([1.0, 2.0, 3.0, 4.0, 5.0], 1.0, 5.0),
        ([1.0, 2.0, 3.0, 4.0, 5.0], 0.95, 4.8),  # linear between the 4th and 5th
        (list(range(1, 21)), 0.95, 19.05),
    ],
)
def test_percentile_interpolates_between_ranks(values, q, expected):
    assert _kit.percentile(values, q) == pytest.approx(expected)


@pytest.mark.parametrize(("values", "q"), [([], 0.5), ([1.0], 95), ([1.0], -0.1)])
def test_percentile_refuses_no_values_or_a_quantile_out_of_range(values, q):
    with pytest.raises(ValueError):
        _kit.percentile(values, q)


def test_summary_scales_and_counts():
    figures = _kit.summary([0.001, 0.003, 0.002], scale=1000, digits=2)
    assert figures == {"p50": 2.0, "p95": 2.9, "min": 1.0, "max": 3.0, "n": 3}


@pytest.mark.parametrize(
    ("value", "base", "ratio", "text"),
    [(3.0, 2.0, 1.5, "1.50×"), (0.1, 0.3, 0.33, "0.33×"), (2.0, 2.0, 1.0, "1.00×")],
)
def test_ratio_and_its_format(value, base, ratio, text):
    assert _kit.ratio(value, base) == ratio
    assert _kit.fmt_ratio(value, base) == text


def test_a_ratio_to_nothing_is_refused():
    with pytest.raises(ValueError, match="baseline"):
        _kit.ratio(1.0, 0.0)


def test_interleave_rotates_the_order_every_round():
    order: list[str] = []

    def job(name: str):
        return lambda: order.append(name) or 0.0

    times = _kit.interleave(3, {"base": job("base"), "a": job("a"), "b": job("b")})
    assert order == ["base", "a", "b", "a", "b", "base", "b", "base", "a"]
    assert list(times) == ["base", "a", "b"]
    assert all(len(values) == 3 for values in times.values())


def test_a_timed_process_that_fails_names_its_command():
    with pytest.raises(RuntimeError, match="false"):
        _kit.time_process(["false"])
    seconds, done = _kit.time_process(["false"], check=False)
    assert done.returncode == 1 and seconds > 0


def test_generated_vault_is_made_once_and_then_reused(tmp_path):
    vault = _kit.generated_vault(30, work=tmp_path)
    assert vault == tmp_path / "vault-30"
    assert _kit.manifest_of(vault)["n"] == 30
    note = next(vault.rglob("*.md"))
    stamp = note.stat().st_mtime_ns
    assert _kit.generated_vault(30, work=tmp_path) == vault
    assert note.stat().st_mtime_ns == stamp  # reused, not written again
    assert len(list(vault.rglob("*.md"))) == 30


def test_a_folder_that_is_not_a_generated_vault_is_refused(tmp_path):
    with pytest.raises(SystemExit, match="not a generated vault"):
        _kit.manifest_of(tmp_path)


def test_copy_vault_leaves_the_index_and_the_original_behind(tmp_path):
    source = _kit.generated_vault(20, work=tmp_path)
    (source / ".tota").mkdir()
    (source / ".tota" / "index.db").write_bytes(b"x")
    copy = _kit.copy_vault(source, tmp_path / "copy")
    assert not (copy / ".tota").exists()
    assert sorted(p.name for p in copy.rglob("*.md")) == sorted(
        p.name for p in source.rglob("*.md")
    )
    assert (source / ".tota" / "index.db").exists()


def test_requests_are_drawn_from_the_notes_deterministically(tmp_path):
    from tota_vault import Vault

    source = _kit.copy_vault(_kit.generated_vault(40, work=tmp_path), tmp_path / "v")
    with Vault.open(source) as vault:
        vault.sync()
        first = _kit.requests(_kit.index_sql(vault), 20)
        assert first == _kit.requests(_kit.index_sql(vault), 20)
    assert 0 < len(first) <= 20
    assert all(message.strip() for message in first)


def test_write_result_records_the_machine_and_the_data(tmp_path):
    path = _kit.write_result(tmp_path / "out", "demo", {"figure": 1.5})
    data = json.loads(path.read_text())
    assert path.name == "demo.json"
    assert data["entry"] == "demo" and data["figure"] == 1.5
    assert data["machine"]["nproc"] >= 1


def test_the_helpers_from_outside_bench_load_by_path():
    assert hasattr(_kit.load_sessionkit(), "SessionWriter")
    if not (_kit.eval_dir() / "evalkit.py").exists():
        pytest.skip("the shared evaluation folder is not beside this checkout")
    assert hasattr(_kit.load_evalkit(), "load_locomo")


# --- the suite's shape -----------------------------------------------------------------------


def _modules(folder: Path) -> list[str]:
    return sorted(p.stem for p in folder.glob("*.py") if not p.stem.startswith("_"))


def test_every_entry_is_registered_and_every_registered_entry_exists():
    helpers = {"gen_vault"}
    assert sorted(ENTRIES) == [m for m in _modules(BENCH) if m not in helpers]
    for name in ENTRIES:
        assert callable(importlib.import_module(f"bench.{name}").main), name


def test_no_bench_file_edits_sys_path():
    for path in BENCH.rglob("*.py"):
        assert "sys.path.insert" not in path.read_text(), path


def test_every_entry_is_documented_with_its_command():
    for name in ENTRIES:
        assert f"python -m bench.{name}" in BENCHMARKS_MD, name
    assert "bench/bench_" not in BENCHMARKS_MD  # no command of the old layout is left


def test_the_docs_name_no_old_script():
    for doc in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        text = doc.read_text()
        for old in ("bench/bench_", "bench/eval_locomo", "bench/probe_", "bench/profile_"):
            assert old not in text, (doc.name, old)
        assert "bench/gen_vault.py " not in text, doc.name


def test_python_m_bench_lists_the_entries_and_refuses_an_unknown_one(capsys):
    assert bench_main([]) == 0
    listing = capsys.readouterr().out
    assert all(re.search(rf"^  {name} ", listing, re.M) for name in ENTRIES)
    assert bench_main(["nope"]) == 2
    assert "no entry 'nope'" in capsys.readouterr().err


# --- smoke runs: each entry end to end at a tiny size ----------------------------------------


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One work folder for the module, with the small generated vault in it."""
    folder = tmp_path_factory.mktemp("bench-work")
    gen_vault.write_vault(folder / f"vault-{SMALL}", SMALL, _kit.SEED)
    return folder


def _run(entry: str, work: Path, out: Path, *args: str) -> None:
    assert bench_main([entry, "--work", str(work), "--out", str(out), *args]) == 0


def test_recall_runs(work, tmp_path, capsys):
    _run("recall", work, tmp_path, "--size", str(SMALL), "--messages", "5", "--repeat", "1")
    data = json.loads((tmp_path / "recall.json").read_text())
    (figures,) = data["vaults"].values()
    assert figures["memories"] > 0 and figures["messages"] == 5
    assert figures["recall_ms"]["n"] == figures["baseline_or_query_ms"]["n"] == 5
    assert figures["ratio_p50"] > 0
    assert figures["row_us"] > 0 and figures["row_baseline_dict_us"] > 0
    assert "| recall p50 / p95 |" in capsys.readouterr().out


def test_recall_reuses_its_synced_copy_and_can_leave_reflect_out(work, tmp_path, capsys):
    args = ("--size", str(SMALL), "--messages", "3", "--repeat", "1", "--no-reflect")
    _run("recall", work, tmp_path, *args)
    copy = work / "recall" / f"vault-{SMALL}"
    marker = copy / "left-by-the-first-run.txt"
    marker.write_text("x")
    _run("recall", work, tmp_path, *args, "--reuse")
    assert marker.exists()  # the same copy, not a fresh one
    (figures,) = json.loads((tmp_path / "recall.json").read_text())["vaults"].values()
    assert "reflect_seconds" not in figures and figures["recall_ms"]["n"] == 3
    assert "not run" in capsys.readouterr().out
    _run("recall", work, tmp_path, *args)
    assert not marker.exists()  # without --reuse, copied afresh


def test_observe_runs_the_synthetic_stream(work, tmp_path, capsys):
    _run("observe", work, tmp_path, "--size", str(SMALL), "--messages", "24",
         "--stream", "synthetic")  # fmt: skip
    data = json.loads((tmp_path / "observe-synthetic.json").read_text())
    assert data["messages"] == 24 and data["memories_before"] > 0
    assert data["lookups"] > 0 and sum(data["outcomes"].values()) > 0
    assert "merge look-up p95" in capsys.readouterr().out


def test_observe_writes_each_outcome_the_same_on_a_second_run(work, tmp_path):
    lines = []
    for run in ("a", "b"):
        _run("observe", work, tmp_path, "--size", str(SMALL), "--messages", "24",
             "--stream", "synthetic", "--outcomes", str(tmp_path / f"{run}.jsonl"))  # fmt: skip
        lines.append((tmp_path / f"{run}.jsonl").read_text("utf-8").splitlines())
    data = json.loads((tmp_path / "observe-synthetic.json").read_text())
    assert len(lines[0]) == sum(data["outcomes"].values()) > 0
    assert {json.loads(line)[1] for line in lines[0]} <= set(data["outcomes"])
    assert lines[0] == lines[1]  # a fresh copy each run: the same decisions, note for note


def test_observe_against_another_checkout_runs_both_in_turn(work, tmp_path, capsys):
    """Against this very checkout: two codes alike decide alike, call for call."""
    checkout = Path(__file__).resolve().parents[1]
    _run("observe", work, tmp_path, "--size", str(SMALL), "--messages", "24",
         "--stream", "synthetic", "--against", str(checkout))  # fmt: skip
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith(("| this", "| against"))]
    assert len(rows) == 2 and rows[0].rsplit("|", 2)[1] == rows[1].rsplit("|", 2)[1]
    assert re.search(r"this code's CPU / the other's = \d+\.\d{3}", out)


def test_the_phase_timers_keep_the_extractors_signature():
    """Wrapped, the extractor still says it reads `known_people`: without it the pipeline
    would skip the look-up of the people named before, and the run measure less work."""
    import inspect

    from bench.observe import _phase_timers
    from tota_vault.extract.rules import RuleExtractor

    timers = _phase_timers()
    try:
        assert "known_people" in inspect.signature(RuleExtractor().extract).parameters
    finally:
        timers.undo()


def test_observe_runs_real_dialog(work, tmp_path):
    if not (_kit.eval_dir() / "locomo-dev.json").exists():
        pytest.skip("the shared evaluation folder is not beside this checkout")
    _run("observe", work, tmp_path, "--size", str(SMALL), "--messages", "12", "--phases")
    data = json.loads((tmp_path / "observe-locomo.json").read_text())
    assert data["messages"] == 12 and data["messages_per_cpu_second"] > 0
    phases = data["cpu_seconds_by_phase"]
    assert {"extract", "look-ups and decide", "writes"} <= set(phases)
    assert sum(phases.values()) <= data["observe_cpu_seconds"] + 0.05


def test_observe_runs_a_user_talking_to_an_assistant(work, tmp_path):
    if not (_kit.eval_dir() / "lme-dev").exists():
        pytest.skip("the shared evaluation folder is not beside this checkout")
    _run("observe", work, tmp_path, "--size", str(SMALL), "--messages", "12", "--stream", "lme")
    data = json.loads((tmp_path / "observe-lme.json").read_text())
    assert data["messages"] == 12 and data["messages_per_cpu_second"] > 0


def test_the_lme_stream_keeps_both_roles_and_says_each_session_once_a_cycle():
    if not (_kit.eval_dir() / "lme-dev").exists():
        pytest.skip("the shared evaluation folder is not beside this checkout")
    from bench.observe import lme_stream

    sessions = lme_stream(3000, _kit.eval_dir() / "lme-dev")
    messages = [m for _sid, session in sessions for m in session]
    assert len(messages) == 3000
    assert {m.role for m in messages} == {"user", "assistant"}
    ids = [sid for sid, _ in sessions]
    assert len(ids) == len(set(ids)) and all(m.timestamp for m in messages)


@pytest.mark.slow
def test_sync_runs(work, tmp_path, capsys):
    _run("sync", work, tmp_path, "--sizes", str(SMALL), "--repeat", "1", "--small-repeat", "1",
         "--queries", "4", "--search-rounds", "1", "--cli-searches", "1", "--help-runs", "1")  # fmt: skip
    (result,) = tmp_path.glob(f"sync-{SMALL}-*.json")
    data = json.loads(result.read_text())
    assert data["tota_source"]["path"].startswith(str(work))  # measured a snapshot
    (size,) = data["sizes"]
    assert size["n"] == SMALL and len(size["cold"]["cli"]) == 1
    assert "cold sync, process `tota sync`" in capsys.readouterr().out
    assert not (work / f"vault-{SMALL}" / ".tota").exists()  # the vault left as generated


@pytest.mark.slow
def test_mcp_runs(work, tmp_path):
    _run("mcp", work, tmp_path, "--size", str(SMALL), "--messages", "3", "--starts", "1")
    (figures,) = json.loads((tmp_path / "mcp.json").read_text())["vaults"].values()
    assert figures["messages"] == 3
    assert figures["recall_ms"]["spawned tota mcp over stdio"]["n"] == 3


@pytest.mark.slow
def test_hook_runs(work, tmp_path):
    _run("hook", work, tmp_path, "--size", str(SMALL), "--runs", "1", "--stop-messages", "2",
         "--scaling", "1")  # fmt: skip
    data = json.loads((tmp_path / f"hook-{SMALL}.json").read_text())
    assert set(data["results"]) == {"baseline", "prompt", "session-start", "stop"}
    assert data["memories_learned_by_stops"] > 0
    assert list(data["stop_inline_median_s_by_new_messages"]) == ["1"]


@pytest.mark.slow
def test_watch_runs(work, tmp_path):
    _run("watch", work, tmp_path, "--size", str(SMALL), "--small", "30", "--edits", "1",
         "--checkout-notes", "20", "--idle-seconds", "0.2")  # fmt: skip
    data = json.loads((tmp_path / "watch.json").read_text())
    assert data["latency_debounce_0.05"]["n"] == 1
    assert data["git_checkout"]["notes"] == 20 and data["idle"]["notes"] == SMALL


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
def test_menu_runs(work, tmp_path):
    _run("menu", work, tmp_path, "--runs", "1", "--notes", "60")
    data = json.loads((tmp_path / "menu.json").read_text())
    assert data["short_ids"]["notes"] == 60
    assert data["start_wall_s"]["tota memory median"] > 0


def test_the_search_probe_runs(work, tmp_path):
    from bench.probes import search

    vault = _kit.copy_vault(work / f"vault-{SMALL}", tmp_path / "vault")
    assert search.main([str(vault), "--queries", "8", "--out", str(tmp_path / "out")]) == 0
    assert list((tmp_path / "out").glob("probe-search-*.txt"))


def test_the_cli_fixes_probe_runs(work, tmp_path):
    from bench.probes import cli_fixes

    out = tmp_path / "out"
    args = [str(work / f"vault-{SMALL}"), "--rounds", "2", "--turns", "50", "--reindex-runs", "2"]
    assert cli_fixes.main([*args, "--out", str(out)]) == 0
    data = json.loads((out / f"probe-cli-fixes-{SMALL}.json").read_text())
    assert data["turns_after"] == {"before": 0, "after": 50}  # what the fix is for
    assert data["search_ms_cpu_per_query"]["after"] > 0


@pytest.mark.slow
def test_the_held_note_probe_runs(tmp_path):
    from bench.probes import held_note

    checkout = Path(__file__).resolve().parents[1]  # this checkout's own tota_vault
    out = tmp_path / "held.json"
    held_note.main([f"after={checkout}", "--seconds", "4", "--rounds", "1", "--out", str(out)])
    [found] = json.loads(out.read_text())
    assert (found["updated_lines"], found["held_lines"], found["doctor_exit"]) == (1, 1, 0)
    assert found["doctor_line"].startswith("held by an editor: ")


def test_the_sync_profile_runs(work, tmp_path):
    from bench.probes import profile_sync

    vault = _kit.copy_vault(work / f"vault-{SMALL}", tmp_path / "vault")
    out = tmp_path / "out"
    assert profile_sync.main([str(vault), "--no-replay", "--no-cprofile", "--out", str(out)]) == 0
    assert "cold sync, wall" in (out / f"profile-{SMALL}.txt").read_text()


@pytest.mark.slow
def test_the_locomo_evaluation_runs_on_one_conversation(work, tmp_path):
    from bench.quality import locomo

    if not (_kit.eval_dir() / "locomo-dev.json").exists():
        pytest.skip("the shared evaluation folder is not beside this checkout")
    assert locomo.main(["--limit", "1", "--work", str(work), "--out", str(tmp_path)]) == 0
    scores = json.loads((tmp_path / "extraction.json").read_text())
    assert len(scores["per_conversation"]) == 1 and scores["extraction"]["memories"] > 0


class _Said:
    """A turn as the evaluation kit gives it (speaker, text, `<session>:<index>`)."""

    def __init__(self, speaker: str, text: str, local_id: str) -> None:
        self.speaker, self.text, self.local_id = speaker, text, local_id


class _Kit:
    """The one call of the evaluation kit `longmemeval.ingest` makes, over one session."""

    @staticmethod
    def iter_sessions(conv):
        yield (
            "s1",
            "2023/05/20 (Sat) 02:21",
            [
                _Said("user", "I just ran 5 kilometers in the Run for the Cure.", "s1:0"),
                _Said("assistant", "Congratulations on the run!", "s1:1"),
            ],
        )


def test_a_kept_lme_vault_is_reused_only_once_its_observation_finished(tmp_path):
    from bench.quality.longmemeval import kept_or_ingest

    root = tmp_path / "q1"
    vault, turns, _seconds = kept_or_ingest(_Kit, None, root, True)
    notes = sorted(p.name for p in root.rglob("*.md"))
    vault.close()
    assert turns == 2 and notes and (tmp_path / "q1.observed").exists()
    vault, turns, _seconds = kept_or_ingest(_Kit, None, root, True)  # reused: nothing observed
    vault.close()
    assert turns == 0 and sorted(p.name for p in root.rglob("*.md")) == notes
    # A folder left by a run that stopped before the marker is observed again from nothing.
    (tmp_path / "q1.observed").unlink()
    (root / "stray.md").write_text("left by a run that stopped\n")
    vault, turns, _seconds = kept_or_ingest(_Kit, None, root, True)
    vault.close()
    assert turns == 2 and not (root / "stray.md").exists()


def test_capped_runs(tmp_path, capsys):
    _run("capped", tmp_path, tmp_path, "--lines", "0", "--runs", "2")
    data = json.loads((tmp_path / "capped.json").read_text())
    (size,) = data["sizes"]
    assert set(size["results"]) >= {"baseline", "capped", "re-read"}
    assert "| N (bytes in .tota-sources/) |" in capsys.readouterr().out


def test_llm_runs_against_a_stand_in_model(tmp_path, capsys):
    _run("llm", tmp_path, tmp_path, "--messages", "48")
    data = json.loads((tmp_path / "llm.json").read_text())
    assert data["messages"] == 48 and data["candidates"]["over_http"] > 0
    assert data["llm_over_http"]["ratio_to_rules"] > 0


def test_integrity_runs(work, tmp_path, capsys):
    _run("integrity", work, tmp_path, "--size", str(SMALL), "--repeat", "1")
    data = json.loads((tmp_path / "integrity.json").read_text())
    (figures,) = data["vaults"].values()
    assert figures["integrity_check"] > 0 and figures["ratio"] > 0
    assert "integrity_check" in capsys.readouterr().out


def test_doctor_secrets_runs(work, tmp_path, capsys):
    _run("doctor_secrets", work, tmp_path, "--size", str(SMALL), "--runs", "1")
    data = json.loads((tmp_path / "doctor_secrets.json").read_text())
    # Both are timed, separately: which is larger is up to a shared machine, not the code.
    assert data["notes"] > 0 and data["doctor_ms"] > 0 and data["scan_ms"] > 0
    assert "| find_stored_secrets |" in capsys.readouterr().out


@pytest.mark.slow  # a child process per job: most of it is interpreter starts
def test_maintain_runs(work, tmp_path, capsys):
    _run("maintain", work, tmp_path, "--size", str(SMALL), "--runs", "1")
    data = json.loads((tmp_path / f"maintain-{SMALL}.json").read_text())
    figures = data["figures"]
    assert set(figures) == {"sync", "decay", "reflect", "decay-apply"}
    assert figures["sync"]["count"] == 0  # a no-change sync: the vault was synced first
    assert figures["decay"]["count"] == figures["decay-apply"]["count"] > 0
    assert all(f["rss_mb"] > 0 and f["wall_ratio"] > 0 for f in figures.values())
    assert "| `tota decay --apply` |" in capsys.readouterr().out
    assert not (work / f"vault-{SMALL}" / ".tota").exists()  # the vault left as generated


@pytest.mark.slow  # a child process per job: most of it is interpreter starts
def test_maintain_measures_another_code_in_the_same_rounds(work, tmp_path, capsys):
    _run("maintain", work, tmp_path, "--size", str(SMALL), "--runs", "1", "--apply-runs", "0",
         "--against", str(ROOT))  # fmt: skip
    data = json.loads((tmp_path / f"maintain-{SMALL}.json").read_text())
    assert set(data["figures"]) == set(data["against"]["figures"]) == {"sync", "decay", "reflect"}
    against = data["against"]["figures"]
    assert data["against"]["measured_module"].startswith(str(ROOT))
    # The same vault: the same counts, each ratio to its own code's sync.
    assert all(against[job]["count"] == data["figures"][job]["count"] for job in against)
    assert against["sync"]["wall_ratio"] == 1.0
    assert "| against: `tota reflect --dry-run` |" in capsys.readouterr().out


def test_dryrun_runs_and_holds_the_prediction_to_the_real_run(tmp_path, capsys):
    assert bench_main(["dryrun", "--out", str(tmp_path), "--messages", "40"]) == 0
    (figures,) = json.loads((tmp_path / "dryrun.json").read_text())["sizes"].values()
    assert figures["messages"] == 40 and figures["outcomes"] > 0  # and equal, or it exits
    assert figures["dry_cpu_s"] > 0 and figures["real_cpu_s"] > 0
    assert "| dry / real |" in capsys.readouterr().out


def test_turns_runs(work, tmp_path, capsys):
    _run("turns", work, tmp_path, "--size", str(SMALL), "--turns", "300", "--messages", "4",
         "--repeat", "1", "--observes", "2")  # fmt: skip
    (figures,) = json.loads((tmp_path / "turns.json").read_text())["vaults"].values()
    assert figures["memories"] > 0 and figures["turns"] >= 300  # and the observes' own
    assert figures["index_bytes_after"] > figures["index_bytes_before"]
    assert figures["recall_ms"]["recall with turns"]["n"] == 4
    assert figures["observe_ms"]["turns on"]["n"] == 2
    assert "plain FTS5 query" in capsys.readouterr().out
