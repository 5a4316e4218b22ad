"""The JSON Schema of scenario files (docs/scenario.schema.json), from the models that check them."""

from __future__ import annotations

from typing import Any

from pkbench.scenario.file import ScenarioFile
from pkbench.steps import KINDS


def document() -> dict[str, Any]:
    """The JSON Schema of scenario files (docs/scenario.schema.json), from the models that check them."""
    schema = ScenarioFile.model_json_schema()
    kinds = [kind.schema.model_json_schema() for kind in KINDS.values()]
    definitions = schema.setdefault("$defs", {})
    for kind_schema in kinds:
        definitions.update(kind_schema.pop("$defs", {}))
    schema["properties"]["steps"] = {
        "type": "array",
        "minItems": 1,
        "items": {"oneOf": kinds},
        "description": "The steps run for each strategy, in order; `kind` picks the step's schema.",
    }
    schema["title"] = "pkbench scenario"
    return schema
