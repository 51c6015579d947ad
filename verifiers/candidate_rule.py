"""Whether a candidate provision states the rule a citation's words state (issue 22, naming).

A note 「可能应为《X》第N条」 tells the reader that the claim's rule is in 第N条. Ranking a
candidate by the question and by word overlap lets two kinds of wrong provision through
(fresh review of seed 35):

* **the conditions' words without the consequence** — the candidate shares what the claim's
  「……的」 part names (登记证书、号牌; 父母或者其他监护人不依法履行监护职责) but imposes another
  consequence, while another article of the same law holds the claim's consequence nearly
  verbatim (道路交通安全法第九条 (登记) for 「……的，由公安机关交通管理部门予以收缴」, which is
  第九十六条's; 未成年人保护法第一百零八条 (人身安全保护令) for 「……的，由其所在单位或者居民委员会、
  村民委员会予以劝诫、制止」, which is 第一百一十八条's). :func:`consequence_holder` finds that other
  article; the store-wide candidate then gives way to it (``verifiers.suggest.consequence_first``)
  and a note never names the one it displaced (``governor.revision.policy``);
* **another subject** — the candidate states the rule for an entity whose name extends the
  claim's by a head noun the claim lacks (《农民专业合作社法》第五十八条's 「农民专业合作社联合社的
  成员」 for 「农民专业合作社成员」, whose rule is 第六条): :func:`subject_qualifier`.

Both are read from the texts (the claim's assertion parts, ``jieba`` words), never from a
list of provisions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import NamedTuple, TypeVar

from governor.citations.assertion import parts as assertion_parts
from governor.core.config import DEFAULT_THRESHOLDS
from verifiers.textsim import containment, folded, normalize, verbatim_share

ACT_MIN_CHARS = 4
"""An act shorter than this (normalised characters: 处罚, 赔偿) names no particular consequence."""
ACT_HELD = DEFAULT_THRESHOLDS.policy_candidate_act_held
"""Share of an act's bigrams a provision must hold to hold that act (:func:`holds_an_act`)."""
CONDITIONS_HELD = DEFAULT_THRESHOLDS.candidate_conditions_held
"""Share of the claim's condition words a candidate must hold for it to be one that shares the
conditions only (:func:`consequence_holder`)."""
ACT_VERBATIM = DEFAULT_THRESHOLDS.candidate_act_verbatim
"""Share of an act (runs of four or more characters) another article must hold verbatim to be
the one stating the claim's consequence (:func:`consequence_holder`)."""

_ACTOR_HEAD = re.compile(
    r"^由[^，,。；;]{1,24}?(?=予以|依法|应当|可以|给予|责令|处以|处|负责|承担|支付|没收|吊销|收缴)"
)
"""「由公安机关交通管理部门」 before the act: who acts, not what is done."""
_ACTOR_WITHIN = re.compile(
    r"由[^，,。；;由]{1,24}?(?=予以|依法|给予|责令|处以|负责|没收|吊销|收缴)"
)
"""The same inside a consequence (「…将面临由其所在单位…予以劝诫」), before an act verb that
only an authority performs (not 应当/承担/支付, which the claim's own subject may do)."""
_MODAL_HEAD = re.compile(r"^(?:依法|应当|可以|必须|应)+")
_CORE_MODAL = re.compile(r"^(?:应当|可以|必须|有权|应|须)")
_TO_WHOM = re.compile(r"^向[^，,。；;]{1,8}?(?=支付|赔偿|承担|提供|返还|退还|给予|补偿|发放)")
_SEGMENTS = re.compile(r"[^；;。！？!?\n]+")


class ClaimRule(NamedTuple):
    """One rule a claim states: its 「……的」 conditions and the act of its consequence."""

    conditions: str
    act: str


def act_core(consequence: str) -> str:
    """A consequence without its leading modal and the party it is owed to, normalised:
    「应当向劳动者支付经济补偿」 → 「支付经济补偿」. Also the reading of
    :func:`verifiers.applicability.consequence_core`."""
    return _TO_WHOM.sub("", _CORE_MODAL.sub("", normalize(consequence)))


def act_of(consequence: str) -> str:
    """The act of a consequence without who acts (「由…」), the modal and the party it is owed
    to (as ``verifiers.applicability.consequence_core`` reads it): 「由公安机关交通管理部门予以收缴」 → 「予以收缴」;
    ``""`` when shorter than :data:`ACT_MIN_CHARS`."""
    cons = consequence.strip()
    cons = cons[_inner_actor(cons)[1] :]
    act = _MODAL_HEAD.sub("", _ACTOR_HEAD.sub("", cons))
    core = act_core(act)
    return core if len(folded(core)) >= ACT_MIN_CHARS else ""


def _inner_actor(consequence: str) -> tuple[int, int]:
    """Where the last 「由…」 actor inside ``consequence`` starts and ends (``(0, 0)`` when none):
    「…将面临由其所在单位…予以劝诫、制止」 — the act is what the named actor does, the words before
    it say to whom."""
    inner = list(_ACTOR_WITHIN.finditer(consequence))
    return inner[-1].span() if inner else (0, 0)


@lru_cache(maxsize=512)
def claim_rules(said: str) -> tuple[ClaimRule, ...]:
    """The rules ``said`` states, one per sentence or 「；」 part with an act
    (:func:`governor.citations.assertion.parts`: its consequence is the last clause, its
    conditions the 「……的」 clauses before it; the conditions here are all the words before the
    act: the clauses before the consequence and, when a 「由…」 actor stands inside it, the words
    before that actor)."""
    out: list[ClaimRule] = []
    for m in _SEGMENTS.finditer(said):
        seg = m.group(0).strip("，, ")
        if not seg:
            continue
        cons = str(assertion_parts(seg).get("consequence") or "").strip()
        act = act_of(cons) if cons else ""
        if not act:
            continue
        at = max(seg.rfind(cons), 0)
        # the conditions: the words before the consequence, and before an actor inside it
        conditions = (seg[:at] + cons[: _inner_actor(cons)[0]]).strip("，, ")
        out.append(ClaimRule(conditions, act))
    return tuple(out)


def holds_an_act(said: str, text: str) -> bool:
    """Whether ``text`` holds the act of one of the rules ``said`` states (:data:`ACT_HELD`);
    True when ``said`` states no act of :data:`ACT_MIN_CHARS` characters (nothing to judge)."""
    rules = claim_rules(said)
    return not rules or any(containment(r.act, text) >= ACT_HELD for r in rules)


def conditions_only(said: str, text: str) -> bool:
    """Whether ``text`` holds the conditions of a rule ``said`` states (:data:`CONDITIONS_HELD`)
    but the act of none of them: it shares what the claim's 「……的」 part names, not what the
    claim says follows."""
    rules = claim_rules(said)
    if not rules or holds_an_act(said, text):
        return False
    return any(r.conditions and containment(r.conditions, text) >= CONDITIONS_HELD for r in rules)


K = TypeVar("K")


def consequence_holder(
    said: str, cand_text: str, others: Iterable[tuple[K, str]]
) -> tuple[K, str] | None:
    """The ``(key, text)`` among ``others`` (provisions of the candidate's own law, best
    first) that states the rule of ``said`` whose consequence the candidate ``cand_text``
    lacks: when the candidate holds only the conditions (:func:`conditions_only`), the first
    other provision holding, for one rule of the claim whose conditions the candidate holds
    (:data:`CONDITIONS_HELD`), its act nearly verbatim (:data:`ACT_VERBATIM`) and its conditions
    at least as well as the candidate, and more of the claim's words. The act and the conditions
    are those of one rule: a penalty article holding the claim's fine and a bare 「情节严重的」 is
    not the rule of 「未按照…提交质量管理体系年度自查报告的，…」 (医疗器械监督管理条例第八十八条, whose
    项 list other cases). None otherwise — the candidate holds an act of the claim, or shares
    little of its conditions (a claim in invented words under a question whose answer is the
    candidate: 拍卖法第五十一条 for 「…逾期不支付的，应当承担违约责任」, the question's 成交 rule),
    or no other provision states it."""
    if not said or not conditions_only(said, cand_text):
        return None
    mine = containment(said, cand_text)
    rules = [
        (r, c)
        for r in claim_rules(said)
        if r.conditions and (c := containment(r.conditions, cand_text)) >= CONDITIONS_HELD
    ]
    for key, txt in others:
        if folded(txt) == folded(cand_text):
            continue
        if (
            any(
                verbatim_share(r.act, txt) >= ACT_VERBATIM and containment(r.conditions, txt) >= c
                for r, c in rules
            )
            and containment(said, txt) > mine
        ):
            return key, txt
    return None


_NOUN_FLAGS = ("n", "l")
"""``jieba.posseg`` flags read as nouns in a claim's subject (n, nt, nz, …; l: 合作社 is
tagged l)."""
_NOT_SUBJECT = frozenset("pvdcurxmqfa")
"""First letters of the flags that end a claim's leading subject (preposition, verb, adverb,
conjunction, particle, pronoun, punctuation, numeral, measure, locality, adjective)."""


@lru_cache(maxsize=1024)
def _tagged(text: str) -> tuple[tuple[str, str], ...]:
    import jieba.posseg as pseg

    return tuple((w.word, w.flag) for w in pseg.lcut(text))


def _subject(said: str) -> list[str]:
    """The words of the noun phrase ``said`` opens with (its subject): 「农民专业合作社成员以其…」
    → 农民, 专业, 合作社, 成员."""
    out: list[str] = []
    for word, flag in _tagged(said):
        if not flag or flag[0] in _NOT_SUBJECT or not flag.startswith(_NOUN_FLAGS):
            break
        out.append(word)
    return out


def subject_qualifier(said: str, cand_text: str) -> str | None:
    """The noun ``cand_text`` inserts into the subject ``said`` opens with, or None: a leading
    part of the claim's subject (whole ``jieba`` words, two characters or more) is followed in
    the candidate by a noun the claim never uses and then (after 「的」 at most) by the word that
    follows that part in the claim, and the candidate never has the claim's own wording there.
    The candidate then states its rule for another entity, whose head is that noun:
    「农民专业合作社联合社的成员」 (《农民专业合作社法》第五十八条) is no 「农民专业合作社成员」, nor
    「农民专业合作社联合社以其全部财产」 a 「农民专业合作社以其…」 (review seed 35, harmful). A qualifier
    before the subject (被派遣劳动者) keeps its head and is not read."""
    said_words = [w for w, _f in _tagged(said)]
    subject = _subject(said)
    if not subject:
        return None
    tagged = _tagged(cand_text)
    words = [w for w, _f in tagged]
    body = folded(said)
    for k in range(1, len(subject) + 1):
        lead = subject[:k]
        if len("".join(lead)) < 2 or k >= len(said_words):
            continue
        nxt = said_words[k]
        found: str | None = None
        own = False
        for i in range(len(words) - k):
            if words[i : i + k] != lead:
                continue
            after = words[i + k]
            if after == nxt:
                own = True
                break
            q, flag = tagged[i + k]
            tail = words[i + k + 1 : i + k + 3]
            if (
                flag.startswith("n")
                and len(q) >= 2
                and folded(q) not in body
                and (tail[:1] == [nxt] or tail == ["的", nxt])
            ):
                found = q
        if found is not None and not own:
            return found
    return None


def not_the_claims_rule(said: str, cand_text: str, others: Sequence[tuple[str, str]] = ()) -> str:
    """Why a candidate with ``cand_text`` is not to be named for ``said`` (``""``: no reason
    found): another article of its law (``others``) states the consequence it lacks
    (:func:`consequence_holder`), or it states its rule for another subject
    (:func:`subject_qualifier`)."""
    if not said:
        return ""
    q = subject_qualifier(said, cand_text)
    if q is not None:
        return f"the candidate's subject is qualified by 「{q}」, which the claim lacks"
    held = consequence_holder(said, cand_text, others)
    if held is not None:
        return (
            f"article {held[0]} states the claim's consequence; the candidate only its conditions"
        )
    return ""


__all__ = [
    "ClaimRule",
    "act_of",
    "claim_rules",
    "conditions_only",
    "consequence_holder",
    "holds_an_act",
    "not_the_claims_rule",
    "subject_qualifier",
]
