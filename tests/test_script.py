"""Traditional characters read as simplified (issue 15 item 6), offsets kept."""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.text.sanitize import draft_warnings
from governor.text.script import language, simplified, traditional_offsets


@pytest.mark.parametrize(
    "text,expected",
    [
        ("根據《著作權法》第五十四條第二款", "根据《著作权法》第五十四条第二款"),
        ("可參見（2023）滬73民終12345號判決。", "可参见（2023）沪73民终12345号判决。"),
        ("房屋損壞後來修好了", "房屋损坏后来修好了"),  # 坏 is simplified already: never 坯
        ("乾隆年间", "乾隆年间"),
        ("根据《民法典》第五百七十七条", "根据《民法典》第五百七十七条"),
        ("", ""),
        ("條\ud800", "條\ud800"),  # a lone surrogate: left for textio to reject
    ],
)
def test_simplified_one_for_one(text: str, expected: str) -> None:
    out = simplified(text)
    assert out == expected and len(out) == len(text)
    assert (out is text) == (expected == text)


def test_traditional_offsets_and_warning() -> None:
    text = "根據《著作權法》"
    assert traditional_offsets(text) == [1, 5]
    assert any(w.startswith("traditional characters: 2") for w in draft_warnings(text))
    assert traditional_offsets("根据《著作权法》") == []


@pytest.mark.parametrize(
    "text,lang",
    [
        ("根据民法典第五百七十七条，违约方应承担责任。", "zh"),
        ("The court held that 42 U.S.C. § 1983 applies.", "en"),
        ("", "en"),
    ],
)
def test_language(text: str, lang: str) -> None:
    assert language(text) == lang


def test_traditional_statute_is_judged_like_its_simplified_form() -> None:
    gov = Governor()
    when = date(2024, 6, 1)
    trad = (
        "侵犯著作權的，應當按照權利人因此受到的實際損失給予賠償（《著作權法》第五十四條第一款）。"
    )
    simp = (
        "侵犯著作权的，应当按照权利人因此受到的实际损失给予赔偿（《著作权法》第五十四条第一款）。"
    )
    (t,) = gov.verify(trad, as_of=when)
    (s,) = gov.verify(simp, as_of=when)
    labels = [(v.existence.label, v.fidelity.label, v.applicability.label) for v in (t, s)]
    assert labels[0] == labels[1] and labels[0][0] == "exists"
    assert t.item_trust == s.item_trust
    assert t.citation.raw == "《著作權法》第五十四條第一款"  # spans index the text as given
    assert trad[t.citation.span.start : t.citation.span.end] == t.citation.raw
