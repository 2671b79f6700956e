"""schemathesis hooks for scripts/schemathesis.sh (loaded by scripts/schemathesis.toml).

The contract says every number is a whole one written in plain digits: `100.0` and `1e2` answer 400, as the
security review asked (a client that meant dollars must not have them taken as cents). JSON Schema counts 100.0
as an integer, so schemathesis generates it for `type: integer` and Python writes it with its point. This JSON
serializer writes such a number as the integer it is; every other value, fractions included, goes as generated,
so the negative phases still send `100.5` and strings where numbers belong.
"""
import json

import schemathesis
from schemathesis.transport.serialization import Binary


def _plain_integers(value):
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _plain_integers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain_integers(item) for item in value]
    return value


@schemathesis.serializer("application/json")
def json_with_plain_integers(ctx, value):
    if isinstance(value, bytes):
        return value
    if isinstance(value, Binary):
        value = str(value)
    return json.dumps(_plain_integers(value)).encode("utf-8")
