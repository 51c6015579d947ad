"""A citation judged ``partially_supports`` (on topic, not the provision the claim rests on)
is said in the text, not only in the report (issue 21 item 3; dev review seed 11: 25 of 27
such silent citations were wrong by the statute text)."""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.authorities import load_default_store
from governor.core.config import load_config

AS_OF = date(2023, 7, 1)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config(overrides={}, environ={}), store=load_default_store())


def test_partially_supporting_citation_gets_a_note(gov: Governor) -> None:
    # 劳动合同法第四十条 is a ground for dismissal; the 经济补偿 the answer asserts is 第四十六条
    text = (
        "问题：公司解除劳动合同要给经济补偿吗？\n回答：需要。\n"
        "法律依据：《中华人民共和国劳动合同法》第四十条"
    )
    (v,) = gov.verify(text, as_of=AS_OF)
    assert v.applicability.label == "partially_supports", v.applicability.rationale
    out = gov.govern(text, strategy="efa", as_of=AS_OF).text
    assert out.startswith(text)
    assert "（注：该条文与上述结论仅部分相关" in out[len(text) :]


def test_a_supporting_citation_gets_no_note(gov: Governor) -> None:
    text = (
        "问题：离婚后孩子的抚养费怎么算？\n回答：根据《民法典》第一千零八十四条，"
        "离婚后，父母对于子女仍有抚养、教育、保护的权利和义务。"
    )
    assert gov.govern(text, strategy="efa", as_of=AS_OF).text == text


# dev 3-8 chatglm2-6b #494 (seed-17 fresh review: the note judged harmful): the 法律依据 item
# recites 社会保险法第五十八条第一款 rightly; Applicability judges it against the answer's
# conclusion (退休手续、养老金), another sentence, and a note after the recital read as doubt of it
RECITAL = (
    "问题：在用人单位做了十几年，现在已经60岁了，但社保才交了几年应该怎么办？\n\n"
    "回答：根据《中华人民共和国社会保险法》的规定，用人单位和职工应当依法参加社会保险，职工在达到"
    "退休年龄时应当依法办理退休手续，并按月领取养老金。\n\n"
    "法律依据：《中华人民共和国社会保险法》第五十八条规定，用人单位应当自用工之日起三十日内为其职工"
    "申请办理社会保险登记，并按照社会保险经办机构的规定缴纳社会保险费。"
)


def test_faithful_recital_judged_on_another_sentence_gets_no_note(gov: Governor) -> None:
    """F ``faithful`` on the recital in the citation's own sentence, A ``partially_supports``
    on the borrowed conclusion: no 「仅部分相关」 note after the recital (the report's line
    says it); the verdict itself is unchanged."""
    v = next(w for w in gov.verify(RECITAL, as_of=AS_OF) if w.citation.article == "58")
    assert v.fidelity.label == "faithful", v.fidelity.rationale
    assert v.applicability.label == "partially_supports", v.applicability.rationale
    assert v.citation.claim_span is not None and v.citation.description_span is not None
    assert v.citation.claim_span.end < v.citation.span.start  # the claim is another sentence's
    out = gov.govern(RECITAL, strategy="efa", as_of=AS_OF).text
    assert "仅部分相关" not in out, out
