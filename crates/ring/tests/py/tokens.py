"""Reference side of crates/ring/tests/differential.rs.

Reads JSON lines from stdin and answers one JSON line per input line on stdout:

  {"raw": "<hex>"}
      -> {"token": Murmur3Token.hash_fn(bytes)}
  {"parts": [{"type": T, "value": V}, ...]}
      -> {"parts": ["<hex>", ...], "key": "<hex>", "token": int}
         each part serialized by the driver's own cqltypes serializers from a Python
         value built from V, the key built as the driver builds routing keys, and the
         token hashed from that key by the driver.

Type descriptors T: {"k": "<native cql type>"} | {"k": "list"|"set", "e": T} |
{"k": "map", "key": T, "val": T} | {"k": "tuple", "items": [T]} |
{"k": "udt", "name": str, "fields": [[name, T], ...]} | {"k": "vector", "e": T, "n": int}.

Sets and map keys: the driver serializes them in the order it is given. Cassandra
stores them sorted by the element type's comparator with duplicates dropped, so this
script sorts them first with sort keys written here from Cassandra's comparator rules
(see sort_key), independently of the Rust implementation.
"""

import datetime
import json
import math
import re
import struct
import sys
import uuid
from decimal import Decimal

from cassandra import cqltypes
from cassandra.metadata import Murmur3Token
from cassandra.query import SimpleStatement
from cassandra.util import Date, Time

PROTOCOL = 4

NATIVE = {
    "ascii": cqltypes.AsciiType,
    "bigint": cqltypes.LongType,
    "blob": cqltypes.BytesType,
    "boolean": cqltypes.BooleanType,
    "date": cqltypes.SimpleDateType,
    "decimal": cqltypes.DecimalType,
    "double": cqltypes.DoubleType,
    "float": cqltypes.FloatType,
    "inet": cqltypes.InetAddressType,
    "int": cqltypes.Int32Type,
    "smallint": cqltypes.ShortType,
    "text": cqltypes.UTF8Type,
    "time": cqltypes.TimeType,
    "timestamp": cqltypes.TimestampType,
    "timeuuid": cqltypes.TimeUUIDType,
    "tinyint": cqltypes.ByteType,
    "uuid": cqltypes.UUIDType,
    "varint": cqltypes.IntegerType,
}


def driver_type(t):
    k = t["k"]
    if k in NATIVE:
        return NATIVE[k]
    if k == "list":
        return cqltypes.ListType.apply_parameters([driver_type(t["e"])], None)
    if k == "set":
        return cqltypes.SetType.apply_parameters([driver_type(t["e"])], None)
    if k == "map":
        return cqltypes.MapType.apply_parameters([driver_type(t["key"]), driver_type(t["val"])], None)
    if k == "tuple":
        return cqltypes.TupleType.apply_parameters([driver_type(i) for i in t["items"]], None)
    if k == "udt":
        names = tuple(name for name, _ in t["fields"])
        types = tuple(driver_type(ft) for _, ft in t["fields"])
        return cqltypes.UserType.make_udt_class("ks", t["name"], names, types)
    if k == "vector":
        return cqltypes.VectorType.apply_parameters([driver_type(t["e"]), t["n"]], None)
    raise ValueError("unknown type %r" % (t,))


TS_RE = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})"
    r"(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{3}))?)?)?"
    r"(Z|[+-]\d{2}(?::?\d{2})?| [+-]\d{4}| UTC)?$"
)


def parse_timestamp_string(s):
    """The timestamp strings the Rust generator writes, as an aware datetime."""
    m = TS_RE.match(s)
    if not m:
        raise ValueError("unexpected timestamp string %r" % s)
    y, mo, d, h, mi, sec, ms, zone = m.groups()
    offset = datetime.timedelta(0)
    if zone and zone.strip() not in ("Z", "UTC"):
        z = zone.strip().replace(":", "")
        sign = -1 if z[0] == "-" else 1
        hours = int(z[1:3])
        minutes = int(z[3:5]) if len(z) > 3 else 0
        offset = sign * datetime.timedelta(hours=hours, minutes=minutes)
    return datetime.datetime(
        int(y), int(mo), int(d), int(h or 0), int(mi or 0), int(sec or 0),
        int(ms or 0) * 1000, tzinfo=datetime.timezone(offset),
    )


def python_value(t, v):
    """Builds the Python value the driver serializes for descriptor value v of type t."""
    if v is None:
        return None
    k = t["k"]
    if k in ("int", "bigint", "smallint", "tinyint", "varint"):
        return int(v)
    if k == "decimal":
        return Decimal(v)
    if k in ("float", "double"):
        return float(v)
    if k in ("boolean", "text", "ascii", "inet"):
        return v
    if k == "blob":
        return bytes.fromhex(v)
    if k in ("uuid", "timeuuid"):
        return uuid.UUID(v)
    if k == "timestamp":
        return v["ms"] if "ms" in v else parse_timestamp_string(v["str"])
    if k == "date":
        # An int is taken by the driver as the raw (2^31-offset) value, as in CQL.
        return v["raw"] if "raw" in v else Date(v["str"])
    if k == "time":
        return Time(v["raw"]) if "raw" in v else Time(v["str"])
    if k in ("list", "vector"):
        return [python_value(t["e"], x) for x in v]
    if k == "set":
        items = [python_value(t["e"], x) for x in v]
        return cassandra_sorted_unique(t["e"], items)
    if k == "map":
        pairs = [(python_value(t["key"], a), python_value(t["val"], b)) for a, b in v]
        return PairList(cassandra_sorted_map(t["key"], pairs))
    if k == "tuple":
        return tuple(python_value(it, x) for it, x in zip(t["items"], v))
    if k == "udt":
        return tuple(python_value(ft, v.get(name)) for name, ft in t["fields"])
    raise ValueError("unknown type %r" % (t,))


class PairList:
    """A map value that keeps the given entry order (MapType.serialize calls .items())."""

    def __init__(self, pairs):
        self.pairs = pairs

    def items(self):
        return self.pairs

    def __len__(self):
        return len(self.pairs)


def serialized(t, value):
    return driver_type(t).serialize(value, PROTOCOL)


def sort_key(t, value):
    """An orderable key that sorts like Cassandra's comparator for type t, and is equal
    exactly when the comparator says 0."""
    k = t["k"]
    if k in ("int", "bigint", "smallint", "tinyint", "varint", "decimal", "timestamp", "boolean"):
        # Python's numeric order is Java's for these (Decimal compares numerically, so
        # 1.0 == 1.00 like BigDecimal.compareTo); timestamps sort by their milliseconds.
        if k == "timestamp":
            return struct.unpack(">q", serialized(t, value))[0]
        return value
    if k in ("float", "double"):
        if k == "float":
            value = struct.unpack(">f", struct.pack(">f", value))[0]
        # Float.compare: -0.0 < 0.0 and NaN above everything, equal to itself.
        if math.isnan(value):
            return (1, 0.0, 0.0)
        return (0, value, math.copysign(1.0, value))
    if k in ("text", "ascii", "blob", "inet", "date", "time"):
        # Unsigned byte order of the serialized value.
        return serialized(t, value)
    if k == "uuid":
        # The version nibble as Cassandra reads it (uuid.UUID.version is None unless the
        # variant is RFC 4122).
        version = (value.int >> 76) & 0xF
        if version == 1:
            return (version, value.time, value.int & ((1 << 64) - 1))
        return (version, value.int >> 64, value.int & ((1 << 64) - 1))
    if k == "timeuuid":
        low = value.bytes[8:]
        return (value.time, tuple(b - 256 if b >= 128 else b for b in low))
    if k in ("list", "set", "vector"):
        return [sort_key(t["e"], x) for x in value]
    if k == "map":
        return [(sort_key(t["key"], a), sort_key(t["val"], b)) for a, b in value.items()]
    if k in ("tuple", "udt"):
        types = t["items"] if k == "tuple" else [ft for _, ft in t["fields"]]
        return [(0,) if x is None else (1, sort_key(it, x)) for it, x in zip(types, value)]
    raise ValueError("no sort key for %r" % (t,))


def cassandra_sorted_unique(t, items):
    """TreeSet semantics: sorted, and of elements comparing equal the first one kept."""
    keyed = sorted(((sort_key(t, x), i, x) for i, x in enumerate(items)), key=lambda e: (e[0], e[1]))
    out = []
    last = object()
    for key, _, x in keyed:
        if out and key == last:
            continue
        out.append(x)
        last = key
    return out


def cassandra_sorted_map(t, pairs):
    """TreeMap semantics: sorted by key; a repeated key keeps the first key, last value."""
    keyed = sorted(((sort_key(t, a), i, a, b) for i, (a, b) in enumerate(pairs)), key=lambda e: (e[0], e[1]))
    out = []
    last = object()
    for key, _, a, b in keyed:
        if out and key == last:
            out[-1] = (out[-1][0], b)
            continue
        out.append((a, b))
        last = key
    return out


def routing_key(parts):
    """The key the driver routes by: one part as is, several packed as a composite."""
    stmt = SimpleStatement("SELECT 1")
    stmt.routing_key = parts
    return stmt.routing_key


def answer(case):
    if "raw" in case:
        return {"token": Murmur3Token.hash_fn(bytes.fromhex(case["raw"]))}
    parts = [serialized(p["type"], python_value(p["type"], p["value"])) for p in case["parts"]]
    key = routing_key(parts)
    return {"parts": [p.hex() for p in parts], "key": key.hex(), "token": Murmur3Token.hash_fn(key)}


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        case = json.loads(line)
        try:
            out = answer(case)
        except Exception as e:  # report per case so the Rust side can name it
            out = {"error": "%s: %s" % (type(e).__name__, e)}
        sys.stdout.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
