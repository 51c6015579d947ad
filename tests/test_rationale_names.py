"""A verdict's rationale names a "better" provision only at the probability a note would name
it (issue 22: what is said of a provision must be as sure as a note). Dev LawBench 3-8
consultation answers, tuning keys (the first of each file): the question's store-wide candidate
the map puts low — 《人民检察院刑事诉讼规则》第一百八十八条 for civil citations — was written into
the report lines as "fits better"."""

from __future__ import annotations

import json

import pytest

from benchmarks.datadir import data_path
from benchmarks.lawbench import question_of
from governor.api import Governor
from governor.core.config import Thresholds

KEYS = [str(k) for k in range(0, 12)]


@pytest.mark.heavy
def test_fits_better_names_only_what_a_note_would_name() -> None:
    gov = Governor()
    floor = Thresholds().candidate_name_probability
    data = json.loads(
        (data_path("lawbench_dev") / "chatglm2-6b-hf_zero_shot_3-8.json").read_text("utf-8")
    )
    for k in KEYS:
        rec = data[k]
        vs = gov.verify(
            rec["prediction"], as_of="2023-07-01", context=question_of(rec["origin_prompt"])
        )
        for v in vs:
            if "fits better" in v.applicability.rationale:
                s = v.suggestion
                assert s is not None
                assert s.probability is None or s.probability >= floor, (k, v.citation.raw)
