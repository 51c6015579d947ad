"""The SPEC §2 verdict report: shape, schema, and that it describes the input as given."""

from __future__ import annotations

from datetime import date

import jsonschema

from governor.api import Governor
from governor.core.report import SCHEMA_VERSION, json_schema
from governor.reports.json_report import build_report

DRAFT = "向人民法院请求保护民事权利的诉讼时效期间为二年（《民法典》第一百八十八条）。"


def test_revise_report_validates_and_keeps_input_and_final_apart() -> None:
    gov = Governor()
    result = gov.govern(DRAFT, strategy="efa", as_of=date(2026, 1, 1))
    report = build_report(
        DRAFT,
        as_of=date(2026, 1, 1),
        strategy="efa",
        judge="offline",
        initial=result.initial_verdicts,
        result=result,
    )
    data = report.model_dump(mode="json")
    jsonschema.validate(data, json_schema())
    assert data["version"] == SCHEMA_VERSION
    (c,) = data["citations"]
    assert DRAFT[c["span"][0] : c["span"][1]] == c["raw"]
    assert c["fidelity"]["label"] == "misdescribed" and "L1.3.2" in c["taxonomy"]
    assert data["scores"]["trust"] == 0.0
    assert data["final"]["scores"]["trust"] == 1.0
    assert data["rounds"][0]["edits"][0]["op"] == "fix_number"
    assert data["input"]["chars"] == len(DRAFT)


def test_schema_rejects_a_missing_field() -> None:
    import pytest

    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"version": "1.0"}, json_schema())
