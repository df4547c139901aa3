"""Weighing the fusion's constants on the tuning part only, and reporting the untouched part.

    python -m bench.quality.locomo && python -m bench.quality.longmemeval   # the rankings
    python -m bench.quality.fusion_grid

Reads the rankings the two quality entries kept (`bench/out/{locomo,longmemeval}/
rankings.jsonl`: per question, the memory ranking and the turn ranking `Vault.recall` fuses)
and fuses them again under each setting of the grid: the damping K, the turns' weight, and
how deep each list is read. A setting is chosen by the mean all@10 of the two data sets'
*tuning* parts (`fused.split_of`, a hash of the id fixed before any tuning); the untouched
parts are only reported, for the chosen setting and for the one the code ships. Every
setting also reports turns@10 on the tuning parts (the context budget holds by construction).
"""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path
from typing import Any

from bench import _kit
from bench.quality import fused
from bench.quality.locomo import short_turn as locomo_turn
from bench.quality.longmemeval import short_turn as lme_turn
from tota_vault.fusion import MEMORY_DEPTH, RRF_K, TURN_DEPTH, TURN_WEIGHT

GRID = {
    "k": (1.0, 3.0, 5.0, 10.0, 20.0, 60.0),
    "turn_weight": (0.5, 0.75, 1.0, 1.25, 1.5),
    "memory_depth": (20, 60),
    "turn_depth": (10, 30),
}


def score(evalkit, dataset, rows, short, setting: dict[str, Any]) -> dict[str, Any]:
    """The kit's summary of fusing `rows` under `setting`."""
    results = [fused.fused(row, 20, **setting) for row in rows]
    ids = {r["question_id"] for r in rows}
    part = [q for q in dataset.questions if q.question_id in ids]
    sub = evalkit.Dataset(dataset.name, dataset.conversations, part)
    return evalkit.score_run(sub, fused.run_lines(rows, results, short), (5, 10, 20))


def main(argv: list[str] | None = None) -> int:
    parser = _kit.parser(__doc__)
    parser.add_argument("--eval-dir", type=Path, default=_kit.eval_dir())
    parser.add_argument("--rankings", type=Path, default=_kit.OUT_DIR)
    args = parser.parse_args(argv)
    evalkit = _kit.load_evalkit(args.eval_dir)
    sets = {
        "locomo": (evalkit.load_locomo(str(args.eval_dir / "locomo-dev.json"),
                                       skip_categories=(5,)), locomo_turn),
        "longmemeval": (evalkit.load_longmemeval(str(args.eval_dir / "lme-dev")), lme_turn),
    }  # fmt: skip
    rows = {name: fused.read_rankings(args.rankings / name / "rankings.jsonl") for name in sets}
    shipped = {"k": RRF_K, "turn_weight": TURN_WEIGHT, "memory_depth": MEMORY_DEPTH,
               "turn_depth": TURN_DEPTH}  # fmt: skip
    table = []
    for values in itertools.product(*GRID.values()):
        setting = dict(zip(GRID, values, strict=True))
        figures = {}
        for name, (dataset, short) in sets.items():
            tune = [r for r in rows[name] if r["split"] == "tune"]
            overall = score(evalkit, dataset, tune, short, setting)["overall"]
            figures[name] = (overall["all@10"], overall["any@10"], overall["turns@10"])
        mean = sum(f[0] for f in figures.values()) / len(figures)
        table.append((mean, setting, figures))
    table.sort(key=lambda t: -t[0])
    print(_kit.table(
        ("K", "turn weight", "memory depth", "turn depth", "mean all@10 (tune)",
         "LoCoMo all@10 / any@10 / turns@10", "LongMemEval all@10 / any@10 / turns@10"),
        [(s["k"], s["turn_weight"], s["memory_depth"], s["turn_depth"], f"{m:.3f}",
          " / ".join(f"{x:.3f}" if i < 2 else f"{x:.1f}" for i, x in enumerate(f["locomo"])),
          " / ".join(f"{x:.3f}" if i < 2 else f"{x:.1f}" for i, x in enumerate(f["longmemeval"])))
         for m, s, f in table[:15]],
    ))  # fmt: skip
    best = table[0][1]
    print(f"\nchosen on the tuning parts: {best}; shipped: {shipped}\n")
    held: dict[str, Any] = {}
    for label, setting in (("chosen", best), ("shipped", shipped)):
        for name, (dataset, short) in sets.items():
            part = [r for r in rows[name] if r["split"] == "held"]
            summary = score(evalkit, dataset, part, short, setting)
            summary.pop("per_question", None)
            held[f"{label} {name}"] = summary
            print(f"### untouched part, {label} setting, {name}\n")
            print(evalkit.format_table(summary))
            print(f"turns@10: {summary['overall']['turns@10']:.1f}\n")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "fusion_grid.json").write_text(json.dumps(
        {"grid": [{"mean_tune_all@10": m, **s, "tune": f} for m, s, f in table],
         "chosen": best, "shipped": shipped, "held": held}, indent=1))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
