"""The markdown table of a committed run, for sequuid/docs/conformance.md."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sequuid_conformance.implementations import HARNESS, REPOSITORY

RUNS = HARNESS / "runs"
DOCUMENT = REPOSITORY / "sequuid" / "docs" / "conformance.md"

COLUMNS = [
    ("version_variant", "version 7, variant 10"),
    ("timestamp", "time at generation"),
    ("order", "strict order, one thread"),
    ("past_4096_per_ms", "past 4,096 ids in a ms"),
    ("threads_shared", "threads sharing a generator: each ordered, none repeated"),
    ("threads_isolated", "threads with isolated generators: each ordered, none repeated"),
    ("ahead", "time ahead of the clock after the burst"),
]


def newest_run(runs: Path = RUNS) -> Path:
    found = sorted(runs.glob("*.json"))
    if not found:
        raise FileNotFoundError(f"no run in {runs}: python -m sequuid_conformance run")
    return found[-1]


def _figure(name: str, check: dict[str, Any]) -> str:
    """The one figure a cell shows; the run's JSON has the rest."""
    if name == "timestamp":
        return f"{check['first_offset_us']:+,} us"
    if name == "past_4096_per_ms":
        if check["passed"] is None:
            return f"{check['ids_per_ms']:,.0f} ids/ms reached"
        return f"{check['most_ids_in_one_embedded_ms']:,} ids in one ms"
    if name == "ahead":
        ahead = check["ahead_us"]
        return f"{ahead:+,} us" if abs(ahead) < 10_000_000 else f"{ahead / 1e6:+,.1f} s"
    return ""


# an implementation's threads either share one generator or each have their own: it has one of these checks
_EITHER_THREADS_CHECK = {"threads_shared", "threads_isolated"}


def _cell(name: str, check: dict[str, Any] | None, issue: str | None) -> str:
    if check is None:
        return "—" if name in _EITHER_THREADS_CHECK else "not run"
    figure = _figure(name, check)
    if check["passed"] is None:
        return f"n/a ({figure})"
    if check["passed"]:
        return f"yes ({figure})" if figure else "yes"
    detail = str(check["detail"]).replace("|", "\\|")
    return f"**no**: {detail}" + (f" ({issue})" if issue else "")


def render(run: dict[str, Any], run_name: str) -> str:
    settings = run["settings"]
    machine = run["machine"]
    lines = [
        "# Conformance of UUIDv7 generators",
        "",
        "<!-- generated: conformance -->",
        f"Run `{run_name}` of {run['date'][:10]} on {machine['description']}: a burst of "
        f"{settings['burst']:,} ids in one thread, then {settings['threads']} threads of "
        f"{settings['per_thread']:,} ids each, per implementation. Written by "
        "`python -m sequuid_conformance table` from the committed run; below the table, what each check "
        "does.",
        "",
        "| implementation | language | version | toolchain | "
        + " | ".join(title for _, title in COLUMNS)
        + " |",
        "|---" * (4 + len(COLUMNS)) + "|",
    ]
    for result in run["implementations"]:
        issues = result.get("known_issues", {})
        cells = [
            f"`{result['package']}` `{result['call']}`",
            result["language"],
            f"{result['version']} ({result['registry']})",
            (result.get("toolchain") or "").split(" (")[0],
            *(_cell(name, result["checks"].get(name), issues.get(name)) for name, _ in COLUMNS),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    for skipped in run.get("skipped", []):
        lines.append(f"Skipped: {skipped['key']}: {skipped['reason']}.")
    if run.get("skipped"):
        lines.append("")
    lines.append("<!-- end generated: conformance -->")
    return "\n".join(lines) + "\n"


def document_text(run_path: Path, explanation: str) -> str:
    run = json.loads(run_path.read_text(encoding="utf-8"))
    return render(run, run_path.name) + "\n" + explanation


def write_or_check(
    explanation: str, check: bool, run_path: Path | None = None, document: Path = DOCUMENT
) -> int:
    expected = document_text(run_path or newest_run(), explanation)
    if check:
        if not document.exists() or document.read_text(encoding="utf-8") != expected:
            print(f"{document} is not what the committed run gives: python -m sequuid_conformance table")
            return 1
        return 0
    document.parent.mkdir(parents=True, exist_ok=True)
    document.write_text(expected, encoding="utf-8")
    print(f"wrote {document}")
    return 0
