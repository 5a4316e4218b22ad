"""Versions and counts the hand-written prose states, checked against what the tree records (evidence.prose
runs these beside its own checks):

- sequuid's version, where a sentence says what it is now ("upgrades to 1.4", "the current version is 1.5"):
  the `default_version` of sequuid/sequuid.control.
- The count of sequuid's test schedules ("pg_regress schedules for three configurations"): the
  sequuid/test/schedule-* files.
- A count of rounds with their design ("seven paired rounds"): one that a run the same page's generated blocks
  quote recorded.
- A range of PostgreSQL versions ("PostgreSQL 15 to 19"): within the versions install.md's table says are
  tested.
- A table of the harness's folders (its header `| folder | job |`): every package under pkbench/src/pkbench,
  and no other.
- A pointer a reader cannot follow: "the two commands above" with fewer commands above, "(above)" in a table
  row, "in the README" on a docs page with no link to the part meant, "the README's which-key table" where
  no section of that name in the nearest README holds a table.
- A cost per call in nanoseconds ("about 40 ns a call", "55 ns of server CPU per key"): never typed, since the
  committed benchmark it comes from changes; a generated block quotes it.

Unlike evidence.prose's checks, these also read fenced blocks that are not code (a folder listing states what
the tree holds as much as a sentence does); generated blocks are still left alone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cached_property, lru_cache
from pathlib import Path

CONTROL = Path("sequuid/sequuid.control")
SCHEDULES = Path("sequuid/test")
INSTALL = Path("pkbench/docs/install.md")
PACKAGE = Path("pkbench/src/pkbench")
FOLDER_TABLE = re.compile(r"^\| folder \| job \|\n\|[-|]+\|\n(?P<rows>(?:\|[^\n]*\n)*)", re.M)
FOLDER_ROW = re.compile(r"^\| `(?P<name>[\w.-]+)/` \|", re.M)

GENERATED = re.compile(r"^<!-- generated: .*?^<!-- end generated: [a-z0-9-]+ -->", re.S | re.M)
BLOCK_SOURCE = re.compile(r"^<!-- generated: [a-z0-9-]+ from (?P<source>[^\s,]+)", re.M)
# Fenced blocks whose language says they are code: their words are not claims.
CODE_FENCE = re.compile(r"^```(?:sh|bash|sql|toml|python|py|json|console|c|text|diff)\n.*?^```", re.S | re.M)

CURRENT_VERSION = re.compile(
    r"\b(?:upgrades? to|current version is|is now at version|latest version is)\s+(?:sequuid\s+)?"
    r"(?P<version>\d+\.\d+)\b",
    re.I,
)
SCHEDULE_COUNT = re.compile(
    r"\b(?P<count>\w+) (?:test |pg_regress )?(?:schedules|configurations)\b"
    r"|\bschedules for (?P<for>\w+) configurations\b",
    re.I,
)
ROUNDS = re.compile(
    r"\b(?P<count>\w+)\s+(?:\[)?(?P<design>paired|mixed|interleaved)(?:\]\([^)]*\))?\s+rounds\b", re.I
)
VERSION_RANGE = re.compile(r"\bPostgreSQL (?P<low>\d{2}) ?(?:to|-|\u2013) ?(?P<high>\d{2})\b")
TESTED_VERSIONS = re.compile(r"^\|[^\n]*?PostgreSQL (\d{2})[^\n]*$", re.M)
COMMANDS_ABOVE = re.compile(r"\bthe (?P<count>\w+) commands above\b", re.I)
SHELL_FENCE = re.compile(r"^```(?:sh|bash|console)\n(?P<body>.*?)^```", re.S | re.M)
UNLINKED_README = re.compile(r"\b(?:in|see) the README\b(?!\]\()", re.I)
README_TABLE = re.compile(r"\bthe README's (?P<name>[\w-]+) table\b", re.I)
PER_CALL_NS = re.compile(
    r"\b(?P<figure>\d[\d,.]*) ?ns(?:/call\b|\b(?= (?:a call|per call|a key|per key"
    r"|of (?:server |the backend's )?CPU)))",
    re.I,
)
NUMBERS = {
    "no": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip


def _count(word: str) -> int | None:
    return int(word) if word.isdigit() else NUMBERS.get(word.lower())


def _blank(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match[0])


def lines(text: str) -> Iterator[tuple[int, str]]:
    """TEXT's paragraphs, table rows and fenced blocks (not code, not generated) as (first line, words on one
    line); headings are none of them."""
    kept = CODE_FENCE.sub(_blank, GENERATED.sub(_blank, text))
    start, paragraph = 0, list[str]()
    for number, line in enumerate([*kept.split("\n"), ""], start=1):
        if line.startswith("|"):
            if paragraph:
                yield start, " ".join(paragraph)
                paragraph = []
            yield number, line.strip()
        elif line.strip() and not line.startswith(("```", "#")):
            if not paragraph:
                start = number
            paragraph.append(line.strip())
        elif paragraph:
            yield start, " ".join(paragraph)
            paragraph = []


class Recorded:
    """What the tree under ROOT records that the prose may state, read when first asked."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._rounds: dict[str, frozenset[tuple[int, str]]] = {}

    @cached_property
    def sequuid_version(self) -> str | None:
        path = self.root / CONTROL
        found = re.search(r"default_version\s*=\s*'([^']+)'", path.read_text()) if path.is_file() else None
        return found[1] if found else None

    @cached_property
    def schedules(self) -> int:
        return len(list((self.root / SCHEDULES).glob("schedule-*")))

    @cached_property
    def tested(self) -> frozenset[int]:
        """The major versions install.md's table of tested versions names."""
        path = self.root / INSTALL
        return (
            frozenset(int(v) for v in TESTED_VERSIONS.findall(path.read_text()))
            if path.is_file()
            else frozenset()
        )

    @cached_property
    def packages(self) -> frozenset[str]:
        """The harness's folders: the packages directly under pkbench/src/pkbench."""
        root = self.root / PACKAGE
        found = root.glob("*/__init__.py") if root.is_dir() else iter(())
        return frozenset(p.parent.name for p in found)

    def readme_tables(self, path: Path) -> frozenset[str]:
        """The headings of the sections of the README at PATH that hold a table, in lower case."""
        text = path.read_text() if path.is_file() else ""
        sections = re.split(r"^## ", text, flags=re.M)[1:]
        return frozenset(s.split("\n", 1)[0].strip().lower() for s in sections if re.search(r"^\|", s, re.M))

    def rounds(self, source: str) -> frozenset[tuple[int, str]]:
        """(count, design) of every run under SOURCE (a committed run or a folder of them)."""
        if source not in self._rounds:
            found: set[tuple[int, str]] = set()
            directory = self.root / source
            if directory.is_dir():
                for results in directory.rglob("results.json"):
                    stat = results.stat()
                    recorded_rounds = _recorded_rounds(str(results), stat.st_mtime_ns, stat.st_size)
                    if recorded_rounds is not None:
                        found.add(recorded_rounds)
            self._rounds[source] = frozenset(found)
        return self._rounds[source]


# Every document quoting a folder of runs reads each run's rounds: parsed once a file (while it is unchanged)
# rather than once a check, where parsing the runs' JSON was a quarter of `pkbench docs --check`.
@lru_cache(maxsize=1024)
def _recorded_rounds(path: str, mtime_ns: int, size: int) -> tuple[int, str] | None:
    rounds = json.loads(Path(path).read_text()).get("rounds") or {}
    if isinstance(rounds.get("count"), int):
        return rounds["count"], str(rounds.get("design", "paired"))
    return None


def _folder_tables(recorded: Recorded, text: str) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for table in FOLDER_TABLE.finditer(text):
        named = {m["name"] for m in FOLDER_ROW.finditer(table["rows"])}
        line = text.count("\n", 0, table.start()) + 1
        if recorded.packages and named != recorded.packages:
            missing, extra = sorted(recorded.packages - named), sorted(named - recorded.packages)
            said = "; ".join(
                part
                for part in (
                    f"leaves out {', '.join(missing)}" if missing else "",
                    f"names {', '.join(extra)}, not a package there" if extra else "",
                )
                if part
            )
            found.append((line, f"the table of folders {said} (pkbench/src/pkbench)"))
    return found


def _pointers(recorded: Recorded, line: int, words: str, text: str, readme: Path | None) -> list[str]:
    """What in WORDS points at something a reader cannot find."""
    found = []
    if words.startswith("|") and "(above)" in words:
        found.append("says (above) in a table row, which points at no part of the page")
    for match in COMMANDS_ABOVE.finditer(words):
        before = "\n".join(text.split("\n")[: line - 1])
        commands = sum(
            1
            for f in SHELL_FENCE.finditer(before)
            for c in f["body"].splitlines()
            if c.strip() and c[0] != "#"
        )
        said = _count(match["count"])
        if said is not None and commands < said:
            found.append(f"says the {match['count']} commands above; {commands} are above it")
    if readme is not None and UNLINKED_README.search(words):
        found.append("says in the README without a link to the part meant")
    for match in README_TABLE.finditer(words):
        name = match["name"].replace("-", " ").lower()
        tables = recorded.readme_tables(readme) if readme is not None else frozenset()
        if not any(name in heading for heading in tables):
            where = readme.relative_to(recorded.root) if readme is not None else "no README"
            found.append(
                f"says the README's {match['name']} table; no section of that name in {where} has one"
            )
    return found


def check_text(recorded: Recorded, text: str, readme: Path | None = None) -> list[tuple[int, str]]:
    """(line, what it states that the tree contradicts) for TEXT's versions and counts; README: where TEXT is
    a page under a docs/ folder, the README its words "the README" mean (the nearest above it)."""
    found = _folder_tables(recorded, text)
    for line, words in lines(text):
        found += [(line, why) for why in _pointers(recorded, line, words, text, readme)]
    quoted = [m["source"] for m in BLOCK_SOURCE.finditer(text)]
    for line, words in lines(text):
        for match in CURRENT_VERSION.finditer(words):
            if recorded.sequuid_version and match["version"] != recorded.sequuid_version:
                found.append(
                    (line, f"says sequuid is at {match['version']}; sequuid.control's default_version is "
                     f"{recorded.sequuid_version}")
                )  # fmt: skip
        schedules = SCHEDULE_COUNT.finditer(words) if re.search(r"schedule|pg_regress", words) else iter(())
        for match in schedules:
            said = _count(match["for"] or match["count"])
            if said is not None and said != recorded.schedules:
                found.append(
                    (line, f"says {said} test schedules; sequuid/test has {recorded.schedules} (schedule-*)")
                )
        for match in ROUNDS.finditer(words):
            said, design = _count(match["count"]), match["design"].lower()
            runs = frozenset().union(*(recorded.rounds(s) for s in quoted)) if quoted else frozenset()
            if said is not None and runs and (said, design) not in runs:
                recorded_rounds = ", ".join(f"{c} {d}" for c, d in sorted(runs))
                found.append(
                    (line, f"says {match['count']} {design} rounds; the runs this page quotes recorded "
                     f"{recorded_rounds}")
                )  # fmt: skip
        for match in VERSION_RANGE.finditer(words):
            low, high = int(match["low"]), int(match["high"])
            if recorded.tested and (low < min(recorded.tested) or high > max(recorded.tested)):
                found.append(
                    (line, f"says PostgreSQL {low} to {high}; install.md claims "
                     f"{min(recorded.tested)} to {max(recorded.tested)} only")
                )  # fmt: skip
        for match in PER_CALL_NS.finditer(words):
            found.append(
                (line, f"types a cost per call ({match['figure']} ns): quote it from the committed benchmark "
                 "in a generated block")
            )  # fmt: skip
    return found
