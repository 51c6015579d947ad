"""Build the store payload from the ``cn_laws`` / ``cn_cases`` folders (layer 1).

The payload is a plain JSON-able dict (format :data:`FORMAT`), written compressed by
:meth:`AuthorityStore.save` and shipped in ``governor/data/``. Version rules
(``cn_laws/SOURCE.md`` and SPEC §6):

* files sharing a title are versions of one instrument; the 8 民法典 files (those with a
  sub-title line) are *parts* of one version and are merged in article order, each article's
  path starting with its part (``合同编``);
* a version is identified by its date: the manifest ``publish`` (file-name date), else the
  last metadata event that is not an in-force event (通过/修正/修订/公布), else its in-force date;
* ``in_force_from``: the ``… 施行`` metadata line (or a spilled ``自…起施行`` note); else the
  ``本法自…起施行`` clause of the articles when it falls within three years after the version
  date (a 修订 restates its own date; a 修正 keeps the original, older date, which is ignored);
  else the manifest ``valid_from``; else the version date;
* ``in_force_to`` = the next version's ``in_force_from``;
* versions whose article texts (or body, when there are no articles) are equal after removing
  whitespace collapse into the earliest one (near-duplicates such as 人身损害赔偿解释
  2022-04-04/2022-04-24); the in-force date of a member with a ``施行`` line is kept.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from governor.authorities.aliases import NameSource, build_alias_table, norm_name, strip_prc
from governor.authorities.amendments import mark_later_amendments
from governor.authorities.constitution import add_constitution_versions
from governor.authorities.decisions import add_decision_versions
from governor.authorities.inforce import audit_in_force
from governor.authorities.parse import ParsedArticle, ParsedFile, normalise_docno, parse_markdown
from governor.authorities.rebuild import add_rebuilt_versions
from governor.authorities.repealed_texts import read_repealed_folder
from governor.authorities.repeals import (
    GUIDING_CASES_NOT_REFERENCED,
    JI_REPEALS,
    find_repeal_clauses,
    resolve_clause,
)
from governor.authorities.successors import add_successor_links
from governor.core.errors import CorpusError
from governor.text import regexes as rx
from governor.text.numerals import article_label, article_sort_key

FORMAT = 1
"""Payload format version; :meth:`AuthorityStore.load` refuses other versions."""

_ORIGINAL_TEXT = re.compile(r"（\d{4}年原文）$")
_TRAILING_NOTE = re.compile(r"（(?:法释|高检发|\d{4}年)[^（）]*）$")
_BODY_IN_FORCE_WINDOW = timedelta(days=3 * 366)
_WS = re.compile(r"\s+")
_LEVELS = ("宪法", "法律", "行政法规", "司法解释", "部门规章", "地方性法规", "案例", "其他")


@dataclass
class _FileVersion:
    path: str
    level: str
    parsed: ParsedFile
    version_date: date | None
    in_force: date | None
    explicit_in_force: bool
    expired: bool
    latest: bool
    articles: list[ParsedArticle] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    in_force_source: str = ""


def _iso(d: date | None) -> str | None:
    return d.isoformat() if d else None


def _parse_date(s: str) -> date | None:
    try:
        return date.fromisoformat(s) if s else None
    except ValueError:
        return None


def _read_updates(
    rows: list[dict[str, str]], updates_dir: Path
) -> tuple[list[dict[str, str]], list[str]]:
    """Merge the ``cn_laws_updates`` manifest into the ``cn_laws`` rows (its ``SOURCE.md``,
    "manifest.csv"): a row with a ``cn_laws`` path replaces that row (the upstream 民诉法解释);
    every path named in a ``supersedes`` cell stops being the latest. Paths of update rows
    become ``<folder name>/<path>`` (the file is read from ``_file``)."""
    updates = _read_manifest(updates_dir)
    by_path = {r["path"]: i for i, r in enumerate(rows)}
    out = list(rows)
    replaced: list[str] = []
    superseded: set[str] = set()
    for u in updates:
        row = dict(u)
        row["_file"] = str(updates_dir / u["path"])
        row["path"] = f"{updates_dir.name}/{u['path']}"
        if u["path"] in by_path:
            out[by_path[u["path"]]] = row
            replaced.append(u["path"])
        else:
            out.append(row)
        if u.get("latest_in_corpus") == "1":
            superseded |= {p.strip() for p in (u.get("supersedes") or "").split(";") if p.strip()}
    for r in out:
        if r["path"] in superseded and "_file" not in r:
            r["latest_in_corpus"] = "0"
    return out, replaced


def _read_manifest(laws_dir: Path) -> list[dict[str, str]]:
    path = laws_dir / "manifest.csv"
    if not path.is_file():
        raise CorpusError(
            f"{path} not found: point --from at a cn_laws folder that has its manifest.csv "
            "(see cn_laws/SOURCE.md)"
        )
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _version_date(parsed: ParsedFile, publish: date | None) -> date | None:
    if publish:
        return publish
    enacted = [on for on, ev in parsed.events if "施行" not in ev or "通过" in ev]
    if enacted:
        return enacted[-1]
    return parsed.in_force


def _in_force(
    parsed: ParsedFile, vdate: date | None, valid_from: date | None, law: bool = False
) -> tuple[date | None, str]:
    """``(in-force date, where it was read)``.

    Sources, in order: ``text`` — the ``施行``/``实施`` metadata line, unless it is earlier than
    the version date (地方组织法 2022 and 广告法 2021 keep the 1980/2015 line of the text they
    amend); ``article`` — the text's 「本法自…起施行」 within the window after the version date,
    the dated clause of a text never amended (any distance), or 「自公布之日起施行」 of a text
    whose last event adopted it whole (:func:`_promulgated_whole`); ``manifest`` — the
    ``valid_from`` column (flk metadata); ``version date``. ``law``: an NPC/NPCSC law (level
    法律), promulgated on its adoption day.
    """
    if parsed.in_force and (vdate is None or parsed.in_force >= vdate):
        return parsed.in_force, "text"  # an earlier 施行 line is the original text's (广告法 2021)
    b = parsed.body_in_force
    if b and vdate and vdate <= b <= vdate + _BODY_IN_FORCE_WINDOW:
        return b, "article"
    whole = _promulgated_whole(parsed, vdate, law)
    if whole is not None:
        if b and _never_amended(parsed) and vdate and max(whole, vdate) <= b:
            return b, "article"  # an original text: its dated clause is its own
        if parsed.body_on_publication and not b:
            return whole, "article"  # 「自公布之日起施行」: the promulgation date
    if valid_from:
        return valid_from, "manifest"
    return vdate, "version date"


_AMENDING_EVENT = re.compile(r"修正|《[^》]*决定》|决定》")
_ADOPTING_EVENT = re.compile(r"通过|修订|批准")
_PROMULGATING_EVENT = re.compile(r"公布|发布")


def _own_events(parsed: ParsedFile, vdate: date | None) -> list[tuple[date, str]]:
    """Metadata events up to the version date, in-force lines left out, oldest first."""
    return sorted(
        (on, ev)
        for on, ev in parsed.events
        if (vdate is None or on <= vdate) and not ev.endswith(("施行", "实施"))
    )


def _never_amended(parsed: ParsedFile) -> bool:
    """No 修正/修订/decision event: the file is the text as first adopted."""
    return not any(
        _AMENDING_EVENT.search(ev) or "修订" in ev for _on, ev in _own_events(parsed, None)
    )


def _promulgated_whole(parsed: ParsedFile, vdate: date | None, law: bool) -> date | None:
    """The promulgation date of a version whose whole text was adopted (通过/修订/批准) by its
    last event, else None — a version whose last event is a 修正 or an amending 决定 keeps the
    commencement article of an earlier text (cn_laws_updates/SOURCE.md, "Faults noticed"), so
    its 「自公布之日起施行」 is not its own.

    The date is the first 公布/发布 event on or after that adoption, else (``law`` only) the
    adoption date itself: a law adopted by the NPC or its Standing Committee is promulgated by
    主席令 on the day it is adopted (宪法第八十条; as for the 刑法修正案,
    :mod:`governor.authorities.rebuild`). None as well when the header's last event is not on
    the version date: the header then lacks the amendment the file is dated by (行政法规 files
    dated 2019 whose header shows only the 2014 公布; SPC texts whose 2020 amending decision is
    written 「…第1823次会议通过」).
    """
    events = _own_events(parsed, vdate)
    if not events or (vdate is not None and events[-1][0] != vdate):
        return None
    adopted: int | None = None
    amended = False
    for i, (_on, ev) in enumerate(events):
        if _AMENDING_EVENT.search(ev):
            adopted, amended = None, True
        elif _ADOPTING_EVENT.search(ev):
            adopted, amended = i, False
        elif _PROMULGATING_EVENT.search(ev) and adopted is None and not amended:
            adopted = i  # 「国务院令第N号公布」 alone
    if adopted is None:
        return None
    on0 = events[adopted][0]
    for on, ev in events[adopted:]:
        if _PROMULGATING_EVENT.search(ev) and on >= on0:
            return on
    return on0 if law else None


def _signature(articles: list[ParsedArticle], body: str) -> str:
    """Text identity of a version: NFKC (full/half-width punctuation), whitespace removed."""
    if articles:
        parts = [a.key + "".join(t + "".join(i) for t, i in a.paragraphs) for a in articles]
        text = "|".join(parts)
    else:
        text = body
    return _WS.sub("", unicodedata.normalize("NFKC", text))


def _merge_parts(files: list[tuple[dict[str, str], ParsedFile]]) -> ParsedFile:
    """Merge the 民法典 part files into one parsed version, articles in numeric order."""
    files = sorted(
        files, key=lambda f: article_sort_key(f[1].articles[0].key) if f[1].articles else (0, 0)
    )
    first = files[0][1]
    merged = ParsedFile(title=first.title, events=first.events, in_force=first.in_force)
    for _, pf in files:
        merged.in_force = merged.in_force or pf.in_force
        merged.docnos += pf.docnos
        for a in pf.articles:
            merged.articles.append(ParsedArticle(a.key, (pf.subtitle, *a.path), a.paragraphs))
        if pf.body_in_force:
            merged.body_in_force = pf.body_in_force
    return merged


def _versions_of(rows: list[tuple[dict[str, str], ParsedFile]]) -> list[_FileVersion]:
    parts = [r for r in rows if r[1].subtitle]
    singles = [r for r in rows if not r[1].subtitle]
    units: list[tuple[dict[str, str], ParsedFile, str]] = [(m, p, m["path"]) for m, p in singles]
    if parts:
        merged = _merge_parts(parts)
        row = sorted(parts, key=lambda r: r[0]["path"])[0][0]
        units.append((row, merged, ";".join(sorted(r[0]["path"] for r in parts))))
    out = []
    for m, pf, path in units:
        vdate = _version_date(pf, _parse_date(m["publish"]))
        law = m["level"] == "法律"
        in_force, source = _in_force(pf, vdate, _parse_date(m["valid_from"]), law)
        explicit = source in ("text", "article")
        out.append(
            _FileVersion(
                path=path,
                level=m["level"] if m["level"] in _LEVELS else "其他",
                parsed=pf,
                version_date=vdate,
                in_force=in_force,
                explicit_in_force=explicit,
                in_force_source=source,
                expired=m["expired_flag"] == "1",
                latest=m["latest_in_corpus"] == "1",
                articles=pf.articles,
                duplicates=pf.duplicate_keys,
            )
        )
    out.sort(key=lambda v: (v.version_date or date.min, v.in_force or date.min, v.path))
    kept: list[_FileVersion] = []
    seen: dict[str, _FileVersion] = {}
    for v in out:
        sig = _signature(v.articles, v.parsed.body)
        if sig in seen:  # near-duplicate: collapse into the earliest
            k = seen[sig]
            if v.explicit_in_force and not k.explicit_in_force:
                k.in_force, k.explicit_in_force = v.in_force, True
                k.in_force_source = v.in_force_source
            k.latest = k.latest or v.latest
            k.expired = v.expired if v.latest else k.expired
            continue
        seen[sig] = v
        kept.append(v)
    return kept


def _article_payload(a: ParsedArticle, paths: dict[tuple[str, ...], int]) -> list[Any]:
    pidx = paths.setdefault(a.path, len(paths))
    return [a.key, pidx, [[t, list(items)] for t, items in a.paragraphs]]


def _version_ids(versions: list[_FileVersion]) -> list[str]:
    ids: list[str] = []
    for v in versions:
        base = _iso(v.version_date) or "undated"
        vid, n = base, 2
        while vid in ids:
            vid, n = f"{base}#{n}", n + 1
        ids.append(vid)
    return ids


def build_payload(
    laws_dir: Path,
    cases_dir: Path | None = None,
    repealed_dir: Path | None = None,
    updates_dir: Path | None = None,
) -> dict[str, Any]:
    """Parse the corpus folders into the store payload.

    Args:
        laws_dir: a ``cn_laws`` folder (LawRefBook markdown plus ``manifest.csv``).
        cases_dir: a ``cn_cases`` folder with ``guiding_cases_extract.jsonl``, or None.
        repealed_dir: a ``cn_repealed`` folder (texts of 合同法, 物权法 … repealed by 民法典
            第一千二百六十条, :mod:`governor.authorities.repealed_texts`), or None. Its texts
            become versions of those instruments, repealed per the registry; a title
            ``cn_laws`` already holds (the six interpretations) keeps the ``cn_laws`` text;
            a 「（YYYY年原文）」 text (民间借贷规定 2015) becomes the earlier version of its title.
        updates_dir: a ``cn_laws_updates`` folder (law made after the ``cn_laws`` snapshot,
            its ``manifest.csv`` and ``repeals.csv``; :func:`_read_updates`,
            :func:`_apply_repeals_csv`), or None.

    Returns:
        The JSON-able payload (format :data:`FORMAT`).

    Raises:
        CorpusError: the manifest or a listed file is missing or cannot be parsed.
    """
    laws_dir = Path(laws_dir)
    rows = _read_manifest(laws_dir)
    replaced: list[str] = []
    if updates_dir is not None:
        rows, replaced = _read_updates(rows, Path(updates_dir))
    groups: dict[str, list[tuple[dict[str, str], ParsedFile]]] = defaultdict(list)
    for m in rows:
        path = Path(m.pop("_file", "") or laws_dir / m["path"])
        try:
            parsed = parse_markdown(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise CorpusError(f"cannot parse {path}: {exc}; fix or remove the file") from exc
        groups[parsed.title].append((m, parsed))
    added_repealed: list[str] = []
    if repealed_dir is not None:
        for rf in read_repealed_folder(Path(repealed_dir)):
            original = _ORIGINAL_TEXT.search(rf.parsed.title)
            if original:  # 「…规定（2015年原文）」: an earlier version of a cn_laws title
                rf.parsed.title = rf.parsed.title[: original.start()]
            elif rf.parsed.title in groups:
                continue  # cn_laws keeps the same text (LawRefBook) under that title
            row = {"path": rf.path, "level": rf.level, "publish": "", "valid_from": ""}
            row.update(expired_flag="0" if original else "1")
            row.update(latest_in_corpus="0" if original else "1")
            groups[rf.parsed.title].append((row, rf.parsed))
            added_repealed.append(rf.path)

    instruments: dict[str, dict[str, Any]] = {}
    for title, members in groups.items():
        versions = _versions_of(members)
        ids = _version_ids(versions)
        vpayload = []
        for i, (v, vid) in enumerate(zip(versions, ids, strict=True)):
            nxt = versions[i + 1].in_force if i + 1 < len(versions) else None
            paths: dict[tuple[str, ...], int] = {}
            arts = [_article_payload(a, paths) for a in v.articles]
            vpayload.append(
                {
                    "version": vid,
                    "published": _iso(v.version_date),
                    "in_force_from": _iso(v.in_force),
                    "in_force_to": _iso(nxt),
                    "in_force_source": v.in_force_source,
                    "source_path": v.path,
                    "expired_flag": v.expired,
                    "body": "" if arts else v.parsed.body,
                    "paths": [list(p) for p in paths],
                    "articles": arts,
                }
            )
        last = versions[-1]
        instruments[title] = {
            "title": title,
            "level": last.level,
            "aliases": [],
            "versions": vpayload,
            "document_numbers": [],
            "repealed_on": None,
            "successor": None,
            "parent_law": None,
            "expired": last.expired,
            "enacted": _iso(min((on for v in versions for on, _ in v.parsed.events), default=None)),
            "repeal_source": None,
            "parts": [
                m[1].subtitle for m in sorted(members, key=lambda r: r[0]["path"]) if m[1].subtitle
            ],
            "_own_docnos": sorted({d for v in versions for d in v.parsed.docnos}),
        }

    in_force_fixes = audit_in_force(instruments, _resolver(instruments))
    newest = {t: max(ms, key=lambda r: r[0]["path"])[1] for t, ms in groups.items()}
    rebuilt = add_rebuilt_versions(
        instruments,
        {t: list(pf.events) for t, pf in newest.items()},
        {t: pf.body_in_force for t, pf in newest.items()},
    )
    rebuilt.update(
        add_decision_versions(
            instruments, {t: list(pf.events) for t, pf in newest.items()}, _resolver(instruments)
        )
    )
    rebuilt.update(add_constitution_versions(instruments, laws_dir))
    mark_later_amendments(instruments)
    repeals = _derive_repeals(instruments)
    scheduled: list[dict[str, Any]] = []
    if updates_dir is not None:
        scheduled = _apply_repeals_csv(instruments, repeals, Path(updates_dir))
    alias_table, short_names = _aliases(instruments, repeals)
    add_successor_links(instruments)
    docnos = _document_numbers(instruments, repeals)
    for inst in instruments.values():
        inst.pop("_own_docnos", None)
    cases = _guiding_cases(cases_dir) if cases_dir else []
    ordered = sorted(instruments.values(), key=lambda i: i["title"])
    digest = hashlib.sha1(f"{FORMAT}|".encode())
    digest.update(json.dumps(ordered, ensure_ascii=False, sort_keys=True).encode())
    return {
        "format": FORMAT,
        "build_id": digest.hexdigest()[:16],
        "source": {
            "laws_dir": laws_dir.name,
            "cases_dir": Path(cases_dir).name if cases_dir else None,
            "repealed_dir": Path(repealed_dir).name if repealed_dir else None,
            "repealed_texts": added_repealed,
            "in_force_fixes": in_force_fixes,
            "updates_dir": Path(updates_dir).name if updates_dir else None,
            "updates_replaced": replaced,
            "rebuilt_versions": rebuilt,
            "repeals_csv": scheduled,
        },
        "horizon": horizon_of(ordered),
        "instruments": ordered,
        "repeals": repeals,
        "aliases": dict(sorted(alias_table.items())),
        "short_names": short_names,
        "document_numbers": docnos,
        "guiding_cases": cases,
    }


def horizon_of(instruments: Iterable[dict[str, Any]]) -> str | None:
    """The store's horizon: the date (ISO) of its newest text, the latest ``published``
    date of any version (law made after it cannot be in the store)."""
    dates = [v["published"] for i in instruments for v in i["versions"] if v["published"]]
    return max(dates, default=None)


def _apply_repeals_csv(
    instruments: dict[str, dict[str, Any]], repeals: list[dict[str, Any]], updates_dir: Path
) -> list[dict[str, Any]]:
    """Apply ``cn_laws_updates/repeals.csv`` (whole repeals; a partial one, 「…第三十二条第一
    款」, is left to the text): an instrument of the store gets ``repealed_on`` = ``effective``
    (it stays in force until the day before: 生态环境法典 repeals ten laws on 2026-08-15), and
    the repealing instrument as successor when it is a law or interpretation of the store, not
    a 决定 that only lists repeals; an instrument the store lacks becomes a name-only repeal
    record. An earlier repeal already derived from a text is kept. Returns the rows applied."""
    path = updates_dir / "repeals.csv"
    if not path.is_file():
        return []
    resolve = _resolver(instruments)
    absent = {r["title"]: r for r in repeals}
    applied: list[dict[str, Any]] = []
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        if r.get("scope", "whole") != "whole" or not r.get("effective"):
            continue
        name = r["repealed"].strip()
        bare = _TRAILING_NOTE.sub("", name)
        found = resolve(name) or resolve(bare)
        by = resolve(r["by"]) or resolve(_TRAILING_NOTE.sub("", r["by"]))
        successor = by if by and "决定" not in by else None
        source = f"{r['by']}{r['provision']}".strip()
        on = r["effective"]
        if found is not None:
            inst = instruments[found]
            if inst["repealed_on"] is None or inst["repealed_on"] > on:
                inst.update(repealed_on=on, successor=successor, repeal_source=source)
            elif inst["repealed_on"] == on and inst["successor"] is None:
                inst["successor"] = successor
            applied.append({"title": found, "repealed_on": inst["repealed_on"], "in_store": True})
            continue
        rec = absent.get(bare)
        if rec is None or rec["repealed_on"] > on:
            rec = {
                "title": bare,
                "aliases": [],
                "repealed_on": on,
                "successor": successor,
                "level": _guess_level(bare),
                "source": source,
            }
            absent[bare] = rec
        applied.append({"title": bare, "repealed_on": rec["repealed_on"], "in_store": False})
    repeals[:] = sorted(absent.values(), key=lambda x: x["title"])
    return applied


def _resolver(instruments: dict[str, dict[str, Any]]) -> Callable[[str], str | None]:
    table = {norm_name(t): t for t in instruments}
    table.update({norm_name(strip_prc(t)): t for t in instruments if t != strip_prc(t)})
    return lambda name: table.get(norm_name(name))


def _derive_repeals(instruments: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Apply repeal clauses and the curated table; return records for absent instruments."""
    resolve = _resolver(instruments)
    absent: dict[str, dict[str, Any]] = {}
    for title, inst in instruments.items():
        for v in inst["versions"]:
            vfrom = _parse_date(v["in_force_from"])
            for key, _pidx, paras in v["articles"]:
                text = "\n".join(p[0] for p in paras)
                if "同时废止" not in text:
                    continue
                for clause in find_repeal_clauses(title, article_label(key), text):
                    on = clause.on or vfrom
                    if on is None:
                        continue
                    found, full = resolve_clause(clause, resolve)
                    if found == title:
                        continue  # an earlier version of the same title: supersession
                    if found is not None:
                        target = instruments[found]
                        newest = target["versions"][-1]
                        if (newest["in_force_from"] or newest["published"] or "") >= on.isoformat():
                            continue  # names an older, homonymous instrument (国家安全法 1993)
                        if target["repealed_on"] is None or target["repealed_on"] > on.isoformat():
                            target.update(
                                repealed_on=on.isoformat(),
                                successor=title,
                                repeal_source=clause.source,
                            )
                        continue
                    rec = absent.get(full)
                    if rec is None or rec["repealed_on"] > on.isoformat():
                        absent[full] = {
                            "title": full,
                            "aliases": [],
                            "repealed_on": on.isoformat(),
                            "successor": title,
                            "level": _guess_level(full),
                            "source": clause.source,
                        }
    for ji_title, (on, successor, source) in JI_REPEALS.items():
        ji = instruments.get(ji_title)
        if ji is None or ji["repealed_on"] is not None:
            continue
        ji.update(
            repealed_on=on.isoformat(),
            successor=successor if successor in instruments else None,
            repeal_source=source,
        )
    return sorted(absent.values(), key=lambda r: r["title"])


def _guess_level(title: str) -> str:
    """Level of a repealed instrument known only by name (no manifest row)."""
    if title.startswith("中华人民共和国") and not re.search(
        r"条例|细则|办法|规定|规则|章程", title
    ):
        return "法律"  # 中华人民共和国合同法 / 民法通则 / 民法总则 / 企业破产法（试行）
    if "最高人民法院" in title or "最高人民检察院" in title:
        return "司法解释"
    if title.endswith(("条例", "实施细则")):
        return "行政法规"
    return "其他"


def _aliases(
    instruments: dict[str, dict[str, Any]], repeals: list[dict[str, Any]]
) -> tuple[dict[str, str], list[str]]:
    sources = [NameSource(t, i["level"], tuple(i["parts"])) for t, i in instruments.items()]
    absent = [NameSource(r["title"], r["level"]) for r in repeals]
    table, shown = build_alias_table(sources, absent)
    by_title: dict[str, list[str]] = defaultdict(list)
    for alias in shown:
        title = table[norm_name(alias)]
        if alias != title:
            by_title[title].append(alias)
    for t, inst in instruments.items():
        inst["aliases"] = sorted(by_title.get(t, []), key=lambda a: (-len(a), a))
        law = _parent_law(t, table)
        inst["parent_law"] = law if law != t else None
    for r in repeals:
        r["aliases"] = sorted(by_title.get(r["title"], []), key=lambda a: (-len(a), a))
    # typical cases (案例) are sentences, never written bare before 第N条: resolvable, not listed
    cases = {t for t, i in instruments.items() if i["level"] == "案例"}
    return table, [a for a in shown if table[norm_name(a)] not in cases]


def _parent_law(title: str, table: dict[str, str]) -> str | None:
    m = re.match(
        r"^(?:最高人民法院(?:、最高人民检察院)?)?关于(?:适用|实施)《([^《》]+)》",
        title.replace("〈", "《").replace("〉", "》"),
    )
    if m:
        return table.get(norm_name(m[1]))
    m = re.match(r"^(.+法)实施(?:条例|细则|办法)$", title)
    if m:
        return table.get(norm_name(m[1]))
    return None


def _document_numbers(
    instruments: dict[str, dict[str, Any]], repeals: list[dict[str, Any]]
) -> dict[str, str]:
    """文号 → title: an instrument's own number near the top, plus 《title》（文号） mentions."""
    resolve = _resolver(instruments)
    absent = {norm_name(r["title"]): r["title"] for r in repeals}
    claims: dict[str, set[str]] = defaultdict(set)
    for title, inst in instruments.items():
        years = {v["published"][:4] for v in inst["versions"] if v["published"]}
        years |= {str(int(y) - 1) for y in years} | {str(int(y) + 1) for y in years}
        for d in inst["_own_docnos"]:
            m = rx.CORPUS_DOCNO.search(d)
            if m and m["year"] in years:
                claims[d].add(title)
    for inst in instruments.values():
        for v in inst["versions"]:
            texts: Iterable[str] = (p[0] for _k, _i, paras in v["articles"] for p in paras)
            for text in [*texts, v["body"]]:
                if "号）" not in text and "号)" not in text:
                    continue
                for m in rx.CORPUS_TITLED_DOCNO.finditer(text):
                    named = m["title"].replace("〈", "《").replace("〉", "》")
                    found = None
                    for cand in (
                        named,
                        f"最高人民法院{named}",
                        f"最高人民法院、最高人民检察院{named}",
                    ):
                        found = resolve(cand) or absent.get(norm_name(cand))
                        if found:
                            break
                    if found:
                        claims[normalise_docno(m["docno"])].add(found)
    out = {d: next(iter(ts)) for d, ts in claims.items() if len(ts) == 1}
    for d, t in out.items():
        if t in instruments:
            instruments[t]["document_numbers"].append(d)
    for inst in instruments.values():
        inst["document_numbers"].sort()
    return dict(sorted(out.items()))


def _guiding_cases(cases_dir: Path) -> list[dict[str, Any]]:
    path = Path(cases_dir) / "guiding_cases_extract.jsonl"
    if not path.is_file():
        raise CorpusError(
            f"{path} not found: pass --cases pointing at a cn_cases folder, or omit it"
        )
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            number = int(rec["number"])
        except (ValueError, KeyError, TypeError) as exc:
            raise CorpusError(f"{path}:{n}: not a guiding-case record ({exc})") from exc
        gist = rec.get("gist") or []
        out.append(
            {
                "number": number,
                "title": rec.get("title", ""),
                "published": rec.get("publishedAt") or None,
                "gist": "\n".join(gist) if isinstance(gist, list) else str(gist),
                "keywords": list(rec.get("keywords") or []),
                "related_laws": list(rec.get("relatedLaws") or []),
                "case_numbers": list(rec.get("case_numbers") or []),
                "no_longer_referenced": number in GUIDING_CASES_NOT_REFERENCED,
            }
        )
    return sorted(out, key=lambda c: c["number"])
