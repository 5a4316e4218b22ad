"""`pkbench predict` as a user calls it: each key's line from the committed model, JSON that says the same,
and bad input as one line."""

from __future__ import annotations

import json

import pytest
from conftest import cli_in_process

SERVER = ("--shared-buffers", "8GB", "--memory", "64GB", "--insert-rate", "1000")


def test_each_key_gets_a_line_and_a_random_key_writes_more_wal_the_closer_its_checkpoints() -> None:
    found = cli_in_process("predict", "--rows", "100000000", *SERVER, "--checkpoint-timeout", "15min")
    assert found.returncode == 0, found.stderr
    lines = found.stdout.splitlines()
    assert [line.split()[0] for line in lines[1:4]] == ["bigint", "uuid-v7", "uuid-v4"]
    assert "x bigint's" in lines[3] and "a checkpoint every" in lines[3]

    def random_over_bigint(*args: str) -> float:
        done = cli_in_process("predict", "--rows", "100000000", *SERVER, "--format", "json", *args)
        assert done.returncode == 0, done.stderr
        keys = {k["key"]: k for k in json.loads(done.stdout)["keys"]}
        low, high = (
            keys["uuid-v4"]["wal_against_bigint"]["low"],
            keys["uuid-v4"]["wal_against_bigint"]["high"],
        )
        assert low < keys["uuid-v4"]["wal_against_bigint"]["value"] < high
        return float(keys["uuid-v4"]["wal_against_bigint"]["value"])

    near = random_over_bigint("--checkpoint-timeout", "1m", "--max-wal-size", "64GB")
    far = random_over_bigint("--checkpoint-timeout", "1h", "--max-wal-size", "64GB")
    assert near > far > 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--rows", "1000", "--shared-buffers", "1GB"), "give --insert-rate"),
        (
            ("--rows", "1000", "--index-size", "1GB", "--insert-rate", "5"),
            "give --rows or --index-size, not both",
        ),
        (("--insert-rate", "5"), "give --rows or --index-size"),
        (
            ("--rows", "1000", "--insert-rate", "5", "--key", "seq-seq-256"),
            "--key seq-seq-256: the model knows",
        ),
        (("--rows", "-3", "--insert-rate", "5"), "--rows '-3': must be a positive number"),
        (("--rows", "lots", "--insert-rate", "5"), "--rows 'lots': expected a number"),
        (("--rows", "1000", "--insert-rate", "5", "--table", "t"), "--table needs --dsn"),
        (
            ("--rows", "1000", "--insert-rate", "5", "--checkpoint-timeout", "soon"),
            "--checkpoint-timeout 'soon'",
        ),
        (("--rows", "1000", "--insert-rate", "5", "--max-wal-size", "big"), "--max-wal-size 'big'"),
    ],
)
def test_bad_input_is_one_line(args: tuple[str, ...], message: str) -> None:
    found = cli_in_process("predict", *args)
    assert found.returncode == 1 and found.stdout == ""
    assert found.stderr.count("\n") == 1 and message in found.stderr, found.stderr
