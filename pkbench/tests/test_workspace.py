"""Two runs on one server: each in its own locked schema, neither pulling the other's extensions away."""

from __future__ import annotations

import pytest

from pkbench.errors import PkbenchError
from pkbench.server.builds import find_pgbench, find_server_bindir
from pkbench.server.embedded import EmbeddedCluster
from pkbench.server.workspace import Workspace, default_schema_name


def test_schemas_are_locked_and_extensions_stay_while_another_run_works() -> None:
    cluster = EmbeddedCluster(find_server_bindir(None), find_pgbench(None), {"shared_buffers": "16MB"})
    with cluster:
        names = {default_schema_name() for _ in range(20)}
        assert len(names) == 20
        second = Workspace(cluster.connection, "run_two", drop_on_exit=True)
        with second:
            with pytest.raises(PkbenchError, match=r"^schema 'run_two' is in use by another pkbench run"):
                Workspace(cluster.connection, "run_two", drop_on_exit=True).__enter__()
            with Workspace(cluster.connection, "run_one", drop_on_exit=True) as first:
                assert first.ensure_extension("uuid-ossp") is None
                assert first.created_extensions == ["uuid-ossp"]
            with cluster.connection.connect() as conn:
                row = conn.execute("SELECT count(*) FROM pg_extension WHERE extname = 'uuid-ossp'").fetchone()
                assert row == (1,), "the first run dropped an extension the second may be using"
                schemas = conn.execute(
                    "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'run_%'"
                ).fetchall()
                assert schemas == [("run_two",)]
        # Released with the run: the schema can be taken again.
        with Workspace(cluster.connection, "run_two", drop_on_exit=True):
            pass
