"""Existence (E): does the cited authority exist, in force, at the cited granularity?

Labels and scores follow SPEC §3: ``exists`` 1.0 · ``partial`` 0.5 (instrument and article
resolve, the cited 款/项 does not) · ``repealed`` 0.5 (resolves, but not in force on the
report's as-of date) · ``not_found`` 0.0 · ``unverifiable`` excluded (outside the store's
coverage; 0.5 under ``strict``).

Repeal data: the nine laws repealed on 2021-01-01 by 民法典 第一千二百六十条 come from the
store's repeal registry (derived from that article's text).
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass
from datetime import date, timedelta

from governor.authorities import AuthorityStore, VersionDates
from governor.core.config import DEFAULT_THRESHOLDS
from governor.core.labels import score_for
from governor.core.models import (
    Authority,
    CheckResult,
    Citation,
    Evidence,
    GapKind,
    Suggestion,
    TaxonomyCode,
)
from governor.core.records import ArticleRecord, RepealRecord
from governor.text import regexes as rx
from governor.text.regexes import FOREIGN_TITLE_RE
from verifiers.textsim import containment, specificity

# Names outside the store's coverage: local regulations (省/市/自治区 …), department notices,
# standards, party documents. Citing them is not an error citegov can establish offline.
_LOCAL_PREFIX = re.compile(
    r"^(?:北京|天津|上海|重庆|河北|山西|辽宁|吉林|黑龙江|江苏|浙江|安徽|福建|江西|山东|河南|湖北|湖南"
    r"|广东|海南|四川|贵州|云南|陕西|甘肃|青海|台湾|内蒙古|广西|西藏|宁夏|新疆|香港|澳门"
    r"|[\u4e00-\u9fff]{1,6}(?:省|(?<!城)市|自治区|自治州|县|区))"
)
# Names shaped like documents the store does not aim to cover: department rules, standards,
# notices, treaties, local rules. A citation of one that does not resolve is unverifiable,
# not fabricated: the store holds national laws, administrative regulations and the SPC/SPP
# interpretations, so only names shaped like those (…法, …条例, SPC/SPP …解释/规定) that do
# not resolve are taken as fabricated.
_OUTSIDE_COVERAGE = re.compile(
    r"(?:通知|意见|纪要|标准|指南|公告|批复|答复|函|章程|准则|细则|办法|规定|规则|规范|协定|条约|"
    r"公约|决定|指引|守则|须知|规程|目录|方案)$"
)
_TYPE_SUFFIX = re.compile(
    r"(?:实施条例|实施细则|实施办法|暂行条例|暂行规定|暂行办法|条例|办法|规定|规则|细则|法|规范|准则)$"
)
_STEMS: dict[int, dict[str, str]] = {}


def _stem(name: str) -> str:
    return _TYPE_SUFFIX.sub("", name.removeprefix("中华人民共和国"))


def _near_name(bare: str, store: AuthorityStore) -> str | None:
    """A store title with the same subject but another instrument type (医疗器械监督管理办法 →
    医疗器械监督管理条例): the name as written is then a misnaming of a covered instrument, not
    an uncovered rule. Stems shorter than 4 characters are too generic to match."""
    stems = _STEMS.get(id(store))
    if stems is None:
        stems = {}
        for t in store.titles():
            st = _stem(t)
            if len(st) >= 4:
                stems.setdefault(st, t)
        _STEMS[id(store)] = stems
    stem = _stem(bare)
    if len(stem) < 4 or stem == bare:
        return None
    return stems.get(stem)


def _not_in_store(
    cit: Citation, store: AuthorityStore, written: str, *, as_of: date, strict: bool
) -> ExistenceOutcome:
    """A PRC instrument name that resolves to nothing in the store (issue 24 items 4 and 5).

    Foreign law and local documents are ``unverifiable``; so is a kind the store does not
    cover (:func:`covered_kind` is None: departmental documents it lacks, standards,
    notices). A name of a covered kind is ``not_found`` — with the nearest stored title when
    there is one — but only when it could not be law made after the store's horizon
    (:func:`_maybe_newer`); otherwise it is ``unverifiable`` with the horizon as the reason
    (gap ``after_horizon``).
    """
    bare = written.strip("《》<> ")
    if bare and FOREIGN_TITLE_RE.match(bare):
        return ExistenceOutcome(
            _result(
                "unverifiable",
                f"《{bare}》 is foreign law: the store holds PRC law only",
                strict=strict,
            ),
            gap="foreign_law",
        )
    if bare and rx.GENERIC_BRACKETED_RE.match(bare):
        return ExistenceOutcome(
            _result(
                "unverifiable",
                f"《{bare}》 names only a kind of instrument, and none of that kind is cited "
                "before it: which one is meant cannot be told",
                strict=strict,
            ),
            gap="outside_store",
        )
    if bare and rx.PARTY_DOCUMENT_RE.match(bare):
        return ExistenceOutcome(
            _result(
                "unverifiable",
                f"《{bare}》 is a Party regulation (党内法规), not state law: the store holds "
                "state law only",
                strict=strict,
            ),
            gap="outside_store",
        )
    local = bool(bare) and _LOCAL_PREFIX.match(bare) is not None
    near = None if local else _near_name(bare, store)
    covered = None if local else ("misnamed" if near else covered_kind(bare, store))
    if not bare or (covered is None and not local and not _OUTSIDE_COVERAGE.search(bare)):
        covered = "national law, regulation and judicial interpretation"
    if covered is None:
        return ExistenceOutcome(
            _result(
                "unverifiable",
                f"《{bare}》 is outside the store's coverage (a local, departmental or technical document)",
                strict=strict,
            ),
            gap="outside_store",
        )
    newer = _maybe_newer(cit, bare, store, as_of=as_of, misnaming=near is not None)
    if newer is not None:
        return ExistenceOutcome(
            _result(
                "unverifiable",
                f"《{bare}》 is not in the store, but {newer}: law made after "
                f"{store.horizon.isoformat()} (the store's horizon) is not in the store",
                strict=strict,
            ),
            gap="after_horizon",
        )
    if near is not None:
        return ExistenceOutcome(
            _result(
                "not_found",
                f"no instrument named 《{bare}》; the store has 《{near}》 under that name "
                "with another type (misnamed)",
                strict=strict,
            ),
            codes=("L1.1.1",),
        )
    close = nearest_title(bare, store)
    hint = f"; nearest stored title: 《{close}》" if close else ""
    return ExistenceOutcome(
        _result(
            "not_found",
            f"no instrument named 《{bare or '?'}》 in the store, which holds every {covered} "
            f"made up to {store.horizon.isoformat()} (fabricated or misnamed){hint}",
            strict=strict,
        ),
        codes=("L1.1.1",),
    )


def _misnamed_law(bare: str, store: AuthorityStore) -> str | None:
    """The stored 法律 whose name (without 中华人民共和国, 4+ characters) ``bare``, a …法
    title, contains or is contained in (社会法就业促进法 ⊃ 就业促进法, 会计师法 ⊂ 注册会计师法),
    or None. Interpretations and implementing rules of a stored law are not taken: a new one
    of those names the law too."""
    name = bare.removeprefix("中华人民共和国")
    if len(name) < 4 or not rx.COVERED_STATUTE_RE.search(name) or rx.COVERED_SPC_RE.match(bare):
        return None
    for t in store.titles():
        short = t.removeprefix("中华人民共和国")
        if len(short) >= 4 and short != name and (short in name or name in short):
            if store.level_of(t) == "法律":
                return t
    return None


def _maybe_newer(
    cit: Citation, bare: str, store: AuthorityStore, *, as_of: date, misnaming: bool = False
) -> str | None:
    """Why an instrument missing from the store may be law made after its horizon, or None.

    Issue 24 item 4: a name is ``not_found`` only when the report's as-of date is within the
    horizon and the instrument could not be newer than it. It could be when the as-of date
    is after the horizon — unless the name is a stored instrument's under another type
    (``misnaming``) or a stored law's name with words added or dropped
    (:func:`_misnamed_law`): a misnaming, not a new law — or it names a branch of law
    (:data:`governor.text.regexes.LEGAL_BRANCH_RE`: 《中华人民共和国社会法》) — or when the citation dates
    it in the horizon's year or later (a year in the title or version note, a 法释〔YYYY〕
    number next to it).
    """
    horizon = store.horizon
    if rx.LEGAL_BRANCH_RE.match(bare):
        return None  # a branch of law (社会法, 民法商法) is no instrument at any date
    if as_of > horizon and not misnaming and _misnamed_law(bare, store) is None:
        return f"the report is dated {as_of.isoformat()}"
    for text in (bare, cit.version_hint or "", cit.raw):
        for m in (*rx.YEAR_IN_NAME_RE.finditer(text), *rx.SPC_DOCNO_YEAR_RE.finditer(text)):
            if int(m.group(1)) >= horizon.year:
                return f"the citation dates it {m.group(1)}"
    return None


_HEADINGS: weakref.WeakKeyDictionary[AuthorityStore, frozenset[str]] = weakref.WeakKeyDictionary()


def covered_kind(bare: str, store: AuthorityStore) -> str | None:
    """The covered kind a name not in the store has the shape of, or None (outside).

    Covered (a miss is a fabrication or misnaming): a 法/法典 title; a 条例 (local ones are
    caught by the place prefix before this); an SPC/SPP 解释/规定/规则
    (:data:`governor.text.regexes.COVERED_SPC_RE`; an 意见 only on a case type a stored
    interpretation covers, :func:`_spc_case_type`); a 中华人民共和国…办法/规定/细则; the 实施细则/
    实施办法/实施规定 of a stored law or of a 章/节 of one (劳务派遣实施规定: 劳动合同法
    第五章第二节 劳务派遣, whose implementing regulation is the stored 劳动合同法实施条例); a
    办法/规定/细则 whose subject differs by one character from a stored 法律/行政法规's
    (社会保险费追缴办法 ~ 社会保险费征缴暂行条例).

    Returns:
        A short English name of the kind (used in the rationale), or None.
    """
    name = bare.removeprefix("中华人民共和国")
    if rx.COVERED_STATUTE_RE.search(name) or name.endswith("条例"):
        return "national law and administrative regulation"
    if rx.COVERED_SPC_RE.match(bare) and (not bare.endswith("意见") or _spc_case_type(bare, store)):
        return "judicial interpretation of the SPC/SPP"
    if rx.COVERED_PRC_RULE_RE.match(bare):
        return "national administrative regulation"
    m = rx.IMPLEMENTING_RE.match(name)
    if m is not None:
        parent = m["parent"]
        title = store.resolve_instrument(parent)
        if title is not None and store.level_of(title) in ("法律", "宪法"):
            return "law and its implementing regulation"
        if parent in _law_headings(store):
            return "law and its implementing regulation"
    if _one_off_subject(name, store) is not None:
        return "national law and administrative regulation"
    return None


def _spc_case_type(bare: str, store: AuthorityStore) -> str | None:
    """A stored SPC/SPP interpretation on the case type an SPC 意见 names (审理X案件), X and
    its case type one inside the other in order (建设工程合同纠纷 ~ 建设工程施工合同纠纷), or
    None. An old 意见 on a case type no stored interpretation covers is likely a real one the
    store lacks (离婚案件处理子女抚养问题的若干具体意见, 1993, repealed 2021)."""
    m = rx.SPC_CASE_TYPE_RE.search(bare)
    if m is None or len(m["subject"]) < 4:
        return None
    want = m["subject"]
    for t in store.titles():
        if store.level_of(t) != "司法解释":
            continue
        h = rx.SPC_CASE_TYPE_RE.search(t)
        if h is not None and (_in_order(want, h["subject"]) or _in_order(h["subject"], want)):
            return t
    return None


def _in_order(short: str, long: str) -> bool:
    it = iter(long)
    return all(ch in it for ch in short)


def _law_headings(store: AuthorityStore) -> frozenset[str]:
    """The 章/节 headings of the stored laws, without their numbers (劳务派遣, 集体合同 …)."""
    got = _HEADINGS.get(store)
    if got is None:
        heads: set[str] = set()
        for t in store.titles():
            if store.level_of(t) != "法律":
                continue
            for rec in store.articles(t):
                for p in rec.path:
                    head = rx.HEADING_NUMBER_RE.sub("", p)
                    if len(head) >= 4:
                        heads.add(head)
        got = _HEADINGS[store] = frozenset(heads)
    return got


def _subject(name: str) -> str:
    return rx.TITLE_QUALIFIER_RE.sub("", _stem(name))


def _one_off_subject(name: str, store: AuthorityStore) -> str | None:
    """A stored 法律/行政法规 title whose subject (title without 中华人民共和国, type and
    暂行/试行) has the same length (at least 4) as ``name``'s and differs in one character,
    or None: 社会保险费追缴办法 ~ 社会保险费征缴暂行条例."""
    if not name.endswith(("办法", "规定", "细则")):
        return None
    want = _subject(name)
    if len(want) < 4:
        return None
    for t in store.titles():
        if store.level_of(t) not in ("法律", "行政法规"):
            continue
        have = _subject(t)
        if len(have) == len(want) and sum(a != b for a, b in zip(have, want, strict=True)) == 1:
            return t
    return None


def nearest_title(bare: str, store: AuthorityStore) -> str | None:
    """The stored title (cases excluded) sharing the longest run of characters (at least 4)
    with ``bare``'s subject, a title of the same type ending winning a tie; None when none
    shares 4. Shown to the reader only; never decides a label."""
    from difflib import SequenceMatcher

    want = _subject(bare.removeprefix("中华人民共和国"))
    if len(want) < 4:
        return None
    best: tuple[int, int, str] | None = None
    for t in store.titles():
        if store.level_of(t) in ("案例", "其他", None):
            continue
        have = t.removeprefix("中华人民共和国")
        m = SequenceMatcher(None, want, have, autojunk=False).find_longest_match()
        if m.size < 4:
            continue
        same = int(have[-2:] == bare[-2:])
        key = (m.size, same, t)
        if best is None or key[:2] > best[:2]:
            best = key
    return best[2] if best else None


# Published SPC guiding cases, as far as the bundled list knows (cn_cases/SOURCE.md: the
# upstream release holds 278). Numbers above are fabricated; numbers at or below but absent
# from the store are unverifiable.
MAX_GUIDING_CASE = 278


@dataclass(frozen=True)
class ExistenceOutcome:
    """Existence result plus what it resolved to (``record`` is None unless an article resolved)."""

    result: CheckResult
    authority: Authority | None = None
    record: ArticleRecord | None = None
    codes: tuple[TaxonomyCode, ...] = ()
    suggestion: Suggestion | None = None
    gap: GapKind | None = None


def misnamed_existing_law(
    outcome: ExistenceOutcome, suggestion: Suggestion, *, strict: bool
) -> ExistenceOutcome:
    """An instrument missing from the store that was held ``unverifiable`` because it might be
    law made after the store's horizon (gap ``after_horizon``), whose cited words are a stored
    provision's text: existing law under a wrong name, not a new law, so ``not_found`` (the
    report's words prove the instrument is not newer — issue 24 item 4), with the provision
    named. ``suggestion`` is the store-wide match (:func:`verifiers.suggest.existence_suggestion`,
    admissible only near-verbatim outside the cited instrument)."""
    where = suggestion.authority
    pin = (
        f"《{where.instrument}》第{where.article}条" if where.article else f"《{where.instrument}》"
    )
    old = outcome.result.rationale.split(", but ", 1)[0]
    return ExistenceOutcome(
        _result(
            "not_found",
            f"{old}; its words are the text of {pin} (confidence {suggestion.score:.2f}): "
            "existing law under a wrong name, not law made after the store's horizon",
            strict=strict,
        ),
        codes=("L1.1.1",),
        suggestion=suggestion,
    )


def _result(label: str, rationale: str, *, strict: bool, evidence: str = "") -> CheckResult:
    return CheckResult(
        axis="existence",
        label=label,
        score=score_for("existence", label, strict=strict),
        rationale=rationale,
        evidence=(Evidence(text=evidence),) if evidence else (),
    )


def _repealed_authority(rec: RepealRecord) -> Authority:
    return Authority(
        id=f"{rec.title}@repealed",
        instrument=rec.title,
        level=rec.level,
        status="repealed",
        in_force_to=rec.repealed_on,
        successor=rec.successor,
        source=rec.source,
    )


def check_existence(
    cit: Citation, store: AuthorityStore, *, as_of: date, strict: bool = False
) -> ExistenceOutcome:
    """Check whether ``cit`` resolves in ``store`` on ``as_of``.

    Args:
        cit: the citation (any kind; US kinds are unverifiable offline without a case lookup).
        store: the authority store.
        as_of: the report's as-of date; the version in force on it is used unless the
            citation names a version.
        strict: score ``unverifiable`` 0.5 instead of excluding it.

    Returns:
        The outcome; ``authority`` holds the resolved provision text (the cited 款/项 when it
        exists) for the fidelity and applicability checks.
    """
    if cit.kind == "guiding_case":
        return _guiding_case(cit, store, strict=strict)
    if cit.kind in ("case_number", "document_number"):
        year = _year_of(cit.case_number or cit.document_number or cit.raw)
        if year is not None and not 1949 <= year <= as_of.year:
            return ExistenceOutcome(
                _result(
                    "not_found",
                    f"{cit.raw}: year {year} is impossible for a report dated {as_of.isoformat()}",
                    strict=strict,
                ),
                codes=("L1.1.1",),
            )
    if cit.kind == "case_number":
        return _case_number(cit, store, strict=strict)
    if cit.kind == "document_number":
        return _document_number(cit, store, strict=strict)
    if cit.kind in ("us_case", "us_statute"):
        return ExistenceOutcome(
            _result(
                "unverifiable",
                "US case: no case lookup configured (set courtlistener_url and "
                "COURTLISTENER_TOKEN, or case_store)"
                if cit.kind == "us_case"
                else "US statute: the store holds no United States Code text",
                strict=strict,
            ),
            gap="us_case_no_lookup" if cit.kind == "us_case" else "us_statute",
        )
    return _provision(cit, store, as_of=as_of, strict=strict)


def _provision(
    cit: Citation, store: AuthorityStore, *, as_of: date, strict: bool
) -> ExistenceOutcome:
    written = cit.instrument_as_written or cit.instrument or ""
    title = cit.instrument or (store.resolve_instrument(written) if written else None)
    repeal = store.repeal_record(title or written) if (title or written) else None
    if repeal is not None and as_of >= repeal.repealed_on and title and cit.article:
        if store.has_articles(title):
            return _repealed_provision(cit, store, title, repeal, strict=strict)
    if repeal is not None and as_of >= repeal.repealed_on:
        succ = f"; successor: {repeal.successor}" if repeal.successor else ""
        return ExistenceOutcome(
            _result(
                "repealed",
                f"《{repeal.title}》 was repealed on {repeal.repealed_on.isoformat()}"
                f" ({repeal.source}){succ}",
                strict=strict,
            ),
            authority=_repealed_authority(repeal),
            codes=("STALE",),
        )
    if repeal is not None and (title is None or not store.has_instrument(title)):
        # In force on the as-of date (repealed later), but its text is not in the store.
        return ExistenceOutcome(
            _result(
                "unverifiable",
                f"《{repeal.title}》 was in force on {as_of.isoformat()} (repealed "
                f"{repeal.repealed_on.isoformat()}), but its text is not in the store",
                strict=strict,
            ),
            authority=_repealed_authority(repeal),
            gap="version_not_in_store",
        )
    if title is None or not store.has_instrument(title):
        return _not_in_store(cit, store, written, as_of=as_of, strict=strict)
    if cit.placeholder is not None:  # 《劳动合同法》第X条: an unfinished citation
        return ExistenceOutcome(
            _result(
                "not_found",
                f"《{title}》{cit.placeholder}: a placeholder, not an article number "
                "(the report names no article)",
                strict=strict,
            ),
            codes=("L1.1.1",),
        )
    if cit.article is None:
        return ExistenceOutcome(
            _result("exists", f"《{title}》 exists (no article cited)", strict=strict)
        )
    version = store.version_dates(title, as_of=as_of, version_hint=cit.version_hint)
    early = _before_stored_versions(cit, store, title, version, as_of=as_of, strict=strict)
    if early is not None:
        return early
    record = store.article(title, cit.article, as_of=as_of, version_hint=cit.version_hint)
    label_pin = f"《{title}》{cit.pin}"
    if record is None:
        return _article_missing(cit, store, title, as_of=as_of, strict=strict)
    auth = store.authority(record, cit.paragraph, cit.item)
    whole = store.authority(record)
    if version is not None and not _in_force(version.in_force_from, version.in_force_to, as_of):
        when = version.in_force_from.isoformat() if version.in_force_from else "?"
        return ExistenceOutcome(
            _result(
                "repealed",
                f"{label_pin}: the cited version ({version.version}, in force from {when}) "
                f"was not in force on {as_of.isoformat()}",
                strict=strict,
            ),
            authority=auth or whole,
            record=record,
            codes=("STALE",),
        )
    if auth is None:
        return ExistenceOutcome(
            _result(
                "partial",
                f"{label_pin}: article exists with {len(record.paragraphs)} 款, "
                "but the cited 款/项 does not",
                strict=strict,
            ),
            authority=whole,
            record=record,
            codes=("L1.1.4",),
        )
    return ExistenceOutcome(
        _result("exists", f"{label_pin} exists", strict=strict, evidence=auth.text[:80]),
        authority=auth,
        record=record,
    )


def _repealed_provision(
    cit: Citation, store: AuthorityStore, title: str, repeal: RepealRecord, *, strict: bool
) -> ExistenceOutcome:
    """A pin cite of a repealed instrument whose text is in the store (合同法, 物权法 … from
    ``cn_repealed``; the repealed 司法解释 of ``cn_laws``), cited in a report dated after the
    repeal: ``repealed`` (STALE) with the article's own text, so Fidelity and Applicability are
    judged against what the provision said (SPEC §6); an article the repealed text does not
    have is ``not_found``. A 款/项 pin the text cannot confirm (the 合同法 source joins an
    article's 款 into one paragraph) is judged against the whole article."""
    last_day = repeal.repealed_on - timedelta(days=1)
    record = store.article(title, cit.article or "", as_of=last_day, version_hint=cit.version_hint)
    where = f"《{title}》{cit.pin}"
    gone = f"repealed on {repeal.repealed_on.isoformat()} ({repeal.source})"
    if record is None:
        n = len(store.articles(title, as_of=last_day))
        return ExistenceOutcome(
            _result(
                "not_found",
                f"{where}: the repealed text has {n} articles and not this one ({gone})",
                strict=strict,
            ),
            codes=("L1.1.1", "STALE"),
        )
    auth = store.authority(record, cit.paragraph, cit.item)
    pin_note = ""
    if auth is None:
        auth = store.authority(record)
        pin_note = "; the cited 款/项 cannot be checked in the stored text (judged on the article)"
    succ = f"; successor: {repeal.successor}" if repeal.successor else ""
    return ExistenceOutcome(
        _result("repealed", f"{where} exists but was {gone}{succ}{pin_note}", strict=strict),
        authority=auth,
        record=record,
        codes=("STALE",),
    )


def _before_stored_versions(
    cit: Citation,
    store: AuthorityStore,
    title: str,
    version: VersionDates | None,
    *,
    as_of: date,
    strict: bool,
) -> ExistenceOutcome | None:
    """The as-of date precedes every version in the store.

    If the instrument was adopted before the as-of date (its metadata's first date), an older
    version — absent from the store — was in force: the citation is ``unverifiable``, never
    judged against a later text. Otherwise the instrument was not yet in force on that date
    (SPEC §3 ``repealed``: resolves, but not in force on the as-of date). A citation that names
    its version (（2018年修正）) is judged against that version instead.
    """
    start = version.in_force_from if version is not None else None
    if cit.version_hint or start is None or as_of >= start:
        return None
    enacted = store.enacted(title)
    if enacted is not None and enacted < start and enacted <= as_of:
        return ExistenceOutcome(
            _result(
                "unverifiable",
                f"《{title}》: the version in force on {as_of.isoformat()} predates the oldest "
                f"version in the store ({version.version if version else '?'}, in force from "
                f"{start.isoformat()}); the citation cannot be checked against it",
                strict=strict,
            ),
            gap="version_not_in_store",
        )
    adopted = f"adopted {enacted.isoformat()}, " if enacted else ""
    return ExistenceOutcome(
        _result(
            "repealed",
            f"《{title}》 was not yet in force on {as_of.isoformat()} ({adopted}in force from "
            f"{start.isoformat()})",
            strict=strict,
        )
    )


def _in_force(start: date | None, end: date | None, as_of: date) -> bool:
    return (start is None or start <= as_of) and (end is None or as_of < end)


def _article_missing(
    cit: Citation, store: AuthorityStore, title: str, *, as_of: date, strict: bool
) -> ExistenceOutcome:
    inst = store.instrument(title)
    assert inst is not None
    for v in inst.versions:
        rec = store.article(title, cit.article or "", version_hint=v.version)
        if rec is not None and rec.version != ((store.version(title, as_of=as_of) or v).version):
            if v.in_force_from is not None and as_of < v.in_force_from:
                # The oldest version holding the article is later than the as-of date: the
                # article was added by an amendment and did not exist yet — no repeal.
                return ExistenceOutcome(
                    _result(
                        "not_found",
                        f"《{title}》{cit.pin} did not exist yet on {as_of.isoformat()}: it was "
                        f"added by the {v.version} amendment, in force from "
                        f"{v.in_force_from.isoformat()}",
                        strict=strict,
                    ),
                    codes=("L1.1.1",),
                )
            return ExistenceOutcome(
                _result(
                    "repealed",
                    f"《{title}》{cit.pin} exists only in the {v.version} version, "
                    f"not in the version in force on {as_of.isoformat()}",
                    strict=strict,
                ),
                authority=store.authority(rec),
                record=rec,
                codes=("STALE",),
            )
    n = len(store.articles(title, as_of=as_of))
    lower = _in_lower_instrument(cit, store, title, as_of=as_of)
    if lower is not None:
        return ExistenceOutcome(
            _result(
                "not_found",
                f"《{title}》 has no {cit.pin}; {lower.authority.label} does — the report "
                "attributes a lower-rank instrument's article to the law (hierarchy error)",
                strict=strict,
            ),
            codes=("L1.1.3",),
            suggestion=lower,
        )
    return ExistenceOutcome(
        _result(
            "not_found",
            f"《{title}》 has no {cit.pin} (the version in force has {n} articles)",
            strict=strict,
        ),
        codes=("L1.1.1",),
    )


HIERARCHY_MIN_MATCH = DEFAULT_THRESHOLDS.existence_hierarchy_min_match
"""Share of the report's description a lower instrument's article must contain before the
citation is taken to be that article under the law's name (L1.1.3)."""


def _in_lower_instrument(
    cit: Citation, store: AuthorityStore, title: str, *, as_of: date
) -> Suggestion | None:
    """The same-numbered article of a 司法解释/实施条例 of ``title`` that the report describes.

    Source of the rule: LexAgentHallu L1.1.3 (hierarchy error: an interpretation or
    regulation cited as if it were the statute). Only a description/claim that the
    lower instrument's article matches (containment ≥ ``HIERARCHY_MIN_MATCH``) counts.
    """
    said = cit.description or cit.claim
    if not said or cit.article is None:
        return None
    best: tuple[float, Suggestion] | None = None
    for child in store.children(title):
        rec = store.article(child, cit.article, as_of=as_of)
        if rec is None:
            continue
        score = containment(said, rec.text)
        auth = store.authority(rec)
        if auth is not None and score >= HIERARCHY_MIN_MATCH and (best is None or score > best[0]):
            conf = min(1.0, score * specificity(said))
            best = (
                score,
                Suggestion(
                    authority=auth,
                    score=conf,
                    reason="the article is in this lower-rank instrument",
                ),
            )
    return None if best is None else best[1]


_YEAR = re.compile(r"[〔\[（(［【]\s*(\d{4})\s*[〕\]）)］】]")


def _year_of(number: str) -> int | None:
    """The bracketed year of a 案号/文号 (（2016）鲁15刑初33号, 法释〔2020〕17号)."""
    m = _YEAR.search(number)
    return int(m.group(1)) if m else None


def _guiding_case(cit: Citation, store: AuthorityStore, *, strict: bool) -> ExistenceOutcome:
    n = cit.guiding_case
    if n is None:
        return ExistenceOutcome(
            _result("unverifiable", f"{cit.raw}: not an SPC guiding case number", strict=strict),
            gap="record_not_in_store",
        )
    gc = store.guiding_case(n)
    if gc is not None:
        auth = Authority(
            id=f"指导案例{n}号",
            instrument=f"指导案例{n}号：{gc.title}",
            level="案例",
            text=gc.gist,
            status="superseded" if gc.no_longer_referenced else "in_force",
        )
        if gc.no_longer_referenced:
            return ExistenceOutcome(
                _result("repealed", f"指导案例{n}号 is no longer to be referenced", strict=strict),
                authority=auth,
                codes=("STALE",),
            )
        return ExistenceOutcome(
            _result("exists", f"指导案例{n}号 {gc.title}", strict=strict), authority=auth
        )
    if n > MAX_GUIDING_CASE:
        return ExistenceOutcome(
            _result(
                "not_found",
                f"指导案例{n}号: above the highest published number known ({MAX_GUIDING_CASE})",
                strict=strict,
            ),
            codes=("L1.1.1",),
        )
    return ExistenceOutcome(
        _result(
            "unverifiable",
            f"指导案例{n}号 is in the published range but not in the bundled case list",
            strict=strict,
        ),
        gap="record_not_in_store",
    )


def _case_number(cit: Citation, store: AuthorityStore, *, strict: bool) -> ExistenceOutcome:
    from governor.citations.extract import case_number_is_well_formed

    num = cit.case_number or cit.raw
    if not case_number_is_well_formed(num):
        return ExistenceOutcome(
            _result("not_found", f"{num}: not a well-formed 案号", strict=strict),
            codes=("L1.1.1",),
        )
    for n in range(1, MAX_GUIDING_CASE + 1):
        gc = store.guiding_case(n)
        if gc is not None and num in gc.case_numbers:
            return ExistenceOutcome(
                _result("exists", f"{num}: a case of 指导案例{n}号", strict=strict),
                authority=Authority(
                    id=num, instrument=f"指导案例{n}号", level="案例", text=gc.gist
                ),
            )
    return ExistenceOutcome(
        _result("unverifiable", f"{num}: well-formed 案号, not in the store", strict=strict),
        gap="record_not_in_store",
    )


def _document_number(cit: Citation, store: AuthorityStore, *, strict: bool) -> ExistenceOutcome:
    num = cit.document_number or cit.raw
    title = store.title_for_document_number(num)
    year = _year_of(num)
    if title is None and year is not None and year >= store.horizon.year:
        return ExistenceOutcome(
            _result(
                "unverifiable",
                f"{num}: 文号 not known to the store, and of the year of its horizon or later: "
                f"law made after {store.horizon.isoformat()} is not in the store",
                strict=strict,
            ),
            gap="after_horizon",
        )
    if title is None:
        return ExistenceOutcome(
            _result("unverifiable", f"{num}: 文号 not known to the store", strict=strict),
            gap="record_not_in_store",
        )
    return ExistenceOutcome(
        _result("exists", f"{num} is 《{title}》", strict=strict),
        authority=Authority(id=num, instrument=title, level="司法解释"),
    )
