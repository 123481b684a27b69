"""``sushigo.schema``: the JSON Schemas of every document the toolkit reads or writes."""

from __future__ import annotations

from typing import Any

from sushigo.api.base import Outcome, public, tagged

FORMAT = "sushigo-schema-result/1"


def schema_outcome(name: str | None = None) -> Outcome:
    """With no ``name``, the list of schemas (name, description, format tags, direction); with a
    ``name``, that schema itself (JSON Schema, draft 2020-12). Returns what ``sushigo schema
    [NAME] --json`` prints; an unknown name is an InputError naming the nearest one."""
    from sushigo import schemas

    if name is not None:
        return Outcome(schemas.load_schema(name), 0, None)
    found = schemas.infos()
    data: dict[str, Any] = {"schemas": [{"name": s.name, "description": s.description,
                                         "formats": list(s.formats), "direction": s.direction}
                                        for s in found]}
    return Outcome(tagged(FORMAT, data), 0, found)


schema = public(schema_outcome, "schema")
