"""A recital of one clause of a provision when the question's facts meet another of its clauses.

A lawyer answering 「我现在还在试用期想辞职…」 from 劳动合同法第三十七条 reads its second sentence,
「劳动者在试用期内提前三日通知用人单位，可以解除劳动合同」; a report that recites only the first
(「劳动者提前三十日以书面形式通知用人单位，可以解除劳动合同」) and advises a month's notice states the
article's words faithfully and still gives the wrong rule for the facts. So does 「故意伤害他人身体的，
处三年以下有期徒刑…」 (刑法第二百三十四条第一款) for a question whose victim was 打成重伤: 第二款
「致人重伤的，处三年以上十年以下有期徒刑」 is the clause the facts meet. Both passed silently on word
overlap (review seed 33, wrong-but-silent 3 and 57 of sample a).

The rule (:func:`omitted_fact_clause`): the provision's rules are cut into clauses (sentences,
款, and 「；」 parts); the report must restate one of them (``Thresholds.fact_clause_restated`` of
its bigrams, and every word of its trigger) and leave another out; the left-out clause's condition (its 「……的」 trigger, or the words before its
modal) holds a word that no restated clause holds, that the report's words do not use,
that the question uses as a word, and that is distinctive in the store (IDF at least
``Thresholds.fact_clause_term_idf``: 试用期, 重伤, 非机动车, not 要求, 履行, 驾驶); a trigger qualified
by intent or degree (:data:`QUALIFIER`) is met only when the question states the qualifier. Words every clause of the law shares (劳动者, 用人单位) are thereby excluded, and
a report that mentions the fact (试用期) is taken to address it. Fidelity judges the citation
``partially_faithful`` (the rest is the article's) with the left-out clause as its evidence, and the
reader's note quotes it (:data:`FACT_CLAUSE_LEAD`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from governor.authorities.store import tokenize_cached
from governor.core.config import Thresholds
from governor.core.models import CheckResult
from verifiers.roles import source_pairs
from verifiers.textsim import containment, normalize

FACT_CLAUSE_LEAD = "facts: "
"""How a Fidelity rationale of this check begins; its first evidence is the clause left out."""

_CLAUSE = re.compile(r"[^。；;\n]+")
_RULE = re.compile(
    r"可以|应当|不得|有权|必须|处(?:[一二三四五六七八九十百千万\d]|拘役|管制|罚金|警告)|由"
)
_MODAL = re.compile(r"可以|应当|不得|有权|必须|处|由")
_COMMON = frozenset(
    {"规定", "情形", "有关", "相关", "依照", "依法", "按照", "根据", "其他", "本法", "前款", "下列"}
)
MIN_TERM = 2
"""A trigger word has at least two characters (a jieba word of one is a particle or a verb)."""


def clauses(text: str) -> list[str]:
    """The rule clauses of ``text``: its sentences, 款 and 「；」 parts that state a rule (a modal,
    a 处 penalty or a 由 payer), stripped."""
    return [c.strip(" ，,：:") for c in _CLAUSE.findall(text) if _RULE.search(c)]


def trigger(clause: str) -> str:
    """The condition part of a rule clause: its 「……的」 conditions joined, else the words
    before its first modal (「劳动者在试用期内提前三日通知用人单位」), else 「」."""
    pairs = source_pairs(clause)
    if pairs:
        return "".join(c for c, _cons, _at in pairs)
    m = _MODAL.search(clause)
    return clause[: m.start()] if m is not None and m.start() > 0 else ""


def _terms(text: str) -> list[str]:
    return list(
        dict.fromkeys(
            w
            for w in (normalize(t) for t in tokenize_cached(text))
            if len(w) >= MIN_TERM and w not in _COMMON and not w.isdigit()
        )
    )


QUALIFIER = re.compile(r"故意|过失|恶意|明知|情节(?:严重|恶劣|特别严重)|多次|屡次|拒不")
"""Words that qualify a trigger's act (intent, degree, repetition): a clause whose trigger carries
one is met only by a question that states it — 道路交通安全法第七十六条第二款 「由非机动车驾驶人、
行人故意碰撞机动车造成的」 is not met by a question about a 碰撞 (dev chatglm2-6b 3-8 265)."""


def omitted_fact_clause(
    said: str,
    question: str,
    article: str,
    th: Thresholds,
    weight: Callable[[str], dict[str, float]] = lambda t: {},
    frame: Callable[[str], bool] = lambda w: False,
) -> tuple[str, str] | None:
    """``(clause, term)``: a clause of ``article`` the report's words ``said`` leave out whose
    trigger holds ``term``, a word of the ``question`` (module docstring); None when the report
    restates no clause, the question is empty, or no left-out clause is triggered.

    Args:
        said: the report's words for the provision (description, claim and assertion text).
        question: the question the report answers (its facts).
        article: the cited provision's text.
        th: ``fact_clause_restated`` (share of a clause's bigrams ``said`` holds for it to be
            restated; any other clause is left out — a clause sharing many words with the
            restated one, as 第三十七条's two sentences do, is still another rule) and
            ``fact_clause_term_idf`` (the least IDF of a trigger word in the store).
        weight: word → IDF over the store (:meth:`AuthorityStore.word_weights`); a word it
            does not weigh is not distinctive.
        frame: True for a word of the law's frame (its title, scope article or the words most
            of its articles use: :func:`verifiers.fidelity.law_frame`), which names the law's
            subject, not a fact (「招标」 in a question about the 招标投标法: the perturbation
            suite's research-report query).
    """
    q = normalize(question)
    if not q or not said:
        return None
    units = clauses(article)
    if len(units) < 2:
        return None
    s = normalize(said)
    restated = [
        u
        for u in units
        if containment(u, said) >= th.fact_clause_restated
        and all(t in s for t in _terms(trigger(u)))
    ]
    if not restated:
        return None
    held = s + "".join(normalize(u) for u in restated)
    asked = set(_terms(question))
    for u in units:
        if u in restated:
            continue
        cause = trigger(u)
        if any(m.group(0) not in q for m in QUALIFIER.finditer(cause)):
            continue
        met = [t for t in _terms(cause) if t not in held and t in asked and not frame(t)]
        idf = weight(" ".join(met)) if met else {}
        met = [t for t in met if idf.get(t, 0.0) >= th.fact_clause_term_idf]
        if met:
            return u, max(met, key=len)  # 试用期 rather than its part 试用
    return None


_TERM_SAID = re.compile(r"the question's 「(?P<term>[^」]+)」")


def fact_clause(check: CheckResult) -> tuple[str, str] | None:
    """``(clause, term)`` of a Fidelity result of this check (:data:`FACT_CLAUSE_LEAD`; the
    clause is its first evidence), for the reader's note; None for any other result."""
    if not check.rationale.startswith(FACT_CLAUSE_LEAD) or not check.evidence:
        return None
    m = _TERM_SAID.search(check.rationale)
    return (check.evidence[0].text, m.group("term")) if m is not None else None
