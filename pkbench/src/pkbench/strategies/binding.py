"""A strategy bound to a scenario's parameters (its stripes or partitions, a client key's skew and clients),
and refused, in one line, where the scenario cannot measure it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from pkbench.errors import PkbenchError
from pkbench.strategies.model import SERVER_KEY, ClientKey, Strategy


def bound(strategy: Strategy, parameters: Mapping[str, object], cores: int) -> Strategy:
    """STRATEGY with its layout's count in its generators' expressions ({stripes}): the scenario's
    parameter of that name, else CORES; a client key with the scenario's skew and clients."""
    if strategy.client_key is not None:
        return bind_client_key(strategy, parameters)
    if not strategy.layout:
        return strategy
    count = layout_count(strategy.layout, parameters, cores)
    name = LAYOUT_PARAMETERS[strategy.layout]
    generators = tuple(
        replace(g, expression=g.expression.replace("{" + name + "}", str(count))) for g in strategy.generators
    )
    return replace(strategy, generators=generators)


def bind_client_key(strategy: Strategy, parameters: Mapping[str, object]) -> Strategy:
    """STRATEGY with the scenario's skew_ms (0 when it has none), in whole microseconds ({skew_us}: pgbench's
    integer arithmetic), and {clients} written into its client key and its generators (the prefill's)."""
    skew = parameters.get("skew_ms", 0)
    if isinstance(skew, bool) or not isinstance(skew, int | float) or not 0 <= skew <= SKEW_MAX_MS:
        raise PkbenchError(f"parameter skew_ms must be a number of milliseconds from 0 to {SKEW_MAX_MS:,}")
    clients = parameters.get("clients", 1)
    values = {"skew_us": str(round(skew * 1000)), "clients": str(clients)}

    def bind(text: str) -> str:
        for name, value in values.items():
            text = text.replace("{" + name + "}", value)
        return text

    assert strategy.client_key is not None
    key = strategy.client_key
    client_key = ClientKey(bind(key.commands), bind(key.value), bind(key.statement_end))
    generators = tuple(replace(g, expression=bind(g.expression)) for g in strategy.generators)
    return replace(strategy, generators=generators, client_key=client_key)


# A day: a fleet whose clocks disagree by more is broken, not skewed.
SKEW_MAX_MS = 86_400_000


def client_key_placeholders(strategy: Strategy) -> dict[str, str]:
    """What a scenario's pgbench script says for the key: the client's commands, the key's value and the
    statement's end; for a key the server makes, nothing, DEFAULT and ";"."""
    key = strategy.client_key or SERVER_KEY
    return {
        "key_client_commands": key.commands,
        "key_value": key.value,
        "key_statement_end": key.statement_end,
    }


def refuse_without_client_keys(strategies: Sequence[Strategy], scenario: str, texts: Sequence[str]) -> None:
    """A key the clients make needs a scenario whose inserts send it ({key_value} in one of its SQL TEXTS):
    in any other its table would take the prefill's server-made keys, measured under the strategy's name."""
    sends = any("{key_value}" in text for text in texts)
    for strategy in strategies:
        if strategy.client_key is not None and not sends:
            raise PkbenchError(
                f"strategy {strategy.name!r} is made by pgbench's clients, and scenario {scenario} does not "
                "send keys from them ({key_value}); run it in fleet"
            )


# The scenario parameter that sets each layout's number of insertion points (its default: the cores).
LAYOUT_PARAMETERS = {"hash": "partitions", "striped": "stripes"}
# sequuid's uuid_generate_striped takes 1 to 256 stripes; a hash-partitioned table as many partitions.
LAYOUT_MAX = 256


def layout_count(layout: str, parameters: Mapping[str, object], cores: int) -> int:
    """How many partitions or stripes LAYOUT spreads its inserts over: the scenario's parameter, else CORES
    (at most LAYOUT_MAX)."""
    name = LAYOUT_PARAMETERS[layout]
    value = parameters.get(name, min(cores, LAYOUT_MAX))
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= LAYOUT_MAX:
        raise PkbenchError(f"parameter {name} must be a whole number from 1 to {LAYOUT_MAX} (got {value!r})")
    return value


def refuse_unpartitioned(strategies: Sequence[Strategy], scenario: str, texts: Sequence[str]) -> None:
    """A hash-partitioned key needs a scenario whose table takes its PARTITION BY ({key_partitioning} in one
    of its SQL TEXTS): in any other its table would be a plain one, measured under the strategy's name."""
    partitioned = any("{key_partitioning}" in text for text in texts)
    for strategy in strategies:
        if strategy.layout == "hash" and not partitioned:
            raise PkbenchError(
                f"strategy {strategy.name!r} hash-partitions the scenario's table, and scenario {scenario} "
                "does not partition it ({key_partitioning}); run it in contention"
            )


def layout_placeholders(strategy: Strategy, parameters: Mapping[str, object], cores: int) -> dict[str, str]:
    """What a scenario's SQL may say of the key's layout: {key_partitioning} (the PARTITION BY clause of a
    hash-partitioned table, else empty), {key_partitions} and {key_stripes} (their counts, else 0)."""
    hashed = strategy.layout == "hash"
    striped = strategy.layout == "striped"
    return {
        "key_partitioning": "PARTITION BY HASH (id)" if hashed else "",
        "key_partitions": str(layout_count("hash", parameters, cores) if hashed else 0),
        "key_stripes": str(layout_count("striped", parameters, cores) if striped else 0),
    }
