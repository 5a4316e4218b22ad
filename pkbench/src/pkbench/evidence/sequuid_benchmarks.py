"""sequuid's own benchmark figures, read from the raw output sequuid/BENCHMARKS.md keeps under each command
that made it: the cost of a call (`bench/run`, for the C library and the PL/pgSQL port) and the calls per
second at 1 and N clients, with the library preloaded and not (`bench/cores`). Pure text work."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pkbench.errors import PkbenchError
from pkbench.text import MISSING, markdown_table

TIMES = "\u00d7"


def _x(value: float | None) -> str:
    return MISSING if value is None else f"{value:.2f}{TIMES}"


# sequuid/BENCHMARKS.md keeps each run's raw output in a fenced block under the command that made it; the
# newest plain `bench/run` (no --preload, no --cases) is the one the READMEs quote.
RAW_RUN = re.compile(r"```\n\$ bash sequuid/bench/run\n(?P<body>.*?)```", re.S)
RAW_ROW = re.compile(r"^(?P<name>\S+)\s+(?P<ns>\d+)\s+(?P<ratio>\d+\.\d+)\s", re.M)


def benchmark_rows(text: str) -> list[tuple[str, int, float]]:
    """The function, ns per call and ratio to gen_random_uuid() of the newest plain run in BENCHMARKS.md."""
    found = RAW_RUN.search(text)
    if found is None:
        raise PkbenchError("no raw output of `bash sequuid/bench/run` found")
    return [(m["name"], int(m["ns"]), float(m["ratio"])) for m in RAW_ROW.finditer(found["body"])]


def per_call(path: Path) -> list[str]:
    """sequuid's C generators per call, from BENCHMARKS.md's newest raw output."""
    rows = [r for r in benchmark_rows(path.read_text()) if not r[0].startswith(("plpgsql_port.", "v"))]
    return markdown_table(
        ["function", "ns/call", f"{TIMES} gen_random_uuid()"],
        ([f"`{n}`" if "(" in n else f"`{n}()`", f"{ns:,}", f"{x:.3f}"] for n, ns, x in rows),
    )


def port_cost(path: Path) -> list[str]:
    """The PL/pgSQL port's generators per call, from the same raw output."""
    rows = [r for r in benchmark_rows(path.read_text()) if r[0].startswith("plpgsql_port.")]
    return markdown_table(
        ["port function", "ns/call", f"{TIMES} gen_random_uuid()"],
        ([name.removeprefix("plpgsql_port."), f"{ns:,}", f"{x:.2f}"] for name, ns, x in rows),
    )


def _ns(path: Path, *names: str) -> list[int]:
    """The ns per call of each of NAMES in BENCHMARKS.md's newest raw output; a row missing is an error."""
    ns = {name: value for name, value, _ in benchmark_rows(path.read_text())}
    missing = [name for name in names if name not in ns]
    if missing:
        raise PkbenchError(f"the newest `bash sequuid/bench/run` in {path.name} has no row {missing[0]!r}")
    return [ns[name] for name in names]


def public_ids(path: Path) -> list[str]:
    """The which-key answer where ids are shown to the public: store a v7, show its façade; what the mapping
    costs per call beside gen_random_uuid() (the benchmark's own reference), from BENCHMARKS.md's newest raw
    output (links from the repository's root, where the README shows it)."""
    random, to_public, to_v7 = _ns(path, "gen_random_uuid", "uuid_v7_to_public", "uuid_public_to_v7")
    return [
        "- ids shown to the public: store **uuid-v7** (its cells above) and show its façade, "
        "`uuid_v7_to_public(id, key)`, a v4-looking id that hides when the row was made and in what order "
        f"(sequuid 1.6, the port, sequuid-py): {to_public:,} ns a call, "
        f"{to_public / random:.2f}{TIMES} a `gen_random_uuid()`; "
        f"`uuid_public_to_v7`, the way back, {to_v7:,} ns "
        "([public ids](sequuid/docs/public-ids.md), [the run](sequuid/BENCHMARKS.md))."
    ]


def v7_cost(path: Path) -> list[str]:
    """What a key made in the server costs it, for the application side's comparison (sequuid-py's README):
    `uuid_generate_v7()` per call, C and the port, from BENCHMARKS.md's newest raw output."""
    c, port, random = _ns(path, "uuid_generate_v7", "plpgsql_port.v7", "gen_random_uuid")
    return [
        f"In the server, `uuid_generate_v7()` costs {c:,} ns of the backend's CPU a call in C, "
        f"{port:,} ns in the PL/pgSQL port ({c / random:.2f}{TIMES} and {port / random:.2f}{TIMES} "
        f"`gen_random_uuid()`, {random:,} ns), in sequuid's newest committed benchmark run "
        "([BENCHMARKS.md](../sequuid/BENCHMARKS.md))."
    ]


# The newest `bench/cores` run: its header line (clients, server, cores) and its table of calls per second.
RAW_CORES_RUN = re.compile(r"```\n\$ bash sequuid/bench/cores[^\n]*\n(?P<body>.*?)```", re.S)
CORES_HEADER = re.compile(
    r"^== sequuid generators on (?P<clients>\d+) clients: (?P<server>.+?), (?P<cores>\d+) cores", re.M
)
CORES_ROW = re.compile(
    r"^(?P<name>[a-z_0-9()N]+)\s+(?P<plain_1>[\d,]+)\s+(?P<plain_n>[\d,]+)\s+(?P<plain_scale>[\d.]+)"
    r"\s+(?P<preload_1>[\d,]+)\s+(?P<preload_n>[\d,]+)\s+(?P<preload_scale>[\d.]+)\s+(?P<kept>[\d.]+)$",
    re.M,
)
# The generators whose order the preloaded library keeps across backends through its one shared word.
SHARED_CLOCK = (
    "uuid_generate_v7",
    "uuid_generate_v6",
    "uuid_generate_v1_random_node",
    "uuid_generate_striped(N)",
)


@dataclass(frozen=True)
class CoresRow:
    """One generator's calls per second at 1 and N clients, plain and preloaded, from bench/cores."""

    name: str
    plain_1: int
    plain_n: int
    preload_1: int
    preload_n: int

    @property
    def kept(self) -> float:
        """The share of the plain rate at N clients that the preloaded library keeps."""
        return self.preload_n / self.plain_n


@dataclass(frozen=True)
class CoresRun:
    clients: int
    server: str
    cores: int
    rows: list[CoresRow]


def cores_run(text: str) -> CoresRun:
    """The newest raw output of `bash sequuid/bench/cores` in BENCHMARKS.md (pure)."""
    found = RAW_CORES_RUN.search(text)
    header = CORES_HEADER.search(found["body"]) if found else None
    if found is None or header is None:
        raise PkbenchError("no raw output of `bash sequuid/bench/cores` found")
    rows = [
        CoresRow(
            m["name"], *(int(m[k].replace(",", "")) for k in ("plain_1", "plain_n", "preload_1", "preload_n"))
        )
        for m in CORES_ROW.finditer(found["body"])
    ]
    if not rows:
        raise PkbenchError("the newest raw output of `bash sequuid/bench/cores` has no table")
    return CoresRun(int(header["clients"]), header["server"], int(header["cores"]), rows)


def _span(values: list[str]) -> str:
    """The lowest and highest of VALUES (formatted numbers) as a range, or the one value they all are."""
    ordered = sorted(values, key=float)
    return ordered[0] if ordered[0] == ordered[-1] else f"{ordered[0]}-{ordered[-1]}"


def on_many_cores(path: Path) -> list[str]:
    """Calls per second at 1 and N clients, plain and preloaded, how each scales, what the preload keeps at N
    clients, and which shared-clock generators keep less than half."""
    run = cores_run(path.read_text())
    n = run.clients
    body = [
        [
            f"`{r.name}`",
            f"{r.plain_1:,}",
            f"{r.plain_n:,}",
            _x(r.plain_n / r.plain_1),
            f"{r.preload_1:,}",
            f"{r.preload_n:,}",
            _x(r.preload_n / r.preload_1),
            f"{r.kept:.2f}",
        ]
        for r in run.rows
    ]
    header = ["generator", "plain, 1 client", f"plain, {n} clients", "scale", "preloaded, 1 client"]
    header += [f"preloaded, {n} clients", "scale", f"preloaded / plain at {n}"]
    costly = [r for r in run.rows if r.name in SHARED_CLOCK and r.kept < 0.5]
    verdict = f"Keeping order across backends costs at most half the plain rate at {n} clients."
    if costly:
        names = ", ".join(f"`{r.name}`" for r in costly)
        kept = _span([f"{r.kept:.2f}" for r in costly])
        every = _span([f"{1e9 / r.preload_n:.0f}" for r in costly])
        verdict = (
            f"Keeping order across backends costs more than half the plain rate at {n} clients for {names}: "
            f"preloaded, they keep {kept} of it, one value every {every} ns for the whole server."
        )
    return [
        f"{run.server}, {run.cores} cores; calls per second, 1,000 calls per transaction:",
        "",
        *markdown_table(header, body),
        "",
        verdict,
    ]
