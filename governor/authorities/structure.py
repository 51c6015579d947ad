"""Provision structure read from an article's text (SPEC §6 "provision structure"; layer 1).

For each article: its **roles** (what kind of rule it is), its **conditions** (「……的，」
clauses, 下列情形 items, 但书, scope words), its **consequences** (what a modal 应当/可以/有权
grants or imposes), the **terms it defines** (「……的，是自首」, 「共同犯罪是指……」) and its
outgoing **references** (本法第四十六条, 第三十九条第一款, 前款, 前条).

Computed lazily from the article text and cached per article key (:func:`structure_of`): the
bundled store file is not changed, so the structure is always that of the text in the store.
The rules follow the drafting conventions of 《立法技术规范（试行）（一）》 (全国人大常委会法工委,
2009, items 16-22); the patterns are in :mod:`governor.text.regexes` (``STRUCTURE_*``).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Literal, get_args

from governor.core.models import Frozen
from governor.core.records import ArticleRecord
from governor.text import regexes as rx
from governor.text.numerals import article_key, to_int

Role = Literal[
    "definition",
    "duty_right",
    "condition",
    "consequence",
    "penalty",
    "amount",
    "procedure",
    "cross_reference",
]
"""What kind of rule an article (or part of it) states."""

ConditionKind = Literal["clause", "list_item", "proviso", "scope"]
"""「……的，」 trigger clause · an item of a 下列情形 list · a 但书 · a scope word (仅/限于/除外)."""

_CONSEQUENCE_WORDS = (
    "无效",
    "有效",
    "可撤销",
    "承担",
    "赔偿",
    "支付",
    "解除",
    "撤销",
    "返还",
    "免除",
    "减轻",
    "从轻",
    "从重",
    "不予",
    "予以",
    "处罚",
)
"""Words of a legal consequence (an effect, a liability, a payment, a sentence)."""


class Condition(Frozen):
    """One condition of an article: ``kind``, its ``text`` and the 1-based 款 it is in."""

    kind: ConditionKind
    text: str
    paragraph: int


class Reference(Frozen):
    """One outgoing reference: ``article`` key (None for a relative 前款/本条 reference to a
    款 of the same article), ``paragraph``/``item`` (1-based, None when not given),
    ``relative`` (前款/前条/本条… or ``""``) and the ``text`` as written."""

    article: str | None
    paragraph: int | None = None
    item: int | None = None
    relative: str = ""
    text: str


class ProvisionStructure(Frozen):
    """The structure of one article (see the module docstring).

    Attributes:
        key: the article's store key (``ArticleRecord.key``).
        roles: the roles found, in a fixed order (``Role``).
        conditions: trigger clauses, list items, 但书 and scope words, in text order.
        consequences: the clauses a modal (应当/可以/有权/不得…) governs, modal included.
        defines: the terms the article defines (自首, 累犯, 共同犯罪).
        references: outgoing references, in text order.
    """

    key: str
    roles: tuple[Role, ...]
    conditions: tuple[Condition, ...]
    consequences: tuple[str, ...]
    defines: tuple[str, ...]
    references: tuple[Reference, ...]

    def has(self, role: Role) -> bool:
        """True when the article has ``role``."""
        return role in self.roles

    @property
    def grants(self) -> bool:
        """True when the article itself grants or imposes something (a modal consequence),
        as opposed to only measuring it (an amount rule) or defining a term."""
        return bool(self.consequences)


_ROLE_ORDER: tuple[Role, ...] = get_args(Role)  # the order roles are listed in


def _references(record: ArticleRecord, text: str, para: int) -> list[Reference]:
    out: list[Reference] = []
    for m in rx.STRUCTURE_REFERENCE_RE.finditer(text):
        if m.group("scope") == "本条":
            continue
        try:
            key = article_key(m.group("num"), m.group("suffix"))
        except ValueError:
            continue
        if key == record.article:
            continue
        out.append(
            Reference(
                article=key,
                paragraph=to_int(m.group("para")) if m.group("para") else None,
                item=to_int(m.group("item")) if m.group("item") else None,
                text=m.group(0),
            )
        )
    for m in rx.STRUCTURE_RELATIVE_RE.finditer(text):
        rel = m.group("rel")
        if rel == "上述":
            continue
        if rel == "前款":
            out.append(
                Reference(article=None, paragraph=max(para - 1, 1), relative=rel, text=m.group(0))
            )
        elif rel == "前两款":
            out.append(Reference(article=None, relative=rel, text=m.group(0)))
        elif rel in ("前条", "前两条"):
            out.append(Reference(article=None, relative=rel, text=m.group(0)))
    return out


def _consequences(text: str) -> list[str]:
    out: list[str] = []
    for sentence in _sentences(text):
        # the consequence follows the last 「……的，」 trigger (a modal inside the trigger,
        # 「应当判处有期徒刑以上刑罚之罪的」, is part of the condition)
        cut = sentence.rfind("的，")
        sentence = sentence[cut + 2 :] if cut >= 0 else sentence
        m = rx.STRUCTURE_MODAL_RE.search(sentence)
        if m is None:
            continue
        clause = sentence[m.start() :]
        clause = clause.split("，但")[0].rstrip("：:")
        if clause.endswith("除外"):
            continue  # an exception (…可以批准入境的除外), not a consequence granted
        if len(clause) >= 4:
            out.append(clause)
    return out


def _sentences(text: str) -> list[str]:
    parts: list[str] = []
    buf = ""
    for ch in text:
        buf += ch
        if ch in "。；\n":
            if buf.strip("。；\n "):
                parts.append(buf.strip("。；\n "))
            buf = ""
    if buf.strip():
        parts.append(buf.strip())
    return parts


def _analyse(record: ArticleRecord) -> ProvisionStructure:
    roles: set[Role] = set()
    conditions: list[Condition] = []
    consequences: list[str] = []
    defines: list[str] = []
    references: list[Reference] = []
    for i, para in enumerate(record.paragraphs, start=1):
        lead = para.text
        full = para.full_text
        for m in rx.STRUCTURE_DEFINITION_RE.finditer(full):
            term = next((g for g in m.groups() if g), "")
            term = term.strip('“”"「」 ')
            for prefix in ("本条所称", "本法所称"):
                term = term.removeprefix(prefix)
            if term and term not in defines:
                defines.append(term)
        for m in rx.STRUCTURE_CONDITION_RE.finditer(lead):
            cond = m.group("cond")
            if cond.startswith(("但是", "但")):
                continue  # part of the 但书, recorded below
            if not rx.STRUCTURE_LIST_LEAD_RE.search(cond):
                conditions.append(Condition(kind="clause", text=cond, paragraph=i))
        if para.items and rx.STRUCTURE_LIST_LEAD_RE.search(lead):
            conditions.extend(Condition(kind="list_item", text=t, paragraph=i) for t in para.items)
        for m in rx.STRUCTURE_PROVISO_RE.finditer(full):
            conditions.append(
                Condition(kind="proviso", text=m.group(0).rstrip("。；\n"), paragraph=i)
            )
        for m in rx.STRUCTURE_SCOPE_RE.finditer(lead):
            conditions.append(Condition(kind="scope", text=m.group(0), paragraph=i))
        consequences.extend(_consequences(lead))
        references.extend(_references(record, full, i))
    text = record.text
    if defines:
        roles.add("definition")
    if consequences:
        roles.add("duty_right")
    if any(c.kind in ("clause", "list_item") for c in conditions):
        roles.add("condition")
    if any(w in text for w in _CONSEQUENCE_WORDS) and (
        "condition" in roles or references or consequences
    ):
        roles.add("consequence")
    if rx.STRUCTURE_PENALTY_RE.search(text):
        roles.add("penalty")
    if rx.STRUCTURE_AMOUNT_RE.search(text):
        roles.add("amount")
    if rx.STRUCTURE_PROCEDURE_RE.search(text):
        roles.add("procedure")
    if references:
        roles.add("cross_reference")
    return ProvisionStructure(
        key=record.key,
        roles=tuple(r for r in _ROLE_ORDER if r in roles),
        conditions=tuple(conditions),
        consequences=tuple(consequences),
        defines=tuple(defines),
        references=tuple(references),
    )


_CACHE: dict[str, ProvisionStructure] = {}
_LOCK = threading.Lock()


def structure_of(record: ArticleRecord) -> ProvisionStructure:
    """The :class:`ProvisionStructure` of ``record``, computed on first use and cached per
    article key (thread-safe). Pure: the same text gives the same structure."""
    hit = _CACHE.get(record.key)
    if hit is not None:
        return hit
    result = _analyse(record)
    with _LOCK:
        _CACHE[record.key] = result
    return result


LIABILITY_HEADINGS = ("法律责任", "罚则", "责任追究")
"""Chapter headings under which a statute gathers its sanctions (《立法技术规范（试行）（一）》
item 16: 法律责任 is a chapter of its own, after the substantive rules)."""


def is_liability(path: Sequence[str], text: str) -> bool:
    """True when the provision at ``path`` (its 编/章/节 headings) with ``text`` is a penalty or
    liability provision: it sits in a 法律责任/罚则 chapter (:data:`LIABILITY_HEADINGS`), or its
    text imposes a sanction (``STRUCTURE_PENALTY_RE``: 处…罚款, 吊销, 没收, 有期徒刑…) in a
    「违反…的，由…」 form, with 责令 or as a criminal penalty. A rule granting a right or
    imposing a duty (「用人单位应当…」) is not one."""
    if any(h in part for part in path for h in LIABILITY_HEADINGS):
        return True
    if rx.STRUCTURE_PENALTY_RE.search(text) is None:
        return False
    return "违反" in text or "责令" in text or "处罚" in text or "刑" in text


def format_structure(s: ProvisionStructure) -> str:
    """A few plain-text lines describing ``s`` (for ``citegov corpus show``)."""
    lines = ["structure: roles " + ("、".join(s.roles) or "-")]
    if s.defines:
        lines.append("  defines: " + "、".join(s.defines))
    for c in s.conditions:
        if c.kind != "scope":
            lines.append(f"  condition ({c.kind}, 款{c.paragraph}): {c.text}")
    scopes = sorted({c.text for c in s.conditions if c.kind == "scope"})
    if scopes:
        lines.append("  scope words: " + "、".join(scopes))
    for q in s.consequences:
        lines.append(f"  consequence: {q}")
    for r in s.references:
        target = f"第{r.article}条" if r.article else r.relative
        extra = (f"第{r.paragraph}款" if r.paragraph else "") + (f"第{r.item}项" if r.item else "")
        lines.append(f"  → {target}{extra} ({r.text})")
    return "\n".join(lines)
