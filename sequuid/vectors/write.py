"""sequuid/vectors/write.py: turn make.sql's output (lines of "family<TAB>json") into the vector files.

Called by vectors/make.  Numbers the tests of each file from 1, counts them, puts every object's keys in the
order README.md describes them and writes indented JSON with a final newline, so that the same answers always
give the same bytes.
"""

import json
import re
import sys
from pathlib import Path

HEADERS = {
    "v7": "UUIDv7 as PostgreSQL 18 lays it out (RFC 9562 section 5.7, with section 6.2 method 3): 48-bit Unix "
    "milliseconds, version 7, a 12-bit fraction of the millisecond, variant 10, 62 random bits.",
    "v6": "UUIDv1 and UUIDv6 (RFC 9562 sections 5.1 and 5.6): the same 60-bit Gregorian timestamp in 100 ns, least "
    "or most significant part first; clock_seq and node are kept by the conversions.",
    "ulid": "ULID text: the 128 bits in 26 digits of Crockford's base32, most significant first.",
    "sequential": "sequential-uuids 1.0.3's layouts as version 8 UUIDs: a block number from a sequence or the clock "
    "in the leading whole bytes, the rest random.",
    "striped": "The striped layout (version 8): a stripe number in the leading bits, then v7's time.",
    "extract": "What the extractors read out of a UUID: its time, version and variant.",
    "ranges": "The smallest keys of each time-ordered layout made at the ends of time ranges, and the limits of "
    "each layout's time range.",
    "base32hex": "Sort-preserving text of a uuid: RFC 4648 section 7's base32hex alphabet (0-9, A-V), 26 digits, "
    "no padding; the same as PostgreSQL 19's rtrim(encode(id::bytea, 'base32hex'), '='). Decoding takes that "
    "canonical text alone: upper case, no padding or whitespace, the two bits past the 128th zero.",
    "publicid": "Public ids: a v7 and its v4-looking façade under a 16-byte key, both ways. uuid_v7_to_public: "
    "the 60 bits of time and rand_a through a four-round Feistel network whose round function is the low 30 bits "
    "of SipHash-2-4 of rand_b (8 bytes, little-endian) and round << 30 | half (4 bytes, little-endian); rand_b "
    "kept; version 4 (docs/public-ids.md). uuid_v7_to_uuidv47: bit-compatible with UUIDv47 "
    "(stateless-me/uuidv47), the 48-bit time XORed with the low 48 bits of SipHash-2-4 of the 74 bits of rand_a "
    "and rand_b, version 4; its published cases' façades were also checked against its reference implementation "
    "(uuidv47.h at 81ba63f) when this file was made.",
}

GROUP_KEYS = ["function", "comment", "arguments", "outputType", "mask", "sql", "tests"]
TEST_KEYS = ["tcId", "comment", "flags", "input", "output", "output_unix_us", "mask", "result", "error"]


def ordered(obj: dict, keys: list[str]) -> dict:
    extra = sorted(set(obj) - set(keys))
    if extra:
        raise SystemExit(f"vectors/write.py: unexpected keys {extra}")
    return {key: obj[key] for key in keys if key in obj}


def extension_version() -> str:
    """The version the files come from: sequuid.control's default_version, the one vectors/make installs."""
    control = (Path(__file__).resolve().parents[1] / "sequuid.control").read_text(encoding="utf-8")
    match = re.search(r"^default_version = '([^']+)'$", control, re.MULTILINE)
    if match is None:
        raise SystemExit("vectors/write.py: no default_version in sequuid.control")
    return match.group(1)


def main() -> None:
    out_dir = Path(sys.argv[1])
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line:
            continue
        family, document = line.split("\t", 1)
        groups = json.loads(document)["testGroups"]
        tc_id = 0
        for i, group in enumerate(groups):
            tests = []
            for test in group["tests"]:
                tc_id += 1
                tests.append(ordered({"tcId": tc_id, **test}, TEST_KEYS))
            groups[i] = ordered({**group, "tests": tests}, GROUP_KEYS)
        doc = {
            "family": family,
            "schema": "schema.json",
            "generatedBy": f"sequuid {extension_version()}, C extension (vectors/make)",
            "header": [HEADERS[family]],
            "numberOfTests": tc_id,
            "testGroups": groups,
        }
        text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
        (out_dir / f"{family}.json").write_text(text, encoding="utf-8")
        print(f"vectors/make: {family}.json, {tc_id} tests")


if __name__ == "__main__":
    main()
