"""Who acts, and on what basis it is counted: a paraphrase must keep both (issue 21 item 2).

Two part-by-part checks of :func:`verifiers.roles.paraphrase_parts`:

* :func:`actor_changed` — the report's clause names an actor for an act (「X应当/必须/可以/有权/
  不得/负责 P」) and every clause of the provision that states the same act (the same predicate
  P: ``actor_same_act`` of its bigrams) names an actor of another kind
  (「职工应当按时足额缴纳社会保险费」 for 社会保险法第六十条, where 「用人单位应当自行申报、按时足额
  缴纳社会保险费」 and 「职工应当缴纳的社会保险费由用人单位代扣代缴」) → ``misdescribed``
  (「主体不一致」). When the report's act holds several the provision assigns to different actors,
  the report's among them (「由用人单位支付一次性工伤医疗补助金和一次性伤残就业补助金」 for 工伤保险条例
  第三十七条) → ``partially_faithful``.
* :func:`basis_changed` — the report counts a thing 「按照X计算/折算」 and the provision counts
  the same thing (``basis_same_thing`` of the clause's other words) 「按照Y计算/折算」 with a
  basis sharing less than ``basis_distinct`` with the report's, either way
  (「按照职工应当休年休假天数计算」 for 企业职工带薪年休假实施办法第十二条 「按照职工当年已工作时间
  折算」) → ``misdescribed`` (「计算基础不一致」).

Conservative by construction: an actor is compared only when both sides are one of the kinds of
:data:`ACTOR_KINDS` (employer, worker, fund, agency, court, the parties of a contract …), a
subject with a conjunction (「用人单位和职工」) is not read, and a clause of the provision with
the same act and no readable subject stops the check (it may be the report's actor).
"""

from __future__ import annotations

import re

from governor.core.config import Thresholds
from governor.core.models import Assertion, Evidence
from verifiers.judge import AxisOutcome, JudgeItem, outcome
from verifiers.textsim import containment, normalize

ACTOR_MARK = "主体不一致"
"""Opens the rationale of an actor failure (the reader's note names it)."""
BASIS_MARK = "计算基础不一致"
"""Opens the rationale of a counting-basis failure."""

ACTOR_KINDS: dict[str, tuple[str, ...]] = {
    "employer": ("用人单位", "单位", "企业", "雇主", "公司", "用人单位一方"),
    "worker": ("职工", "劳动者", "员工", "个人", "本人", "工伤职工", "女职工", "职工本人"),
    "fund": (
        "工伤保险基金",
        "基本医疗保险基金",
        "失业保险基金",
        "生育保险基金",
        "社会保险基金",
        "基本养老保险基金",
        "保险基金",
        "基金",
    ),
    "agency": (
        "社会保险经办机构",
        "社会保险费征收机构",
        "社会保险行政部门",
        "劳动行政部门",
        "劳动保障行政部门",
        "经办机构",
        "征收机构",
        "人民政府",
    ),
    "court": ("人民法院", "法院"),
    "procuratorate": ("人民检察院", "检察院"),
    "insurer": ("保险人", "保险公司"),
    "policyholder": ("投保人",),
    "insured": ("被保险人",),
    "lessor": ("出租人",),
    "lessee": ("承租人",),
    "seller": ("出卖人", "卖方"),
    "buyer": ("买受人", "买方"),
    "creditor": ("债权人",),
    "debtor": ("债务人",),
    "lender": ("贷款人", "出借人"),
    "borrower": ("借款人",),
    "principal": ("委托人",),
    "agent": ("受托人",),
    "employer_contractor": ("发包人",),
    "contractor": ("承包人",),
    "guarantor": ("保证人",),
    "consumer": ("消费者",),
    "operator": ("经营者",),
    "producer": ("生产者",),
    "retailer": ("销售者",),
    "motor": ("机动车一方", "机动车驾驶人", "机动车使用人", "机动车所有人", "机动车方"),
    "nonmotor": ("非机动车一方", "非机动车驾驶人", "非机动车方", "行人"),
    "tax": ("税务机关",),
}
"""Kinds of actor a statute assigns acts to, each with the words that name it (from the
social-insurance, labour and contract texts in the store: 社会保险法, 工伤保险条例, 劳动合同法,
民法典合同编, 消费者权益保护法, 产品质量法, 道路交通安全法, 税收征收管理法). Only actors of two different kinds are compared: 员工 for 职工 is the same one;
用工单位 (labour dispatch) and the parties of other relations are not read."""

_TERMS = sorted(
    ((t, k) for k, ts in ACTOR_KINDS.items() for t in ts), key=lambda tk: len(tk[0]), reverse=True
)

_MODAL = re.compile(r"应当|必须|可以|有权|不得|无权|负责")
_CLAUSE = re.compile(r"[^，,；;。：:\n]+")
_CONJ = re.compile(r"[和与及或、]|以及|或者")
_LEAD = re.compile(r"^(?:因此|所以|同时|并且|而且|另外|此外|即|则|也|均|都|但是|但)")
_RELATIVE = re.compile(r"^[^，,；;。的]{1,6}的")
"""A modal phrase read as an attribute (「职工应当缴纳的社会保险费由…」): not a main clause."""
_BY = re.compile(
    r"由(?P<actor>[^，,；;。由\n]{2,12}?)(?P<pred>(?:代扣代缴|支付|缴纳|承担|负担|发放|赔偿|补偿|"
    r"给付|偿还|负责|核定|审核|征收)[^，,；;。\n]{0,20})"
)
BASIS_RE = re.compile(
    r"(?:按照|依照|依据)(?P<basis>[^，,；;。：:\n按依]{3,30}?)(?P<verb>计算|折算)"
)
"""A counting basis (按照X计算/折算)."""
_SENTENCE = re.compile(r"[^；;。\n]+")


def actor_kind(subject: str) -> str | None:
    """The kind of actor ``subject`` names (it is, or ends with, a word of
    :data:`ACTOR_KINDS`), or None (unknown, or two actors joined by a conjunction)."""
    s = normalize(subject)
    if not s or len(s) > 10 or _CONJ.search(s):
        return None
    for t, k in _TERMS:
        if s.endswith(t):
            return k
    return None


def _acts(text: str) -> list[tuple[str | None, str, str, bool]]:
    """``(actor kind, predicate, clause, subject read)`` of each clause of ``text`` that names
    who acts: 「X应当P」 (the subject is the clause's words before the modal) or 「由X P」.
    ``subject read`` is False for a modal clause with no words before the modal."""
    out: list[tuple[str | None, str, str, bool]] = []
    for cm in _CLAUSE.finditer(text):
        clause = cm.group(0).strip()
        for bm in _BY.finditer(clause):
            pred = bm.group("pred")
            if len(normalize(pred)) < 4:  # 「A由X支付」: the thing is named before 由
                pred += clause[: bm.start()]
            out.append((actor_kind(bm.group("actor")), normalize(pred), clause, True))
        m = _MODAL.search(clause)
        if m is None:
            continue
        pred = clause[m.end() :]
        if _RELATIVE.match(pred):
            continue
        subject = _LEAD.sub("", clause[: m.start()].strip())
        out.append((actor_kind(subject), normalize(pred), clause, bool(normalize(subject))))
    return out


def actor_changed(a: Assertion, item: JudgeItem, source: str, th: Thresholds) -> AxisOutcome | None:
    """``misdescribed`` / ``partially_faithful`` when the report's actor for an act is not the
    provision's (module docstring), else None."""
    if not _MODAL.search(a.text) and "由" not in a.text:
        return None
    theirs = [t for t in _acts(source) if len(t[1]) >= 4]
    for kind, pred, clause, _ in _acts(a.text):
        if kind is None or len(pred) < 4:
            continue
        # the same act, or a part of it (由X支付A和B: 由Y支付A, 由X支付B)
        same = [
            t
            for t in theirs
            if containment(pred, t[1]) >= th.actor_same_act
            or containment(t[1], pred) >= th.actor_same_act
        ]
        if not same or any(t[0] is None for t in same):
            continue
        differ = [t for t in same if t[0] != kind]
        if not differ:
            continue
        ev = (Evidence(text=differ[0][2], authority_id=item.authority.id),)
        agree = [t for t in same if t[0] == kind]
        if agree:
            return outcome(
                "fidelity",
                "partially_faithful",
                f"parts: {ACTOR_MARK}: the report says 「{clause}」; the provision assigns "
                f"part of it to another (「{differ[0][2]}」; 「{agree[0][2]}」)",
                codes=("L1.2.2",),
                evidence=ev,
            )
        return outcome(
            "fidelity",
            "misdescribed",
            f"parts: {ACTOR_MARK}: the report says 「{clause}」; the provision says "
            f"「{differ[0][2]}」",
            codes=("L1.2.2",),
            evidence=ev,
        )
    return None


def _bases(text: str) -> list[tuple[str, str, str]]:
    """``(basis, the clause's other words, clause)`` of each 按照X计算/折算 in ``text``; the
    clause is the comma clause for ``text`` read as a report, the sentence otherwise."""
    out: list[tuple[str, str, str]] = []
    for sm in _SENTENCE.finditer(text):
        s = sm.group(0)
        for m in BASIS_RE.finditer(s):
            out.append((m.group("basis"), s[: m.start()] + s[m.end() :], s))
    return out


def basis_changed(a: Assertion, item: JudgeItem, source: str, th: Thresholds) -> AxisOutcome | None:
    """``misdescribed`` when the report counts a thing on another basis than the provision
    (module docstring), else None."""
    if BASIS_RE.search(a.text) is None:
        return None
    src = normalize(source)
    theirs = _bases(source)
    if not theirs:
        return None
    for cm in _CLAUSE.finditer(a.text):
        clause = cm.group(0)
        for m in BASIS_RE.finditer(clause):
            basis = m.group("basis")
            if normalize(basis) in src:
                continue
            rest = _MODAL.sub("", clause[: m.start()] + clause[m.end() :])
            if len(normalize(rest)) < 4:
                continue
            same = [t for t in theirs if containment(rest, t[1]) >= th.basis_same_thing]
            if not same or any(
                containment(basis, b) >= th.basis_distinct
                or containment(b, basis) >= th.basis_distinct
                for b, _, _ in same
            ):
                continue
            b, _, s = same[0]
            return outcome(
                "fidelity",
                "misdescribed",
                f"parts: {BASIS_MARK}: the report counts 「按照{basis}{m.group('verb')}」; the "
                f"provision 「按照{b}」",
                codes=("L1.2.2",),
                evidence=(Evidence(text=s, authority_id=item.authority.id),),
            )
    return None
