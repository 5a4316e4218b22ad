"""`pkbench run --calibrate N`: A/A verdicts summed up (pure), and a tiny calibration run end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import cli_in_process, run_cli, short_run

from pkbench.analysis.calibration import run_spread, summed
from pkbench.analysis.judge import Paired
from pkbench.analysis.metrics import LOAD_METRIC, WORKLOAD_METRICS
from pkbench.results import Verdict


def verdict(resolved: bool, half_width: float | None, familywise: bool = False) -> Verdict:
    low, high = (1.02, 1.10) if resolved else (0.95, 1.05)
    words = "resolved" if resolved else "no difference resolved"
    return Verdict(
        "w", "latency-mean", "bigint-copy", "bigint", 1.0, low, high, 0.95, "bootstrap", 8, resolved,
        None, words, None, half_width, None, familywise,
    )  # fmt: skip


def test_a_run_is_a_false_positive_when_its_verdicts_taken_together_resolve_a_difference() -> None:
    runs = [
        [verdict(False, 0.04), verdict(True, 0.03)],
        [verdict(False, 0.05), verdict(False, None)],
        [verdict(True, 0.02, familywise=True)],
    ]
    found = summed("interleaved", runs)
    assert (found.runs, found.false_positives, found.any_verdict) == (3, 1, 2)
    assert (found.verdicts_resolved, found.verdicts) == (2, 5)
    assert found.false_positive_rate == pytest.approx(1 / 3)
    assert found.median_half_width == 0.035  # of the four intervals there are
    assert found.words().startswith(
        "interleaved: 1 of 3 A/A runs resolved a difference taken together at 5% familywise (33% false "
        "positives, 95% interval 6%-79%)"
    )
    assert found.words().endswith("Verdict by verdict, 2 of 5 resolved a difference, in 2 of the 3 runs")


def aa_runs(run_offsets: list[float], noise: float, rounds: int = 5) -> list[list[Paired]]:
    """A/A runs of one figure: in run i every round's ratio is exp(offset_i + noise * z), z fixed per round
    (seeded), and the load's parts identical in every run."""
    import numpy as np

    wal = next(m for m in WORKLOAD_METRICS if m.key == "wal")
    draws = np.random.default_rng(7).standard_normal((len(run_offsets), rounds))
    runs = []
    for offset, z in zip(run_offsets, draws, strict=True):
        mine = tuple(float(np.exp(offset + noise * d)) for d in z)
        runs.append(
            [
                Paired("copy", "prefill", LOAD_METRIC, (1.0, 2.0), (1.0, 2.0)),
                Paired("copy", "lookup", wal, mine, (1.0,) * rounds),
            ]
        )
    return runs


def test_runs_that_differ_beyond_their_rounds_are_told_apart_from_rounds_alone() -> None:
    import numpy as np

    # Twenty runs whose offsets spread by 3% while their rounds spread by 1%: the runs differ.
    offsets = list(np.random.default_rng(3).normal(0.0, 0.03, 20))
    (spread,) = run_spread(aa_runs(offsets, noise=0.01))
    assert (spread.workload, spread.metric, spread.runs) == ("lookup", "wal", 20)
    assert spread.holds and spread.f_statistic > 10 and spread.p_value < 0.001
    assert spread.between_sd == pytest.approx(np.std(offsets, ddof=1), rel=0.2)
    assert spread.within_sd == pytest.approx(0.01, rel=0.3)
    # The same rounds with every run alike: the rounds account for the runs' spread.
    (alike,) = run_spread(aa_runs([0.0] * 20, noise=0.01))
    assert not alike.holds and alike.p_value > 0.05 and alike.between_sd < 0.005


def test_calibrate_refuses_resume() -> None:
    result = cli_in_process("run", "--calibrate", "2", "--resume", "somewhere")
    assert result.returncode != 0 and result.stderr.count("\n") == 1


def test_a_tiny_calibration(tmp_path: Path, server_tmpdir: Path) -> None:
    out = tmp_path / "aa"
    result = run_cli(
        "run",
        "war",
        "--calibrate",
        "2",
        "--interleave",
        *short_run(strategies="bigint,uuid-v4", rows=200, clients=2, rounds=2, out=out, design=None),
        tmpdir=server_tmpdir,
    )
    assert result.returncode == 0, result.stderr
    for number in (1, 2):
        written = json.loads((out / f"aa-{number}" / "results.json").read_text())
        # The baseline against its copy only, whatever else --strategies named.
        assert [s["name"] for s in written["strategies"]] == ["bigint", "bigint-copy"]
        assert written["rounds"]["design"] == "interleaved"
        assert {v["strategy"] for v in written["verdicts"]} == {"bigint-copy"}
    document = (out / "calibration.md").read_text().splitlines()
    words = document[2]
    assert "interleaved: " in words and " of 2 A/A runs resolved a difference" in words
    assert words in result.stdout
    # The figures one by one: each window's latency mean judged in both A/A runs.
    for window in ("lookup-by-data", "lookup-by-key"):
        assert any(line.startswith(f"| {window} | latency mean | 2 | ") for line in document), document
    assert f"--out {out.name} --no-report`: 2 A/A runs of bigint against bigint-copy" in "\n".join(document)
