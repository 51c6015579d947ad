"""Perturbation suite: determinism, spans, clean reports verify clean, labels and files."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchmarks import perturb as P
from benchmarks.perturb import (
    DEFAULT_RATES,
    ERROR_KINDS,
    EXPECTED,
    PerturbedReport,
    generate_suite,
    load_suite,
    write_suite,
)
from governor.api import Governor
from governor.authorities import AuthorityStore, load_default_store
from governor.citations.extract import extract
from governor.core.errors import TaskError


@pytest.fixture(scope="module")
def store() -> AuthorityStore:
    return load_default_store()


@pytest.fixture(scope="module")
def gov(store: AuthorityStore) -> Governor:
    return Governor(store=store)


@pytest.fixture(scope="module")
def suite(store: AuthorityStore) -> tuple[PerturbedReport, ...]:
    # high rates so that a small suite carries many kinds
    rates = {k: 0.09 for k in ERROR_KINDS}
    return generate_suite(store, n_reports=8, seed=3, rates=rates)


def test_same_seed_same_suite_other_seed_other_suite(store: AuthorityStore) -> None:
    a = generate_suite(store, n_reports=2, seed=11)
    b = generate_suite(store, n_reports=2, seed=11)
    c = generate_suite(store, n_reports=2, seed=12)
    assert a == b
    assert [r.text for r in a] != [r.text for r in c]
    assert [r.id for r in a] == ["perturb-11-001", "perturb-11-002"]


def test_error_spans_index_the_perturbed_text(
    suite: tuple[PerturbedReport, ...], store: AuthorityStore
) -> None:
    n_errors = 0
    for r in suite:
        found = {c.span: c for c in extract(r.text, store)}
        for e in r.errors:
            n_errors += 1
            assert e.span.slice(r.text) == e.citation_raw
            assert e.span in found, e.citation_raw
            assert store.get(e.original) is not None
            if e.description_span is not None:
                assert e.description_span.start > e.span.start or e.kind in (
                    "changed_period", "changed_amount", "flipped_modality",
                    "dropped_proviso", "claim_overreach",
                )  # fmt: skip
        assert len(r.errors) + len(r.clean_citations) == len(r.task.rubric)
        assert len(found) == len(r.task.rubric)
    assert n_errors >= 5


def test_clean_reports_verify_clean(suite: tuple[PerturbedReport, ...], gov: Governor) -> None:
    n = 0
    for r in suite:
        for v in gov.verify(r.clean_text, as_of=r.as_of, context=r.task.query):
            n += 1
            labels = (v.existence.label, v.fidelity.label, v.applicability.label)
            assert labels == P.CLEAN_LABELS, (r.id, v.citation.raw, labels)
    assert n == sum(len(r.task.rubric) for r in suite)


def test_untouched_citations_still_pass_after_injection(
    suite: tuple[PerturbedReport, ...], gov: Governor
) -> None:
    for r in suite:
        errs = {e.span for e in r.errors}
        for v in gov.verify(r.text, as_of=r.as_of, context=r.task.query):
            if v.citation.span not in errs:
                assert v.passes, (r.id, v.citation.raw)


@pytest.mark.parametrize(
    "kind",
    ["fabricated_article", "fabricated_instrument", "repealed_instrument", "wrong_paragraph"],
)
def test_existence_labels_of_source_errors_hold(
    kind: P.ErrorKind, store: AuthorityStore, gov: Governor
) -> None:
    # 12 reports: enough draws of an instrument with a repealed predecessor (民法典 …) in the
    # store of 1,526 instruments
    reports = generate_suite(store, n_reports=12, seed=9, rates={kind: 0.5})
    errors = [(r, e) for r in reports for e in r.errors]
    assert errors and all(e.kind == kind for _, e in errors)
    for r, e in errors:
        verdicts = {v.citation.span: v for v in gov.verify(r.text, as_of=r.as_of)}
        v = verdicts[e.span]
        assert v.existence.label == e.existence == EXPECTED[kind][0]
        assert e.taxonomy[0] in v.taxonomy


def test_zero_rates_leave_the_text_clean(store: AuthorityStore) -> None:
    (r,) = generate_suite(store, n_reports=1, seed=2, rates={})
    assert r.text == r.clean_text and r.errors == ()
    assert len(r.clean_citations) == len(r.task.rubric)


def test_rubric_evidence_points_at_the_cited_provisions(
    suite: tuple[PerturbedReport, ...], store: AuthorityStore
) -> None:
    for r in suite:
        cites = extract(r.clean_text, store)
        for item, c in zip(r.task.rubric, cites, strict=True):
            (ev,) = item.evidence
            assert ev.authority == f"《{c.instrument}》第{c.article}条" + (
                f"第{c.paragraph}款" if c.paragraph else ""
            )
            assert item.text == ev.text
        assert {i.subtopic_id for i in r.task.rubric} == {s.id for s in r.task.subtopics}


def test_default_rates_are_valid_and_cover_every_kind() -> None:
    assert set(DEFAULT_RATES) == set(ERROR_KINDS) == set(EXPECTED)
    assert 0.0 < sum(DEFAULT_RATES.values()) <= 1.0


@pytest.mark.parametrize(
    ("rates", "message"),
    [
        ({"typo": 0.1}, "unknown error kinds"),
        ({"fabricated_article": 1.5}, "rate of fabricated_article"),
        ({"fabricated_article": 0.6, "shifted_article": 0.6}, "add up to"),
    ],
)
def test_bad_rates_are_rejected(store: AuthorityStore, rates: dict, message: str) -> None:
    with pytest.raises(TaskError, match=message):
        generate_suite(store, n_reports=1, rates=rates)


def test_n_reports_must_be_positive(store: AuthorityStore) -> None:
    with pytest.raises(TaskError, match="at least one report"):
        generate_suite(store, n_reports=0)


def test_write_and_load_round_trip(suite: tuple[PerturbedReport, ...], tmp_path: Path) -> None:
    path = tmp_path / "suite.jsonl"
    write_suite(suite, path)
    assert load_suite(path) == suite
    assert P.is_suite_file(path)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "holds no report"),
        ("{not json\n", ":1: not valid JSON"),
        ('{"id": "x"}\n', ":1: not a perturbed report"),
    ],
)
def test_load_suite_errors_name_the_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(TaskError, match=message):
        load_suite(path)


def test_write_suite_wants_jsonl(suite: tuple[PerturbedReport, ...], tmp_path: Path) -> None:
    with pytest.raises(TaskError, match=r"\.jsonl"):
        write_suite(suite, tmp_path / "suite.json")


# ---------------------------------------------------------------------------------------------
# the injection operations, on fixed strings

SOURCE = "向人民法院请求保护民事权利的诉讼时效期间为三年。法律另有规定的，依照其规定。"


@pytest.mark.parametrize(
    ("kind", "desc", "source", "changed_part"),
    [
        ("changed_period", "诉讼时效期间为三年", SOURCE, "三"),
        ("changed_period", "应当在30日内作出决定", "应当在30日内作出决定。", "30"),
        ("changed_amount", "处五千元以下罚款", "处五千元以下罚款。", "五千"),
        ("changed_amount", "不低于百分之三十", "不低于百分之三十。", "三十"),
    ],
)
def test_change_number_changes_only_the_number(
    kind: P.ErrorKind, desc: str, source: str, changed_part: str
) -> None:
    out = P._change_number(random.Random(0), desc, source, kind)
    assert out is not None
    new, detail = out
    assert new != desc and changed_part not in new.replace(desc.split(changed_part)[1], "")
    assert desc.split(changed_part)[0] == new[: len(desc.split(changed_part)[0])]
    assert detail.startswith(changed_part)


@pytest.mark.parametrize("desc", ["2021年1月1日起施行", "第三日", "没有数字"])
def test_change_number_ignores_dates_ordinals_and_plain_text(desc: str) -> None:
    assert P._change_number(random.Random(0), desc, desc, "changed_period") is None


@pytest.mark.parametrize(
    ("desc", "expected"),
    [
        ("用人单位不得扣押劳动者的居民身份证", "用人单位可以扣押劳动者的居民身份证"),
        ("当事人应当履行义务", "当事人可以履行义务"),
        ("当事人也可以协商", None),  # 也可以 is left alone; nothing else to flip
    ],
)
def test_flip_modality(desc: str, expected: str | None) -> None:
    out = P._flip_modality(random.Random(0), desc, desc)
    assert (out[0] if out else None) == expected


@pytest.mark.parametrize(
    ("desc", "expected"),
    [
        ("当事人应当履行合同，但是法律另有规定的除外。", "当事人应当履行合同。"),
        ("出租人应当维修租赁物，当事人另有约定的除外。", "出租人应当维修租赁物。"),
        ("当事人应当履行合同义务。", None),
    ],
)
def test_drop_proviso(desc: str, expected: str | None) -> None:
    out = P._drop_proviso(desc)
    assert (out[0] if out else None) == expected


def test_overreach_drops_the_condition_and_generalises() -> None:
    desc = "当事人一方不履行合同义务的，应当承担违约责任。"
    new, detail = P._overreach(desc) or ("", "")
    assert new == "在任何情况下均应当承担违约责任。"
    assert "当事人一方不履行合同义务的" in detail
