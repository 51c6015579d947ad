"""A pinned 款/项 described in a sibling 款/项's words is re-pinned, never passed (README:
"A pinned 款/项 whose words are a sibling's is re-pinned, never 'corrected'").

Statute texts checked with ``citegov corpus show`` (as of 2024-03-01): 民法典第五百八十五条
第二款 「约定的违约金低于造成的损失的…；约定的违约金过分高于造成的损失的，人民法院或者仲裁机构
可以根据当事人的请求予以适当减少。」, 第三款 「当事人就迟延履行约定违约金的，违约方支付违约金后，
还应当履行债务。」; 劳动合同法第三十九条 （二）「严重违反用人单位的规章制度的」, （三）「严重失职，
营私舞弊，给用人单位造成重大损害的」.
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.core.config import Config
from verifiers.pins import restated_sibling

AS_OF = date(2024, 3, 1)
PENALTY = "约定的违约金过分高于造成的损失的，人民法院或者仲裁机构可以根据当事人的请求予以适当减少。"
DISMISSAL = "劳动者严重失职，营私舞弊，给用人单位造成重大损害的，用人单位可以解除劳动合同。"


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(Config())


@pytest.mark.parametrize(
    "text,suggested,repinned",
    [
        (f"根据《民法典》第五百八十五条第三款，{PENALTY}", (2, None), "《民法典》第五百八十五条第二款"),
        (f"根据《劳动合同法》第三十九条第二项，{DISMISSAL}", (None, 3), "第（三）项"),
    ],
)  # fmt: skip
def test_sibling_words_under_a_pin_are_misdescribed_and_repinned(
    gov: Governor, text: str, suggested: tuple[int | None, int | None], repinned: str
) -> None:
    (v,) = gov.verify(text, as_of=AS_OF)
    assert v.existence.label == "exists"
    assert v.fidelity.label == "misdescribed", v.fidelity.rationale
    assert "L1.1.2" in v.taxonomy
    assert "restates" not in v.applicability.rationale  # not a recital of the pinned 款/项
    assert v.suggestion is not None
    assert (v.suggestion.authority.paragraph, v.suggestion.authority.item) == suggested
    assert v.suggestion.authority.article == v.citation.article
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    edits = [e for rd in r.rounds for e in rd.edits]
    assert [e.op for e in edits] == ["fix_granularity"]
    assert repinned in r.text
    body = text.split("，", 1)[1]
    assert body in r.text  # the sibling's words are kept, never "corrected"


@pytest.mark.parametrize(
    "text",
    [
        f"根据《民法典》第五百八十五条，{PENALTY}",  # unpinned: the article holds the words
        f"根据《民法典》第五百八十五条第二款，{PENALTY}",  # the right 款
        f"根据《劳动合同法》第三十九条第三项，{DISMISSAL}",  # the right 项
        f"根据《劳动合同法》第三十九条第一款，{DISMISSAL}",  # the 款 holding the 项
    ],
)
def test_words_of_the_cited_unit_still_pass(gov: Governor, text: str) -> None:
    (v,) = gov.verify(text, as_of=AS_OF)
    assert v.fidelity.label == "faithful", v.fidelity.rationale
    assert v.applicability.label == "supports", v.applicability.rationale
    assert v.suggestion is None


def test_restated_sibling_prefers_the_pinned_unit(gov: Governor) -> None:
    rec = gov.store.article("中华人民共和国民法典", "585", as_of=AS_OF)
    assert rec is not None
    assert restated_sibling(rec, 3, None, PENALTY) == (2, None)
    assert restated_sibling(rec, 2, None, PENALTY) is None
    assert restated_sibling(rec, None, None, PENALTY) is None  # unpinned
    # words of 第三款 under 第三款, and of neither 款 (a paraphrase), are no sibling's
    assert restated_sibling(rec, 3, None, "当事人就迟延履行约定违约金的，还应当履行债务") is None
    assert restated_sibling(rec, 3, None, "违约金太高可以请求法院减少") is None
