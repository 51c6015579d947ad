"""Which successor a repeal note names, and when it says the words differ (issue 22 item 4).

Real dev answers (review6, as of 2023-07-01) against the stored cn_repealed texts: a
multi-款 article maps 款 by 款; a successor proven from the old text is not displaced by a
provision that matches only the report's (wrong) words; 「与所述内容不符」 is not said of a
faithful paraphrase."""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor

AS_OF = date(2023, 7, 1)


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor()


def stale_notes(gov: Governor, text: str) -> list[str]:
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    return [e.after for e in r.edits if e.op == "mark_stale"]


def test_a_faithful_paraphrase_is_not_called_unfit(gov: Governor) -> None:
    """婚姻法第十七条 (夫妻共同财产) → 民法典第一千零六十二条: the report's summary is what both say."""
    text = (
        "问题：婚后双方父母给子女付263万元购买共有产权房，现在夫妻离婚，能补签借款协议吗？\n\n"
        "可以，根据《婚姻法》第十七条规定，夫妻在婚姻关系存续期间所得的财产为夫妻共同财产，"
        "因此，这263万元购房款为夫妻共同财产。"
    )
    notes = stale_notes(gov, text)
    assert notes and "所引原第十七条现为《民法典》第一千零六十二条" in notes[0]
    assert "与所述内容不符" not in notes[0]


def test_a_proven_successor_is_not_displaced_by_the_words_match(gov: Governor) -> None:
    """合同法第二百一十四条 (租赁期限不得超过二十年) → 民法典第七百零五条 (containment 0.89); the
    report's words (协商一致解除合同) are 民法典第五百六十二条's, which is not 「相应规定」."""
    text = (
        "问题：签了租房合同，现在想提前退租，怎么办？\n\n"
        "根据《中华人民共和国合同法》第二百一十四条的规定，当事人可以协商一致解除合同。"
    )
    (v,) = gov.verify(text, as_of=AS_OF)
    assert (v.existence.label, v.fidelity.label) == ("repealed", "misdescribed")
    assert v.suggestion is not None and v.suggestion.authority.article == "705"
    assert not v.suggestion.proof  # the words are not its text: no replacement
    notes = stale_notes(gov, text)
    assert notes, "the repealed citation gets a note"
    assert "第五百六十二条" not in notes[0] and "相应规定见" not in notes[0]
    assert "所引原第二百一十四条现为《民法典》第七百零五条" in notes[0]
    assert "与所述内容不符" in notes[0]


def test_a_multi_paragraph_article_maps_by_the_paragraph_restated(gov: Governor) -> None:
    """继承法第十七条 (five 款: 公证/自书/代书/录音/口头遗嘱) maps as a whole to 民法典第一千一百
    三十八条 (口头遗嘱); the words restate 第二款 (自书遗嘱) → 民法典第一千一百三十四条."""
    text = (
        "问题：四个儿子共同签字的字条具备法律效力吗？\n\n"
        "根据《中华人民共和国继承法》第十七条规定，遗嘱应当由遗嘱人亲笔书写，签名，注明年、月、日。"
    )
    r = gov.govern(text, strategy="efa", as_of=AS_OF)
    assert "第一千一百三十八条" not in r.text
    assert "《中华人民共和国民法典》第一千一百三十四条" in r.text
    (e,) = [e for e in r.edits if e.op == "replace_repealed"]
    assert "proof:" in e.reason and "第2款" in e.reason
