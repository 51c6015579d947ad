"""What a report adds to a provision's list or text (Fidelity, issue 21).

A recital that keeps the provision's lead verbatim and adds content of its own reads faithful
on word overlap. Three classes a lawyer sees at once (fresh reviewers, dev LawBench silent
samples rev35, wrong-but-silent):

* **items the provision does not list** — among its real ones (劳动合同法第三十八条 given
  「未及时足额为劳动者提供职业培训」, 劳动法第四十四条 given a third item 「延长工作时间工资报酬的
  计算基数为正常工作时间工资」 on the lines after the lead: :func:`recited`,
  :func:`foreign_items`);
* **an exception the provision does not make** — 「但是劳动合同可以约定不满二年的期限」 appended to
  劳动合同法第五十八条's verbatim rule, 「但法律另有规定或者经营者与消费者另有约定的除外」 to
  消费者权益保护法第二十五条 (:func:`invented_exception`);
* **a sanction the provision does not impose** — 「予以口头警告、罚款或者吊销机动车驾驶证」 for
  道路交通安全法第九十三条, which warns and fines (:func:`invented_sanction_kinds`).

Guards against false alarms: an item is the provision's when it holds
``th.list_item_held`` of one of its items or of an article it refers to, when every content
word of it stands in the article, when it is a catch-all (「其他…」) or the report gives its
items as examples (例如/比如/包括); an exception is the provision's when each alternative of it
holds ``th.list_exception_held`` of one of the provision's own exception clauses or all of its
content words stand in the article; a sanction kind is judged only for a provision that imposes
a penalty itself and takes none from another.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from governor.authorities.store import tokenize_cached
from governor.core.config import Thresholds
from governor.core.models import Assertion, CheckResult
from verifiers.patterns import CASE_FACTS, LIST_ITEM_MARK, MODALS
from verifiers.textsim import containment, normalize

MIN_ITEM = 6
"""Characters (normalised) a report's item needs to be judged (「醉酒或者吸毒的」 has 7)."""

ITEM_LEAD = "items: "
"""How a Fidelity rationale of items the provision does not list begins; each is quoted in
「」 after it (:func:`items_said`)."""

EXCEPTION_LEAD = "exception: "
"""How a Fidelity rationale of an exception the provision does not make begins."""

SANCTION_LEAD = "sanction: "
"""How a Fidelity rationale of a sanction the provision does not impose begins."""

MAX_QUOTED = 2
"""Items quoted in the rationale and the reader's note at most."""

_FUNCTION = frozenset(
    {*MODALS, "依法", "依照", "按照", "根据", "规定", "相关", "有关", "应该", "需要"}
)


def _words(text: str) -> tuple[str, ...]:
    return tuple(
        dict.fromkeys(w for w in (normalize(t) for t in tokenize_cached(text)) if len(w) >= 2)
    )


def lacking(part: str, texts: Sequence[str]) -> tuple[str, ...]:
    """Content words of ``part`` (two characters or more, without modal and source words)
    that none of ``texts`` holds (normalised)."""
    ts = [normalize(t) for t in texts]
    return tuple(w for w in _words(part) if w not in _FUNCTION and not any(w in t for t in ts))


def recited(desc: str, assertion: Assertion | None) -> str:
    """The report's words for the provision with the list they introduce on the lines after
    them (:attr:`Assertion.items`) appended as marked items, when the words themselves list
    fewer than two; ``desc`` otherwise."""
    if assertion is None or len(assertion.items) < 2 or len(LIST_ITEM_MARK.findall(desc)) >= 2:
        return desc
    return desc + "：" + "".join(f"（{k}）{x}；" for k, x in enumerate(assertion.items, 1))


_EXAMPLES = re.compile(r"(?:例如|比如|譬如|诸如|包括但不限于|举例)")
_CATCH_ALL = re.compile(
    r"^(?:其他|其它|等其他)|(?:规定的)?其他(?:[^，。]{0,12})(?:情形|行为|事项|情况)$"
)


def foreign_items(
    mine: Sequence[str],
    own: Sequence[str],
    article: str,
    th: Thresholds,
    lead: str = "",
    referred: Sequence[str] = (),
) -> tuple[str, ...]:
    """The report's items (``mine``, each of :data:`MIN_ITEM` characters) that are none of
    the provision's ``own`` items nor state an article they refer to (``referred``), in order.

    Each report item is matched to the provision item holding most of its bigrams, one to
    one (best pairs first); an item is foreign when it holds below ``th.list_item_held`` in
    the item it is matched to (or, unmatched, in every one) and in every referred text, has a
    content word the whole ``article`` lacks, and is no catch-all (「法律、行政法规规定的其他
    情形」) where the provision ends its list with one. A second item matched only to an item another one already restates is foreign when
    it lacks words of the article (劳动法第四十四条 given 「延长工作时间工资报酬的计算基数为正常工作时间
    工资」 after its own 「安排劳动者延长工作时间的…」: 0.47 of that item, 计算 and 基数 in no word of
    the article; dev qwen-7b-chat 3-8 465, rev35 wrong-but-silent). Empty when the report gives
    its items as examples (``lead`` holds 例如/比如/包括…).
    """
    if _EXAMPLES.search(lead):
        return ()
    # a catch-all is the provision's only when it ends its own list with one (婚姻法第四十六条
    # lists four faults and no 「其他导致离婚的情形」: dev qwen-7b-chat 3-8 299)
    own_catch_all = any(_CATCH_ALL.search(t.rstrip("的等。；;")) for t in own)
    pairs = sorted(
        ((containment(m, t), i, j) for i, m in enumerate(mine) for j, t in enumerate(own)),
        reverse=True,
    )
    held: dict[int, float] = {}
    taken: set[int] = set()
    for score, i, j in pairs:
        if i in held or j in taken:
            continue
        held[i] = score
        taken.add(j)
    return tuple(
        m
        for i, m in enumerate(mine)
        if held.get(i, 0.0) < th.list_item_held
        and max((containment(m, t) for t in referred), default=0.0) < th.list_item_held
        and not (own_catch_all and _CATCH_ALL.search(m.rstrip("的等。；;")))
        and lacking(m, [article, *referred])
    )


def items_rationale(absent: Sequence[str], listed: int) -> str:
    """The rationale of items the provision does not list, each quoted (at most
    :data:`MAX_QUOTED`)."""
    quoted = "、".join(f"「{i[:40]}」" for i in absent[:MAX_QUOTED])
    return (
        ITEM_LEAD + f"the report lists {quoted} among the provision's items "
        f"({len(absent)} of {listed} not the provision's); the provision lists no such item"
    )


_SAID = re.compile(r"「([^」]+)」")


def items_said(check: CheckResult) -> tuple[str, ...]:
    """The items a Fidelity result says the provision does not list, for the reader's note."""
    if not check.rationale.startswith(ITEM_LEAD):
        return ()
    head = check.rationale.split(" among ", 1)[0]
    return tuple(_SAID.findall(head))[:MAX_QUOTED]


_EXCEPTION = re.compile(
    r"[，,；;]\s*但(?:是)?[，,]?(?P<exc>[^。；;！!？?\n]{4,60}?)(?:的)?(?:除外|不在此限)"
    r"|[，,；;]\s*但(?:是)?[，,]?(?P<exc2>[^。；;！!？?\n]{4,60})"
)
"""A 但书 the report appends to a rule: 「，但…除外」 / 「，但是…」 to the end of the sentence."""

_SOURCE_EXCEPTION = re.compile(
    r"但(?:是)?[^。；;]*|除[^。；;，,]{1,40}外[^。；;]*|[^。；;，,]*另有[^。；;]*|[^。；;]*不在此限"
)
"""The provision's own exception clauses (但…, 除…外, …另有约定/规定…, 不在此限)."""

_ALTERNATIVES = re.compile(r"或者|或|以及|、")


def invented_exception(
    desc: str, source: str, th: Thresholds, referred: Sequence[str] = ()
) -> str | None:
    """The exception (「但…除外」/「但是…」) ``desc`` appends to a rule it restates
    (``th.list_exception_rule`` of the words before 但 in ``source``) that the provision does
    not make: an alternative of it (split on 或者/、) below ``th.list_exception_held`` of
    its bigrams in every exception clause of ``source`` with a content word ``source`` and the
    ``referred`` articles lack; None otherwise, and for an exception that applies the rule to
    the case (本案, 你 …)."""
    for m in _EXCEPTION.finditer(desc):
        exc = (m.group("exc") or m.group("exc2") or "").strip(" ，,")
        rule = desc[: m.start()]
        rule = rule[rule.rfind("。") + 1 :]
        if not exc or CASE_FACTS.search(exc) or containment(rule, source) < th.list_exception_rule:
            continue
        clauses = [c.group(0) for c in _SOURCE_EXCEPTION.finditer(source)]
        for alt in (a for a in _ALTERNATIVES.split(exc) if len(normalize(a)) >= 2):
            held = max((containment(alt, c) for c in clauses), default=0.0)
            if held < th.list_exception_held and lacking(alt, [source, *referred]):
                return exc
    return None


PENALTY_KINDS = (
    "无期徒刑",
    "有期徒刑",
    "死刑",
    "拘役",
    "管制",
    "罚金",
    "没收财产",
    "剥夺政治权利",
    "罚款",
    "拘留",
    "警告",
    "吊销",
)
"""The kinds of penalty PRC law imposes (刑法第三十三条、第三十四条: 主刑 管制/拘役/有期徒刑/无期徒刑/
死刑, 附加刑 罚金/剥夺政治权利/没收财产; 行政处罚法第九条: 警告、罚款、吊销、拘留 …)."""

SANCTION_KINDS = (*PENALTY_KINDS, "暂扣", "责令停产停业")
"""With the administrative measures a sanction list names beside them (行政处罚法第九条:
暂扣许可证件、责令停产停业)."""

_KIND = "|".join(SANCTION_KINDS)
IMPOSES = re.compile(
    r"(?:处以?|予以|给予|并处|并可以|可以)[^。；;，,]{0,20}?(?:" + _KIND + r")[^。；;\n]*"
)
"""A sanction clause: 处/予以/给予 + range + kind, to the end of its clause (「予以口头警告、罚款或者
吊销机动车驾驶证」)."""

PENALTY_ELSEWHERE = re.compile(r"(?:依照|按照|依)[^。；;]{0,40}?(?:处罚|论处|定罪处罚|规定处理)")
"""A provision that takes its penalty from another one (「依照前款的规定处罚」, 「依照本法第二百三十四条
的规定定罪处罚」): the kinds it names are not all the kinds that apply."""


def invented_sanction_kinds(
    desc: str,
    source: str,
    clause: re.Pattern[str] = IMPOSES,
    kinds: Sequence[str] = SANCTION_KINDS,
) -> tuple[str, ...]:
    """Kinds of penalty (of ``kinds``) a sanction clause (``clause``) of ``desc`` names that
    ``source`` never names, when ``source`` imposes a penalty itself (a ``clause`` of its own)
    and takes none from another provision (:data:`PENALTY_ELSEWHERE`); in order, without
    repeats. :func:`verifiers.fidelity.invented_penalty_kinds` reads 「处…」 clauses and the
    penalties alone with it."""
    if PENALTY_ELSEWHERE.search(source) or clause.search(source) is None:
        return ()
    src = normalize(source)
    found: list[str] = []
    for m in clause.finditer(desc):
        for kind in kinds:
            if kind in m.group(0) and kind not in src and kind not in found:
                found.append(kind)
    return tuple(found)


_EXC_SAID = re.compile(r"^exception: the report adds 「(?P<x>[^」]+)」")
_SANCTION_SAID = re.compile(r"^sanction: the report's sanction names (?P<x>[^;]+);")


def note_head(check: CheckResult) -> str | None:
    """The reader's note for a Fidelity result of this module; None for other results."""
    if items := items_said(check):
        return "该条文所列情形中并无" + "、".join(f"「{i}」" for i in items)
    if m := _EXC_SAID.match(check.rationale):
        return f"该条文并无「但{m['x']}」的例外规定"
    if m := _SANCTION_SAID.match(check.rationale):
        return f"该条文未规定「{m['x']}」的处罚"
    return None
