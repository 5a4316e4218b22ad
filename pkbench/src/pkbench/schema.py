"""The TOML schema of scenario files, as pydantic models: each step module declares its own (`Schema`).

Unknown keys, wrong types and out-of-range values are refused with one line naming the file, the key and
what is allowed. The JSON Schema published in docs/scenario.schema.json is generated from these models.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError

from pkbench.errors import PkbenchError


def _non_empty_text(value: object) -> object:
    if not isinstance(value, str) or not value:
        raise ValueError("must be a non-empty string")
    return value


def _positive_integer(value: object) -> object:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError("must be a positive integer")
    return value


def _sql_list(value: object) -> object:
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        raise ValueError("must be a list of SQL strings")
    return value


def _relation_names(value: object) -> object:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValueError("must be a list of relation names")
    return value


def _boolean(value: object) -> object:
    if not isinstance(value, bool):
        raise ValueError("must be true or false")
    return value


def non_empty_tables(fields: str) -> BeforeValidator:
    """A validator of a list of tables that must hold at least one ({FIELDS} names their keys)."""

    def check(value: object) -> object:
        if not isinstance(value, list) or not value:
            raise ValueError(f"must be a non-empty list of {{{fields}}} tables")
        return value

    return BeforeValidator(check)


def _file_name(value: object) -> object:
    # Step names become file and folder names under --out: nothing that could leave it.
    if not isinstance(value, str) or not SAFE_NAME.fullmatch(value):
        raise ValueError("must be letters, digits, '-', '_' and '.', starting with a letter or digit")
    return value


SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")
Text = Annotated[str, BeforeValidator(_non_empty_text)]
StepName = Annotated[str, BeforeValidator(_non_empty_text), BeforeValidator(_file_name)]
PositiveInt = Annotated[int, BeforeValidator(_positive_integer)]
SqlList = Annotated[list[str], BeforeValidator(_sql_list)]
RelationNames = Annotated[list[str], BeforeValidator(_relation_names)]
Boolean = Annotated[bool, BeforeValidator(_boolean)]


class Strict(BaseModel):
    """A TOML table whose keys are all known: a typo is an error, not a silent default."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class StepSchema(Strict):
    kind: str
    name: StepName
    # The scales (the scenario's [scale] presets, or "default") this step runs at; absent: every scale.
    scales: list[Text] | None = None


Model = TypeVar("Model", bound=BaseModel)


def require_any(where: str, message: str, *lists: Sequence[object]) -> None:
    """One line, WHERE: MESSAGE, when every one of LISTS is empty."""
    if not any(lists):
        raise PkbenchError(f"{where}: {message}")


def validate(model: type[Model], where: str, table: Mapping[str, Any]) -> Model:
    """The table as MODEL, or one line: where, which key, and what is allowed."""
    try:
        return model.model_validate(dict(table))
    except ValidationError as error:
        raise PkbenchError(f"{where}{one_line(model, error)}") from None


def one_line(model: type[BaseModel], error: ValidationError) -> str:
    first = error.errors()[0]
    loc = [part for part in first["loc"] if not (isinstance(part, str) and part.startswith("function-"))]
    place = ""
    inner: type[BaseModel] | None = model
    for part in loc[:-1]:
        if isinstance(part, int):
            place += f", #{part + 1}"
        else:
            place += f", {part}"
            inner = _nested_model(inner, part)
    key = loc[-1] if loc else ""
    if first["type"] == "extra_forbidden":
        return f"{place}: {unknown_key(str(key), inner.model_fields if inner else ())}"
    if isinstance(key, int):
        return f"{place}, #{key + 1}: {_message(first)}"
    return f"{place}: '{key}' {_message(first)}"


def unknown_key(key: str, allowed: Iterable[str]) -> str:
    """The words for a key nobody declared: the closest known one when it looks like a typo, and the rest."""
    known = list(allowed)
    close = difflib.get_close_matches(key, known, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    return f"unknown key {key!r} ({hint}allowed: {', '.join(known)})"


def _message(error: Mapping[str, Any]) -> str:
    text = str(error["msg"]).removeprefix("Value error, ")
    if error["type"] == "missing":
        return "is required"
    return text if text.startswith("must") else f"is wrong: {text[0].lower()}{text[1:]}"


def _nested_model(model: type[BaseModel] | None, field: str) -> type[BaseModel] | None:
    """The model of MODEL's FIELD, or of its items when it is a list of models."""
    if model is None or field not in model.model_fields:
        return None
    annotation = model.model_fields[field].annotation
    for candidate in (annotation, *getattr(annotation, "__args__", ())):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return candidate
    return None
