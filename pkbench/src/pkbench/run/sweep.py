"""Sweeps: one scenario run per value of one numeric parameter (`--clients 1,4,16,64`, `--set rows=a,b,c`).

Each grid point is an ordinary run (the runner's execute) into a subdirectory of the sweep's directory, named
after the parameter and its value. After each point the sweep rewrites sweep.json (the grid and where each
point's results are), sweep.csv and sweep.md (TPS and latency p99 per strategy and workload against the
swept value, read through the metric registry: summary/sweep.py) and sweep.html with the same figures
drawn (report/sweep_page.py). Every point is planned before the first one starts, so a bad value is refused
before anything runs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from pkbench import results
from pkbench.errors import PkbenchError
from pkbench.reporting import Reporter
from pkbench.run import parameters as parameters_module
from pkbench.run.options import PKBENCH_CONNECTIONS, Options, Outcome, plan
from pkbench.run.parameters import OPTION_OF
from pkbench.scenario import file as scenario_module
from pkbench.summary import contention, fleet
from pkbench.summary import sweep as sweep_figures
from pkbench.summary.sweep import Number


@dataclass(frozen=True)
class Sweep:
    """The parameter swept and its values, in the order given."""

    parameter: str
    values: tuple[Number, ...]

    @property
    def option(self) -> str:
        return OPTION_OF.get(self.parameter, f"--set {self.parameter}")

    def directory_name(self, value: Number) -> str:
        return f"{self.parameter}-{value:g}" if isinstance(value, float) else f"{self.parameter}-{value}"


def numbers(text: str) -> tuple[Number, ...] | None:
    """The values of a comma-separated list of two or more numbers; None when TEXT is not one."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) < 2:
        return None
    values: list[Number] = []
    for part in parts:
        try:
            values.append(int(part))
        except ValueError:
            try:
                values.append(float(part))
            except ValueError:
                return None
    return tuple(values)


def split(clients: str | None, overrides: Sequence[str]) -> tuple[int | None, list[str], Sweep | None]:
    """--clients and --set as given on the command line: the single client count, the --set assignments
    that are not swept, and the sweep (None when nothing is swept). More than one sweep is refused."""
    sweeps: list[Sweep] = []
    single: int | None = None
    if clients is not None:
        values = numbers(clients)
        if values is not None:
            sweeps.append(Sweep("clients", values))
        else:
            try:
                single = int(clients)
            except ValueError:
                raise PkbenchError(
                    f"--clients {clients!r}: a number, or numbers separated by commas"
                ) from None
    kept: list[str] = []
    for assignment in overrides:
        key, sign, text = assignment.partition("=")
        values = numbers(text) if sign else None
        if values is None:
            kept.append(assignment)
            continue
        name = key.strip().removeprefix("parameters.")
        if "." in name:
            raise PkbenchError(f"--set {key.strip()}: only scenario parameters can be swept")
        sweeps.append(Sweep(name, values))
    if len(sweeps) > 1:
        raise PkbenchError(
            f"sweep one parameter at a time (got {', '.join(s.option for s in sweeps)}); "
            "run one sweep per parameter"
        )
    sweep = sweeps[0] if sweeps else None
    if sweep is not None:
        _check(sweep)
    if single is not None and single < 1:
        raise PkbenchError(f"--clients: must be at least 1 (got {single})")
    return single, kept, sweep


# PostgreSQL's defaults, where a scenario's settings do not give them.
_DEFAULT_MAX_CONNECTIONS = 100
_DEFAULT_RESERVED_CONNECTIONS = 3


def scenario_default(options: Options) -> Sweep | None:
    """The sweep the scenario makes when the command line sets none of its parameter (its `sweep`, counted in
    this machine's cores); on the embedded server the client counts are capped at the connections its
    settings allow beside pkbench's own. None when the scenario has no sweep."""
    loaded = scenario_module.load(options.scenario).at_scale(options.scale)
    if loaded.sweep is None:
        return None
    parameter, values = loaded.sweep
    set_parameters, set_settings = parameters_module.from_set(options.overrides)
    if options.parameters.get(parameter) is not None or parameter in set_parameters:
        return None
    if parameter == "clients" and options.dsn is None:
        settings = {**loaded.settings, **set_settings}
        ceiling = (
            int(settings.get("max_connections", _DEFAULT_MAX_CONNECTIONS))
            - int(settings.get("superuser_reserved_connections", _DEFAULT_RESERVED_CONNECTIONS))
            - PKBENCH_CONNECTIONS
        )
        values = tuple(min(value, max(1, ceiling)) for value in values)
    sweep = Sweep(parameter, tuple(dict.fromkeys(values)))
    _check(sweep)
    return sweep


def _check(sweep: Sweep) -> None:
    if len(set(sweep.values)) != len(sweep.values):
        raise PkbenchError(f"{sweep.option}: a value is listed twice")
    if sweep.parameter in ("clients", "jobs", "duration_s") and any(
        not isinstance(v, int) or v < 1 for v in sweep.values
    ):
        raise PkbenchError(f"{sweep.option}: every value must be a whole number of at least 1")


@dataclass(frozen=True)
class Recorded:
    """What a sweep's directory recorded of it: the command that started it and its grid."""

    command: list[str]
    sweep: Sweep


def recorded(directory: Path) -> Recorded | None:
    """The sweep DIRECTORY holds, from its sweep.json; None when it holds no sweep."""
    path = directory / "sweep.json"
    if not path.is_file():
        return None
    try:
        document = json.loads(path.read_text())
        return Recorded(
            [str(word) for word in document["command"]],
            Sweep(str(document["parameter"]), tuple(document["values"])),
        )
    except (OSError, ValueError, TypeError, KeyError) as error:
        raise PkbenchError(f"{path}: not a sweep pkbench wrote ({error!r})") from None


@dataclass
class SweepOutcome:
    out_dir: Path
    sweep: Sweep
    points: list[tuple[Number, Outcome]] = field(default_factory=list)


def point_options(options: Options, sweep: Sweep, value: Number, out_dir: Path) -> Options:
    return replace(
        options,
        out=out_dir / sweep.directory_name(value),
        parameters={**options.parameters, sweep.parameter: value},
    )


def execute(
    options: Options,
    sweep: Sweep,
    run_point: Callable[[Options, Reporter], Outcome],
    reporter: Reporter,
    *,
    resume: bool = False,
) -> SweepOutcome:
    """Run the scenario once per value of the sweep, each into its own subdirectory, by RUN_POINT (the
    runner's execute). RESUME: continue the interrupted sweep in --out, point by point: a point that
    completed is kept as it is, the interrupted one goes on from its last completed round, the rest run."""
    out_dir = options.out or Path(f"pkbench-sweep-{datetime.now().strftime('%Y%m%d-%H%M%S')}")
    if out_dir.exists() and not resume:
        raise PkbenchError(f"output directory {out_dir} exists; pick another with --out")
    steps = [(value, _point_step(options, sweep, value, out_dir, resume)) for value in sweep.values]
    if resume and all(isinstance(step, Outcome) for _, step in steps):
        raise PkbenchError(
            f"--resume {out_dir}: every point of that sweep is complete; there is nothing to resume"
        )
    out_dir.mkdir(parents=True, exist_ok=resume)
    # The points that completed before stay listed while the others run again.
    outcome = SweepOutcome(
        out_dir, sweep, [(value, step) for value, step in steps if isinstance(step, Outcome)]
    )
    # sweep.json from the start: a sweep stopped in its first point is one --resume recognises.
    write_document(outcome, list(options.command))
    for number, (value, step) in enumerate(steps, 1):
        heading = f"sweep {number}/{len(sweep.values)}: {sweep.parameter} = {value}"
        if isinstance(step, Outcome):
            reporter.info(f"{heading}: complete already, kept")
            continue
        reporter.info(heading + (" (resumed from its last completed round)" if step.resume else ""))
        outcome.points.append((value, run_point(step, reporter)))
        outcome.points.sort(key=lambda point: sweep.values.index(point[0]))
        write(outcome, list(options.command), report=options.report)
    return outcome


def _point_step(
    options: Options, sweep: Sweep, value: Number, out_dir: Path, resume: bool
) -> Outcome | Options:
    """The point's options, planned (a bad value is refused before anything runs); on a resumed sweep, the
    point as it completed, or its options resuming it where it was interrupted."""
    point = point_options(options, sweep, value, out_dir)
    directory = out_dir / sweep.directory_name(value)
    if resume and (directory / "results.json").is_file():
        found = results.load(directory)
        if not found.incomplete:
            return Outcome(directory, found)
        point = replace(point, resume=directory)
    elif resume and directory.is_dir() and not any(directory.iterdir()):
        # Stopped before its server started: nothing was measured there.
        directory.rmdir()
    try:
        plan(point)
    except PkbenchError as e:
        raise PkbenchError(f"{sweep.option} {value}: {e}") from e
    return point


def write_document(outcome: SweepOutcome, command: list[str]) -> dict[str, object]:
    """sweep.json: the command, the grid, and the points run so far."""
    sweep = outcome.sweep
    document: dict[str, object] = {
        "schema_version": results.SCHEMA_VERSION,
        "command": command,
        "parameter": sweep.parameter,
        "values": list(sweep.values),
        "points": [{"value": value, "directory": sweep.directory_name(value)} for value, _ in outcome.points],
    }
    (outcome.out_dir / "sweep.json").write_text(json.dumps(document, indent=2) + "\n")
    return document


def write(outcome: SweepOutcome, command: list[str], *, report: bool = True) -> None:
    """sweep.json, and the sweep's figures from every point run so far."""
    sweep = outcome.sweep
    document = write_document(outcome, command)
    found = sweep_figures.rows(outcome.out_dir, document)
    sweep_figures.write_csv(outcome.out_dir / "sweep.csv", sweep.parameter, found)
    text = sweep_figures.markdown(sweep.parameter, sweep.option, found)
    waited = contention.section(sweep.parameter, outcome.out_dir, document)
    waited += fleet.section(sweep.parameter, outcome.out_dir, document)
    (outcome.out_dir / "sweep.md").write_text(text + "".join(line + "\n" for line in waited))
    if report:
        # plotly only when a page is drawn: --no-report runs where it is not installed.
        from pkbench.report import sweep_page

        sweep_page.draw(outcome.out_dir, document)
