"""Time-ordered and sequential UUIDs made in the application, byte-compatible with the sequuid extension.

Every function returns or reads a standard ``uuid.UUID``; a key made here and one made by the extension at
the same instant sort together, and the extension's functions read either.
"""

from sequuid._args import Instant
from sequuid._calendar import Interval
from sequuid._generate import (
    sequence_prefixed,
    striped,
    time_prefixed,
    ulid,
    uuid1_random_node,
    uuid6,
    uuid7,
    uuid7_at,
)
from sequuid._public_id import public_to_v7, uuidv47_to_v7, v7_to_public, v7_to_uuidv47
from sequuid._read import (
    Partition,
    StripeRange,
    lower_bound,
    striped_ranges,
    time_partitions,
    time_range,
    timestamp,
    timestamp_us,
    ulid_timestamp,
    ulid_timestamp_us,
    ulid_to_uuid,
    uuid_from_base32hex,
    uuid_to_base32hex,
    uuid_to_ulid,
    v1_to_v6,
    v6_to_v1,
    v7_boundary,
    variant,
    version,
)

__version__ = "1.6.0"

__all__ = [
    "Instant",
    "Interval",
    "Partition",
    "StripeRange",
    "lower_bound",
    "public_to_v7",
    "sequence_prefixed",
    "striped",
    "striped_ranges",
    "time_partitions",
    "time_prefixed",
    "time_range",
    "timestamp",
    "timestamp_us",
    "ulid",
    "ulid_timestamp",
    "ulid_timestamp_us",
    "ulid_to_uuid",
    "uuid1_random_node",
    "uuid6",
    "uuid7",
    "uuid7_at",
    "uuid_from_base32hex",
    "uuid_to_base32hex",
    "uuid_to_ulid",
    "uuidv47_to_v7",
    "v1_to_v6",
    "v6_to_v1",
    "v7_boundary",
    "v7_to_public",
    "v7_to_uuidv47",
    "variant",
    "version",
]
