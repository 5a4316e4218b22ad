"""The UUIDv7 implementations the harness runs: what each is, where it comes from, how to run its program."""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

import sequuid

# The harness runs from the repository (pip install -e sequuid-py/conformance): the programs, the runs and the
# port it loads lie beside its source, not in what pip installs.
HARNESS = Path(__file__).resolve().parents[2]
PROGRAMS = HARNESS / "programs"
REPOSITORY = HARNESS.parent.parent
# the Python libraries' pins: the harness installs them from here, and a run checks them against it
PYTHON_CONSTRAINTS = HARNESS / "constraints.txt"


@dataclass(frozen=True)
class Implementation:
    key: str
    """language/name, unique"""
    language: str
    package: str
    """as its registry names it"""
    registry: str
    pinned: str
    """the version the setup installs (go.mod, Cargo.lock, package.json, pom.xml, pyproject.toml)"""
    call: str
    reads_fraction: bool
    """whether its 12 bits after the millisecond are PostgreSQL 18's fraction of the millisecond"""
    toolchain: str
    """the executable it needs; its absence skips it"""
    program: tuple[str, ...] = ()
    """argv before MODE ...; empty for the PostgreSQL ones"""
    built: str | None = None
    """a file the setup makes, relative to PROGRAMS, without which it was not set up"""
    known_issues: dict[str, str] = field(default_factory=dict)
    """check -> the public issue (or documented behaviour) that explains a failure"""
    isolated_threads: bool = False
    """whether its threads each have a generator of their own (Node's worker threads, PostgreSQL's backends)
    rather than share one (Python's, Go's, Rust's and Java's threads)"""

    @property
    def threads_check(self) -> str:
        return "threads_isolated" if self.isolated_threads else "threads_shared"


def python_pins(constraints: Path = PYTHON_CONSTRAINTS) -> dict[str, str]:
    """distribution -> the version constraints.txt pins (lines ``name==version``)."""
    pins = {}
    for line in constraints.read_text(encoding="utf-8").splitlines():
        requirement = line.split("#", 1)[0].strip()
        if requirement:
            name, separator, version = requirement.partition("==")
            if not separator:
                raise ValueError(f"{constraints}: {requirement!r} does not pin one version (name==version)")
            pins[name.strip()] = version.strip()
    return pins


_PINS = python_pins()


# documented behaviour, not a fault: PostgreSQL 18's rule, which sequuid keeps
_V7_STEP = {
    "ahead": "PostgreSQL 18's rule: each id at least 245 ns after the one before, so past 4,096 ids per ms "
    "its time runs ahead of the clock"
}


def _python(name: str) -> tuple[str, ...]:
    return (sys.executable, "-m", "sequuid_conformance.python_program", name)


def _java(name: str) -> tuple[str, ...]:
    classpath = f"{PROGRAMS / 'java/target/classes'}:{PROGRAMS / 'java/target/dependency'}/*"
    return ("java", "-cp", classpath, "conformance.Main", name)


IMPLEMENTATIONS = [
    Implementation(
        "python/uuid6",
        "Python",
        "uuid6",
        "PyPI",
        _PINS["uuid6"],
        "uuid6.uuid7()",
        False,
        "python3",
        _python("uuid6"),
        known_issues={"ahead": "uuid6-python#198"},
    ),
    Implementation(
        "python/uuid-utils",
        "Python",
        "uuid-utils",
        "PyPI",
        _PINS["uuid-utils"],
        "uuid_utils.uuid7()",
        False,
        "python3",
        _python("uuid-utils"),
    ),
    Implementation(
        "node/uuid",
        "JavaScript",
        "uuid",
        "npm",
        "11.1.0",
        "v7()",
        False,
        "node",
        ("node", str(PROGRAMS / "node/main.mjs"), "uuid"),
        built="node/node_modules/uuid/package.json",
        isolated_threads=True,
    ),
    Implementation(
        "node/crypto",
        "JavaScript",
        "node:crypto",
        "built in",
        "node",
        "crypto.randomUUIDv7()",
        False,
        "node",
        ("node", str(PROGRAMS / "node/main.mjs"), "crypto.randomUUIDv7"),
        known_issues={"order": "random bits after the millisecond, documented as not monotonic"},
        isolated_threads=True,
    ),
    Implementation(
        "go/google-uuid",
        "Go",
        "github.com/google/uuid",
        "Go module proxy",
        "v1.6.0",
        "uuid.NewV7()",
        False,
        "go",
        (str(PROGRAMS / "go/bin/conformance"), "google/uuid"),
        built="go/bin/conformance",
    ),
    Implementation(
        "go/gofrs-uuid",
        "Go",
        "github.com/gofrs/uuid/v5",
        "Go module proxy",
        "v5.4.0",
        "uuid.NewV7()",
        False,
        "go",
        (str(PROGRAMS / "go/bin/conformance"), "gofrs/uuid"),
        built="go/bin/conformance",
        known_issues={
            "order": "gofrs/uuid#253",
            "past_4096_per_ms": "gofrs/uuid#253",
            "threads_shared": "gofrs/uuid#253",
        },
    ),
    Implementation(
        "rust/uuid",
        "Rust",
        "uuid",
        "crates.io",
        "1.29.3",
        "Uuid::now_v7()",
        False,
        "cargo",
        (str(PROGRAMS / "rust/target/release/sequuid-conformance"), "uuid"),
        built="rust/target/release/sequuid-conformance",
    ),
    Implementation(
        "java/uuid-creator",
        "Java",
        "com.github.f4b6a3:uuid-creator",
        "Maven Central",
        "6.1.1",
        "UuidCreator.getTimeOrderedEpoch()",
        False,
        "java",
        _java("uuid-creator"),
        built="java/target/dependency/uuid-creator-6.1.1.jar",
    ),
    Implementation(
        "java/java-uuid-generator",
        "Java",
        "com.fasterxml.uuid:java-uuid-generator",
        "Maven Central",
        "5.1.0",
        "Generators.timeBasedEpochGenerator().generate()",
        False,
        "java",
        _java("java-uuid-generator"),
        built="java/target/dependency/java-uuid-generator-5.1.0.jar",
    ),
    Implementation(
        "sequuid/python",
        "Python",
        "sequuid",
        "this repository",
        sequuid.__version__,
        "sequuid.uuid7()",
        True,
        "python3",
        _python("sequuid"),
        known_issues=_V7_STEP,
    ),
    Implementation(
        "sequuid/c",
        "C (PostgreSQL)",
        "sequuid",
        "this repository",
        "extension",
        "uuid_generate_v7()",
        True,
        "postgres",
        known_issues=_V7_STEP,
        isolated_threads=True,
    ),
    Implementation(
        "sequuid/plpgsql",
        "PL/pgSQL",
        "sequuid",
        "this repository",
        "port",
        "uuid_generate_v7()",
        True,
        "postgres",
        known_issues=_V7_STEP,
        isolated_threads=True,
    ),
]

BY_KEY = {implementation.key: implementation for implementation in IMPLEMENTATIONS}


def toolchain_present(name: str) -> bool:
    if name in ("python3", "postgres"):
        return True
    return shutil.which(name) is not None
