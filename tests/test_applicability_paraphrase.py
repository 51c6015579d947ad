"""Another provision's words in the report: a paraphrase is not proof (issue 15, "correct kept").

A model that cites the right article often describes it in the instrument's general vocabulary
(「建立健全安全生产责任制…提高安全生产水平」), which overlaps a general or procedural article
(安全生产法第四条, 第八十六条) more than the cited one without being its text. Fidelity stays
``misdescribed`` (the report does not state the cited provision), but

* fidelity step 4 names the other provision at half confidence unless the report's words are
  its text near-verbatim (:func:`verifiers.fidelity.paraphrase_confidence`), so no repair acts
  on the guess;
* applicability rule 3 (「the claim states the rule of another provision」 → ``irrelevant``) does
  not overrule a cited provision ranked among the best for claim + question when the claim is
  only such a paraphrase.

The statute text is the evidence: each row checks, on the bundled store, how much of the
report's words the named provision holds verbatim. Scenarios and answers are LawBench 3-2 dev
items (安全生产法 185, 红十字会法 205, 证券法 034); the reference labels are not used.
"""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.authorities import load_default_store
from governor.core.config import load_config
from governor.core.models import Authority, Suggestion
from verifiers.fidelity import PARAPHRASE_FACTOR, paraphrase_confidence
from verifiers.suggest import NEAR_VERBATIM
from verifiers.textsim import verbatim_share

AS_OF = date(2023, 7, 1)
SAFETY_Q = (
    "某家化工厂在生产过程中发现一项可能存在风险的问题。根据相关法律法规，该化工厂应该如何处理"
    "这个问题？"
)
RED_CROSS_Q = (
    "某红十字会义工在慰问老人的过程中，发现有人试图私分红十字会的物资。根据某某法的哪一条规定，"
    "任何组织和个人不得私分、挪用、截留或者侵占红十字会的财产？"
)
SECURITIES_Q = (
    "某证券公司在日常经营过程中，未能按照要求保存相关文件和资料，在年末审计时被查出。根据何法令，"
    "未按规定保存有关文件和资料的证券公司可能会受到什么惩罚？"
)
SAFETY = "中华人民共和国安全生产法"


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config(overrides={}, environ={}), store=load_default_store())


@pytest.mark.parametrize(
    "text,context,fidelity,applicability,named,offered,verbatim",
    [
        # the cited article (第四十一条: 隐患排查治理, 「及时发现并消除事故隐患」) ranks 2nd for
        # claim + question; the words paraphrase 第四条's general duties (verbatim 0.76 < 0.8)
        ("《中华人民共和国安全生产法》第四十一条规定，生产经营单位应当建立健全安全生产责任制，加强安全生产管理，建立安全生产规章制度，改善安全生产条件，提高安全生产水平，及时消除安全生产隐患。因此，化工厂应当对该问题进行及时处理，消除安全隐患。",
         SAFETY_Q, "misdescribed", "supports", (SAFETY, "4"), False, False),
        # 「有关部门应当依法及时处理」: administrative boilerplate; 第八十六条 (事故调查处理) holds
        # its vocabulary, not its text (verbatim 0.39, the same as the cited article's)
        # (the regression of the naming/retrieval merge, the question's 长江保护法第十条 standing
        # where the judges' 第八十六条 stood, is gone on the naming5 branch: asking-sentence
        # ranking of the question's candidates, cited-top guard)
        ("根据《安全生产法》第四十一条规定，生产经营单位发现生产安全事故隐患的，应当及时向有关地方人民政府安全生产监督管理部门和有关部门报告。因此，根据《安全生产法》第四十一条的规定，有关地方人民政府安全生产监督管理部门和有关部门应当依法及时处理。",
         SAFETY_Q, "misdescribed", "partially_supports", (SAFETY, "86"), False, False),
        # the words are 红十字会法第二十五条's text verbatim, cited as 第十七条: proof, kept
        ("根据《中华人民共和国红十字会法》第十七条规定，任何组织和个人不得私分、挪用、截留或者侵占红十字会的财产。",
         RED_CROSS_Q, "misdescribed", "irrelevant", ("中华人民共和国红十字会法", "25"), True, True),
        # a paraphrase of 证券法第二百一十四条, but the cited 第一百二十五条 ranks > 20 for the
        # proposition: rule 3 still decides (irrelevant, the other provision suggested)
        ("根据《证券法》第一百二十五条第一款的规定，未按规定保存有关文件和资料的证券公司，可以被责令改正，给予警告，并处以二十万元以上五十万元以下的罚款。",
         SECURITIES_Q, "misdescribed", "irrelevant", ("中华人民共和国证券法", "214"), True, False),
    ],
)  # fmt: skip
def test_other_provisions_words(
    gov: Governor,
    text: str,
    context: str,
    fidelity: str,
    applicability: str,
    named: tuple[str, str],
    offered: bool,
    verbatim: bool,
) -> None:
    v = gov.verify(text, as_of=AS_OF, context=context)[-1]
    assert v.fidelity.label == fidelity, v.fidelity.rationale
    assert v.applicability.label == applicability, v.applicability.rationale
    s = v.suggestion
    assert s is not None, (v.fidelity.rationale, v.applicability.rationale)
    assert (s.authority.instrument, s.authority.article) == named
    min_score = gov.config.thresholds.suggestion_min_score
    assert (s.score >= min_score) is offered, s.score
    # the evidence: does the named provision hold the report's words near-verbatim?
    said = v.citation.description or v.citation.claim
    share = verbatim_share(said, s.authority.text)
    assert (share >= NEAR_VERBATIM) is verbatim, share


@pytest.mark.parametrize(
    "share,score,expected",
    [
        (1.0, 0.9, 0.9),  # the provision's own text: proof, confidence kept
        (NEAR_VERBATIM, 0.7, 0.7),
        (NEAR_VERBATIM - 0.01, 0.7, 0.7 * PARAPHRASE_FACTOR),  # a paraphrase: a guess
        (0.0, 0.63, 0.63 * PARAPHRASE_FACTOR),
    ],
)
def test_paraphrase_confidence(share: float, score: float, expected: float) -> None:
    auth = Authority(id="x#1", instrument="x", level="法律", article="1", text="…")
    got = paraphrase_confidence(Suggestion(authority=auth, score=score, reason="r"), share)
    assert got.score == pytest.approx(expected)
    assert got.authority == auth
