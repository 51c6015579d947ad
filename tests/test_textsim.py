"""verifiers/textsim.py: the fast paths of ``normalize``/``content_chars``/``bigrams`` equal the
character-by-character definitions they replaced (results must be identical, issue 16)."""

from __future__ import annotations

import re
import sys
import unicodedata

import pytest

from verifiers import textsim
from verifiers.textsim import bigrams, content_chars, fold_numerals, normalize


def _normalize_by_char(text: str) -> str:
    s = fold_numerals(unicodedata.normalize("NFKC", text).translate(textsim._ZERO_WIDTH))
    return "".join(ch for ch in s if ch.isalnum())


def _bigrams_by_char(text: str) -> frozenset[str]:
    s = "".join(ch for ch in _normalize_by_char(text) if ch not in textsim._FUNCTION_CHARS)
    if len(s) < 2:
        return frozenset([s]) if s else frozenset()
    return frozenset(s[i : i + 2] for i in range(len(s) - 1))


def test_regex_word_class_is_isalnum_plus_underscore_on_every_code_point() -> None:
    word = re.compile(r"\w")
    odd = [
        c
        for c in range(sys.maxunicode + 1)
        if bool(word.match(chr(c))) != (chr(c).isalnum() or chr(c) == "_")
    ]
    assert odd == []


@pytest.mark.parametrize(
    "text",
    [
        "",
        "的",
        "甲",
        "_",
        "a_b",
        "借款的利率不得违反国家有关规定。",
        "《中华人民共和国民法典》第577条：当事人一方不履行合同义务的，应当承担违约责任。",
        "年满１６周岁的人，处5000元以下罚款；2021年1月1日施行",
        "（一）不满十八周岁；\n（二）其他情形\u200b\ufeff",
        "Ⅷ ½ ² ٣ ① ⅷ ＡＢＣ ａｂｃ x²",  # numeric, superscript, Arabic-Indic, circled
        "  \t\n\u3000！？。，、；：「」『』（）【】《》〈〉—…·",
        "者之其的了和与及或者而在对于将被把由以等即也就",
        "e\u0301 ﬁ ﬀ Å",  # combining accent, ligatures, compatibility forms
    ],
)
def test_fast_normalisation_equals_the_per_character_definition(text: str) -> None:
    assert normalize(text) == _normalize_by_char(text)
    assert content_chars(text) == "".join(
        ch for ch in _normalize_by_char(text) if ch not in textsim._FUNCTION_CHARS
    )
    assert bigrams(text) == _bigrams_by_char(text)


def test_pooled_containment_weighs_bigrams_by_their_rarity_among_the_candidates() -> None:
    """IDF over the candidates themselves; a bigram no candidate holds (款不, a layperson's
    phrasing) is left out of the denominator instead of diluting every share."""
    import math

    wholes = ["借款合同", "借款人不还款", "合同"]
    got = textsim.pooled_containment("借款不还", wholes)
    w_loan, w_unpaid = math.log(4 / 2.5), math.log(4 / 1.5)  # df 2 and 1 of n = 3
    assert got == pytest.approx([w_loan / (w_loan + w_unpaid), 1.0, 0.0])
    assert textsim.containment("借款不还", wholes[1]) == pytest.approx(2 / 3)  # plain: diluted
    assert textsim.pooled_containment("", wholes) == [0.0, 0.0, 0.0]
    assert textsim.pooled_containment("借款", []) == []
