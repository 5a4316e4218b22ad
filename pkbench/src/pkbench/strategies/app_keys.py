"""Keys made by application servers, not by PostgreSQL: uuid v7 built per pgbench client, each client one
application server with a clock of its own, and sent to the server as the key column's value.

Where each part of a key comes from (docs/scenarios.md, "Fleet", says the same for readers):

- The time: pgbench's expression language has no clock, so the statement reads the server's
  clock_timestamp() once, in microseconds, and adds the client's offset, a pgbench variable the client sets
  from its :client_id. The offsets spread evenly over the scenario's `skew_ms`: client i of N is
  (2i - (N - 1)) * skew / (2 (N - 1)) from the server's clock, so the first and the last client are
  `skew_ms` apart and the clients' clocks sit evenly between (one client: offset 0). The key's 48-bit
  millisecond is that sum divided by 1000. The offsets are fixed: a clock that drifts within a window is
  not modelled.
- The 74 bits after the millisecond:
  - app-v7-random (.NET's Guid.CreateVersion7, Node's crypto.randomUUIDv7): 12 random sub-millisecond bits
    and 62 random bits, drawn by pgbench's random() in the client;
  - app-v7-counter (Python 3.14's uuid.uuid7, RFC 9562's method 1): a 42-bit counter in the 12 sub-millisecond
    bits and the top 30 of the rest, then 32 random bits. At a millisecond later than the client's last key
    the counter starts again from a random value below 2^41 (pgbench's random()); at the same or an earlier
    millisecond the key keeps the last key's millisecond and the counter adds one, so each client's keys
    strictly increase, and its time runs ahead of its clock when its clock stands still or steps back. The
    client keeps its last millisecond and counter in pgbench variables, which the insert's RETURNING
    hands back through \\gset (the server reads them out of the key it stored). Its first key finds them
    unset, and pgbench sends an unset variable of a prepared statement as NULL: the statement takes that as
    "no key yet". A counter seeded below 2^41 would need 2^41 keys in one millisecond to overflow, so the
    overflow Python handles is not.
- The server's uuid generator is not involved: pkbench_app_uuid_v7() only puts the three numbers into a
  uuid's bits (version 7, variant 10). The SQL is the same for every number of clients; only pgbench's
  offset command reads the count.
- The prefill, before any client runs, is made by the server in SQL (pkbench_app_fleet_v7, the column's
  default): the same layout, its clock plus the offset of a client drawn at random, random sub-millisecond
  bits for both strategies.
"""

from __future__ import annotations

from pkbench.strategies.model import ClientKey, Generator, Strategy

# Bits of the key as integers: the millisecond, the 12 bits after the version (rand_a) and the 62 after the
# variant (rand_b). Only formats them: the server generates nothing here.
UUID_FROM_PARTS = """
CREATE FUNCTION pkbench_app_uuid_v7(unix_ms bigint, rand_a bigint, rand_b bigint) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT (lpad(to_hex((unix_ms << 16) | 28672 | rand_a), 16, '0')
            || lpad(to_hex(rand_b | (-9223372036854775807 - 1)), 16, '0'))::uuid
$$
"""

# The client's state, read back from the key it just stored: its millisecond and its 42-bit counter (rand_a,
# then the 30 bits after the variant).
MS_OF_KEY = """
CREATE FUNCTION pkbench_app_v7_ms(id uuid) RETURNS bigint LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT ('x' || left(replace(id::text, '-', ''), 12))::bit(48)::bigint
$$
"""
COUNTER_OF_KEY = """
CREATE FUNCTION pkbench_app_v7_counter(id uuid) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT (('x' || substr(h, 14, 3))::bit(12)::bigint << 30)
           | (('x' || substr(h, 17, 8))::bit(32)::bigint & 1073741823)
    FROM (SELECT replace(id::text, '-', '') AS h) AS hex
$$
"""

# The prefill's keys: the server's clock plus the offset of one of the clients, drawn at random, as the
# pgbench clients spread them; random sub-millisecond bits.
FLEET_PREFILL = """
CREATE FUNCTION pkbench_app_fleet_v7(skew_us bigint, clients bigint) RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
    SELECT pkbench_app_uuid_v7(
        (floor(extract(epoch FROM clock_timestamp()) * 1000000)::bigint
         + (2 * client - (clients - 1)) * skew_us / (2 * greatest(clients - 1, 1))) / 1000,
        floor(random() * 4096)::bigint,
        (floor(random() * 2147483648)::bigint << 31) | floor(random() * 2147483648)::bigint)
    FROM (SELECT floor(random() * clients)::bigint AS client) AS drawn
$$
"""

# The server's clock in microseconds, read once by the statement: pgbench has none.
CLOCK_US = "floor(extract(epoch FROM clock_timestamp()) * 1000000)::bigint"


def offset_command(variable: str) -> str:
    """The pgbench command that sets the client's clock offset in microseconds from its :client_id."""
    spread = "(2 * :client_id - ({clients} - 1)) * {skew_us} / (2 * greatest({clients} - 1, 1))"
    return f"\\set {variable} {spread}"


RANDOM_KEY = ClientKey(
    commands="\n".join(
        (
            offset_command("app_random_offset_us"),
            "\\set app_random_sub_ms random(0, 4095)",
            "\\set app_random_tail random(0, 4611686018427387903)",
        )
    ),
    value=(
        f"pkbench_app_uuid_v7(({CLOCK_US} + :app_random_offset_us::bigint) / 1000, "
        ":app_random_sub_ms::bigint, :app_random_tail::bigint)"
    ),
)

COUNTER_KEY = ClientKey(
    commands="\n".join(
        (
            offset_command("app_counter_offset_us"),
            "\\set app_counter_seed random(0, 2199023255551)",
            "\\set app_counter_tail random(0, 4294967295)",
        )
    ),
    value=(
        "(SELECT pkbench_app_uuid_v7(ms, counter >> 30, "
        "((counter & 1073741823) << 32) | :app_counter_tail::bigint) "
        "FROM (SELECT greatest(now_ms, last_ms) AS ms, "
        "CASE WHEN now_ms > last_ms THEN :app_counter_seed::bigint ELSE last_counter + 1 END AS counter "
        f"FROM (SELECT ({CLOCK_US} + :app_counter_offset_us::bigint) / 1000 AS now_ms, "
        "coalesce(:app_counter_last_ms::bigint, -1) AS last_ms, "
        "coalesce(:app_counter_last_counter::bigint, 0) AS last_counter) AS clock) AS state)"
    ),
    statement_end=(
        " RETURNING pkbench_app_v7_ms(id) AS app_counter_last_ms, "
        "pkbench_app_v7_counter(id) AS app_counter_last_counter \\gset"
    ),
)

_PREFILL = Generator(
    "pkbench_app_fleet_v7({skew_us}, {clients})",
    prelude=(UUID_FROM_PARTS, MS_OF_KEY, COUNTER_OF_KEY, FLEET_PREFILL),
    clock="real",
)

APP_KEYS: tuple[Strategy, ...] = (
    Strategy(
        "app-v7-random",
        "uuid v7 made by each pgbench client as an application server would (.NET, Node): its own clock "
        "(offsets spread over skew_ms), random sub-millisecond bits; sent as a value",
        "uuid",
        (_PREFILL,),
        order="striped",
        client_key=RANDOM_KEY,
    ),
    Strategy(
        "app-v7-counter",
        "uuid v7 made by each pgbench client as Python 3.14 does: its own clock (offsets spread over "
        "skew_ms), a 42-bit counter after the millisecond, strictly increasing per client; sent as a value",
        "uuid",
        (_PREFILL,),
        order="striped",
        client_key=COUNTER_KEY,
    ),
)
