"""Builders of the labelled calibration sets (``benchmarks/data/labels_*.jsonl``), layer 6.

How each label is obtained is stated here and in ``benchmarks/data/README.md``:

* **Existence** labels come from :class:`RawCorpus`, an index read *directly from the raw
  LawRefBook markdown* (``cn_laws``; markers per its SOURCE.md) — not from the authority
  store — so a parsing or resolution error of the store shows up as a disagreement. Names are
  matched after a fixed normalisation (《》, 中华人民共和国, version notes removed); the
  repealed laws are read from 民法典 第一千二百六十条 (in force 2021-01-01). Names the raw
  index cannot resolve (or whose repeal date it does not know) are decided by hand
  (``benchmarks/data/handcheck_names.json``, a note per name).
* **Applicability** on LawBench 3-2: a model citation supports the scenario iff it names the
  reference article (same instrument, same article); the reference answers themselves are
  the ``supports`` class. A reference whose own paraphrase does not match the cited article's
  text in the version in force on the as-of date (:data:`REF_MATCH`) is from another version
  or mis-numbered: its item is left out.
* **Fidelity** on LawBench 1-1: the recitation is compared with the article text of the
  version the reference answer matches (difflib ratio on normalised text): ≥ :data:`FAITHFUL`
  → ``faithful``, < :data:`MISDESCRIBED` → ``misdescribed``, in between → hand-checked
  (``benchmarks/data/handcheck.jsonl``, a note per item). The reference answers are the
  ``faithful`` class.
* **Perturbation suite** (:func:`build_perturb`): the labels the suite injects.
"""

from __future__ import annotations

import csv
import difflib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any, Final

from benchmarks.calibration import AXES, Expected, LabelledItem, provision_key
from benchmarks.datadir import data_path
from benchmarks.lawbench import LawBenchItem, load_file
from governor.authorities import AuthorityStore
from governor.citations.extract import extract
from governor.core.models import Citation
from governor.text.numerals import article_key, article_label
from verifiers.textsim import containment, normalize

LAWBENCH_AS_OF: Final = date(2023, 7, 1)
"""As-of date of LawBench answers: the dev models (GPT-3.5-turbo-0613, qwen-7b-chat,
chatglm2-6b) were all released by June 2023 and LawBench appeared in September 2023."""
FAITHFUL: Final = 0.9
MISDESCRIBED: Final = 0.4
REF_MATCH: Final = 0.3
"""Share of the reference paraphrase's content bigrams found in the reference article's text
for the reference to be taken as valid (reference answers paraphrase, so not higher)."""
STATUTE_KINDS: Final = frozenset({"statute", "judicial_interpretation", "regulation", "rule"})
_CATEGORY: Final = re.compile(r"[\u4e00-\u9fff]{1,12}类中的")
_LB_CATEGORIES: Final = (
    "民法商法",
    "社会法",
    "经济法",
    "行政法",
    "刑法",
    "宪法相关法",
    "诉讼与非诉讼程序法",
    "宪法",
    "民法典",
    "司法解释",
    "行政法规",
    "部门规章",
)

# ------------------------------------------------------------------------------ raw corpus

_ARTICLE_LINE = re.compile(
    # SOURCE.md's marker, tolerating a stray space before 条 (刑事诉讼法 "第一百二十八 条侦查…")
    r"^第([零〇一二两三四五六七八九十百千]+)\s?条(之[一二三四五六七八九十]+)?\s*(.*)$"
)
_HEADING = re.compile(r"^#+\s|^<!--")
_ITEM_LINE = re.compile(r"^[（(][一二三四五六七八九十]+[)）]")
_DATE_IN_NAME = re.compile(r"\((\d{4}-\d{2}-\d{2})\)\.md$")
_VERSION_NOTE = re.compile(r"[（(][^（）()]*?\d{4}[^（）()]*?[)）]$")
_PRC = "中华人民共和国"


def norm_name(name: str) -> str:
    """Normalised instrument name: no 《》/brackets/space, no 中华人民共和国, no trailing
    version note such as （2018年修正）."""
    s = re.sub(r"[《》〈〉<>\s]", "", name)
    s = _VERSION_NOTE.sub("", s)
    return s.removeprefix(_PRC)


@dataclass
class RawVersion:
    """One file (version) of an instrument: its dates and its articles' 款 counts."""

    path: str
    version: date | None
    in_force_from: date | None
    articles: dict[str, list[int]] = field(default_factory=dict)
    """Article key → number of 项 in each 款 (so ``len`` is the number of 款)."""


@dataclass
class RawCorpus:
    """Instrument versions read straight from the LawRefBook markdown files.

    ``titles`` maps :func:`norm_name` of each title to its versions (oldest first);
    ``repealed`` maps the normalised names repealed by 民法典 第一千二百六十条 to the date.
    """

    titles: dict[str, list[RawVersion]]
    repealed: dict[str, date]
    expired: frozenset[str] = frozenset()

    @classmethod
    def read(cls, laws_dir: Path) -> RawCorpus:
        """Parse ``laws_dir`` (the cn_laws folder with ``manifest.csv``)."""
        manifest: dict[str, Mapping[str, str]] = {}
        with (laws_dir / "manifest.csv").open(encoding="utf-8") as fh:
            for row in csv.DictReader(fh):
                manifest[row["path"]] = row
        titles: dict[str, dict[str, RawVersion]] = {}
        expired: set[str] = set()
        civil_1260 = ""
        for path in sorted(laws_dir.rglob("*.md")):
            rel = path.relative_to(laws_dir).as_posix()
            if rel.split("/")[0] in ("案例", "其他") or rel == "法律法规模版.md":
                continue
            lines = path.read_text(encoding="utf-8").splitlines()
            if not lines or not lines[0].startswith("# "):
                continue
            title = lines[0][2:].strip()
            meta = manifest.get(rel, {})
            m = _DATE_IN_NAME.search(path.name)
            vdate = _d(m.group(1)) if m else _d(meta.get("publish"))
            key = m.group(1) if m else (meta.get("publish") or "")
            if meta.get("expired_flag") == "1" and meta.get("latest_in_corpus") == "1":
                expired.add(norm_name(title))
            ver = titles.setdefault(norm_name(title), {}).setdefault(
                key, RawVersion(rel, vdate, _d(meta.get("valid_from")) or vdate)
            )
            current: str | None = None
            for line in lines[1:]:
                s = line.strip()
                am = _ARTICLE_LINE.match(s)
                if am:
                    current = article_key(am.group(1), am.group(2))
                    ver.articles[current] = [0]
                    if title.endswith("民法典") and current == "1260":
                        civil_1260 = am.group(3)
                elif _HEADING.match(s):
                    current = None
                elif s and current is not None:
                    if _ITEM_LINE.match(s):
                        ver.articles[current][-1] += 1
                    else:
                        ver.articles[current].append(0)
        repealed_on = date(2021, 1, 1)
        repealed = {norm_name(n): repealed_on for n in re.findall(r"《([^》]+)》", civil_1260) if n}
        return cls(
            {
                k: sorted(v.values(), key=lambda x: x.in_force_from or date.min)
                for k, v in titles.items()
            },
            repealed,
            frozenset(expired),
        )

    def version_on(self, name: str, as_of: date) -> RawVersion | None:
        """The version of ``name`` (normalised) in force on ``as_of`` (the latest begun)."""
        vs = [v for v in self.titles.get(name, []) if (v.in_force_from or date.min) <= as_of]
        return vs[-1] if vs else None


def _d(s: str | None) -> date | None:
    try:
        return date.fromisoformat(s) if s else None
    except ValueError:
        return None


def load_name_decisions(path: Path) -> dict[str, dict[str, str]]:
    """Hand decisions on instrument names (``handcheck_names.json``; missing file: empty)."""
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if not k.startswith("_")}


def raw_existence(
    cit: Citation,
    raw: RawCorpus,
    as_of: date,
    names: Mapping[str, Mapping[str, str]] | None = None,
) -> tuple[str | None, str]:
    """Existence label of an explicit citation from the raw corpus, with the rule used.

    Order: a hand decision on the name (``names``); the 民法典第一千二百六十条 repeal list;
    the raw titles (an instrument whose latest file carries the upstream ``expired`` flag is
    left undecided, its repeal date being unknown). Returns ``(None, why)`` when undecided.
    ``"drop"`` means the citation is not to be labelled.
    """
    name = norm_name(cit.instrument_as_written or "")
    hand = (names or {}).get(name)
    if hand is not None:
        if hand["label"] == "alias":
            target = norm_name(hand["title"])
            label, why = raw_article(target, cit.article or "", cit.paragraph, cit.item, raw, as_of)
            return label, f"hand: {hand['note']}; {why}"
        return hand["label"], f"hand: {hand['note']}"
    if name in raw.repealed and as_of >= raw.repealed[name]:
        return "repealed", "named in 民法典第一千二百六十条 (repealed 2021-01-01)"
    if name not in raw.titles:
        return None, f"name {name!r} not among the raw titles"
    if name in raw.expired:
        return None, f"{raw.titles[name][-1].path} carries the expired flag"
    return raw_article(name, cit.article or "", cit.paragraph, cit.item, raw, as_of)


def raw_article(
    name: str, art: str, paragraph: int | None, item: int | None, raw: RawCorpus, as_of: date
) -> tuple[str, str]:
    """Existence label of article ``art`` (款 ``paragraph``, 项 ``item``) of the instrument
    with normalised name ``name`` (which must be in ``raw.titles``) on ``as_of``."""
    v = raw.version_on(name, as_of)
    if v is None:
        first = raw.titles[name][0]
        return "repealed", f"{first.path} was not yet in force on {as_of.isoformat()}"
    if art not in v.articles:
        others = [o for o in raw.titles[name] if art in o.articles]
        if others:
            return "repealed", f"article only in {others[0].path}"
        return "not_found", f"{v.path} has no article {art} ({len(v.articles)} articles)"
    paras = v.articles[art]
    if paragraph is not None and paragraph > len(paras):
        return "partial", f"{v.path} article {art} has {len(paras)} 款"
    if item is not None:
        n_items = paras[(paragraph or 1) - 1] if paragraph else max(paras)
        if item > n_items:
            return "partial", f"{v.path} article {art} 款 {paragraph or 1} has {n_items} 项"
    return "exists", f"{v.path} has article {art}"


# ------------------------------------------------------------------------------ hand checks


@dataclass(frozen=True)
class HandCheck:
    """A hand decision: the item ``id`` gets ``label`` on ``axis`` (``"drop"``: left out)."""

    id: str
    axis: str
    label: str
    note: str


def load_handchecks(path: Path) -> dict[tuple[str, str], HandCheck]:
    """``{(id, axis): HandCheck}`` from a JSONL file (missing file: empty)."""
    if not path.is_file():
        return {}
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            d = json.loads(line)
            hc = HandCheck(d["id"], d["axis"], d["label"], d.get("note", ""))
            out[(hc.id, hc.axis)] = hc
    return out


def apply_handchecks(
    items: Iterable[LabelledItem], checks: Mapping[tuple[str, str], HandCheck]
) -> list[LabelledItem]:
    """Apply hand decisions; an item whose every labelled axis is dropped is left out."""
    out = []
    for it in items:
        exp: dict[str, Any] = it.expected.model_dump()
        how = it.how
        touched = False
        for axis in ("existence", "fidelity", "applicability"):
            hc = checks.get((it.id, axis))
            if hc is None:
                continue
            touched = True
            exp[axis] = None if hc.label == "drop" else hc.label
            how += f"; {axis} hand-checked: {hc.note}"
        if touched and all(exp[a] is None for a in ("existence", "fidelity", "applicability")):
            continue
        out.append(it.model_copy(update={"expected": Expected(**exp), "how": how}))
    return out


# ------------------------------------------------------------------------------ LawBench 3-2


def reference_citation(reference: str, store: AuthorityStore) -> Citation | None:
    """The article a 3-2 reference answer names (category prefixes such as
    ``社会法类中的`` removed first); None when it names no article."""
    cleaned = _CATEGORY.sub("", reference)
    for c in extract(cleaned, store):
        if c.kind in STATUTE_KINDS and c.article and c.instrument:
            return c.model_copy(update={"description": cleaned[c.span.end :]})
    return None


def _explicit(c: Citation) -> bool:
    return (
        c.kind in STATUTE_KINDS
        and c.article is not None
        and c.antecedent is None
        and bool(c.instrument_as_written)
        and norm_name(c.instrument_as_written or "") in norm_name(c.raw)
    )


def build_lawbench_32(
    items: Sequence[LawBenchItem],
    store: AuthorityStore,
    raw: RawCorpus,
    names: Mapping[str, Mapping[str, str]] | None = None,
) -> list[LabelledItem]:
    """Labelled citations of task 3-2 (E on explicit model citations; A vs the reference).

    Items: every explicit article citation of each model answer (E always; A when the
    reference is valid and the citation exists), plus the reference answer's own citation
    (E and A ``supports``) when the reference is valid.
    """
    out: list[LabelledItem] = []
    for it in items:
        ref = reference_citation(it.reference, store)
        valid = None
        if ref is not None:
            rec = store.article(ref.instrument or "", ref.article or "", as_of=LAWBENCH_AS_OF)
            if rec is not None and containment(ref.description, rec.text) >= REF_MATCH:
                valid = ref
        text = it.prediction.strip()
        for n, c in enumerate(extract(text, store)):
            if not _explicit(c):
                continue
            e_label, e_how = raw_existence(c, raw, LAWBENCH_AS_OF, names)
            if e_label == "drop":
                continue
            a_label = None
            a_how = "reference invalid or absent: A not labelled"
            if valid is not None and e_label == "exists":
                same = c.instrument == valid.instrument and c.article == valid.article
                a_label = "supports" if same else "irrelevant"
                a_how = f"reference is {valid.raw} ({'same' if same else 'other'} article)"
            out.append(
                LabelledItem(
                    id=f"3-2:{it.model}:{it.index:03d}:{n}",
                    set="lawbench_3-2",
                    group=it.model,
                    text=text,
                    as_of=LAWBENCH_AS_OF,
                    context=it.question,
                    span=(c.span.start, c.span.end),
                    raw=c.raw,
                    expected=Expected(
                        existence=e_label,
                        applicability=a_label,
                        suggestion=provision_key(valid.instrument or "", valid.article)
                        if a_label == "irrelevant" and valid is not None
                        else None,
                    ),
                    how=f"E: raw corpus: {e_how}"
                    + ("" if e_label is not None else " (undecided: E not labelled)")
                    + f"; A: {a_how}",
                )
            )
        if valid is not None and it.model == _FIRST_MODEL:
            rtext = _CATEGORY.sub("", it.reference).strip()
            e_label, e_how = raw_existence(valid, raw, LAWBENCH_AS_OF, names)
            out.append(
                LabelledItem(
                    id=f"3-2:reference:{it.index:03d}",
                    set="lawbench_3-2",
                    group="reference",
                    text=rtext,
                    as_of=LAWBENCH_AS_OF,
                    context=it.question,
                    span=(valid.span.start, valid.span.end),
                    raw=valid.raw,
                    expected=Expected(
                        existence=e_label if e_label != "drop" else None,
                        applicability="supports",
                    ),
                    how=f"reference answer (supports by construction); E: raw corpus: {e_how}",
                )
            )
    return out


_FIRST_MODEL = "GPT-3.5-turbo-0613"
"""Reference answers are the same in every model's file: they are taken from this one."""

# ------------------------------------------------------------------------------ LawBench 1-1

_Q11 = re.compile(
    r"^(?P<name>.*?)(?P<art>第[零〇一二两三四五六七八九十百千]+条(?:之[一二三四五六七八九十]+)?)"
    r"的内容是什么"
)
_RECITE_HEAD = re.compile(
    r"""^\s*(?:根据|依据|按照)?
        [^。\n]{0,40}?第[零〇一二两三四五六七八九十百千0-9]+条(?:之[一二三四五六七八九十]+)?   # …第N条
        (?:的)?(?:内容|规定)?(?:如下|是|为)?                                         # 的内容如下
        (?:[:：，,]\s*|\s+)                                                         # ： ， or a space
    """,
    re.VERBOSE,
)


def question_article(question: str, store: AuthorityStore) -> tuple[str, str] | None:
    """``(canonical title, article key)`` a 1-1 question asks about, or None.

    The question is ``<category><law name>第N条的内容是什么？``; the LawBench category
    (民法商法, 社会法…) is removed when the remaining name resolves.
    """
    m = _Q11.match(question.strip())
    if m is None:
        return None
    name = m.group("name").strip()
    for cat in _LB_CATEGORIES:
        if name.startswith(cat) and store.resolve_instrument(name[len(cat) :]):
            name = name[len(cat) :]
            break
    title = store.resolve_instrument(name)
    if title is None:
        return None
    art = m.group("art")[1:]
    base, _, sfx = art.partition("条")
    return title, article_key(base, sfx or None)


def similarity(a: str, b: str) -> float:
    """difflib ratio of the two normalised texts (punctuation, width, whitespace folded)."""
    x, y = normalize(a), normalize(b)
    if not x or not y:
        return 0.0
    return difflib.SequenceMatcher(None, x, y, autojunk=False).ratio()


def recitation(prediction: str) -> str:
    """A 1-1 answer without its lead-in (``《X》第N条规定：``, ``第N条␠``) and outer quotes."""
    s = prediction.strip()
    for _ in range(3):  # 《X》第N条内容如下： 第N条 …
        m = _RECITE_HEAD.match(s)
        if m is None or len(s) - m.end() < 4:
            break
        s = s[m.end() :].lstrip()
    return s.strip().strip('“”"「」').strip()


def _as_of_for(title: str, version: str, store: AuthorityStore) -> date:
    inst = store.instrument(title)
    assert inst is not None
    for i, v in enumerate(inst.versions):
        if v.version != version:
            continue
        start = v.in_force_from or v.published or LAWBENCH_AS_OF
        end = inst.versions[i + 1].in_force_from if i + 1 < len(inst.versions) else None
        if start <= LAWBENCH_AS_OF and (end is None or LAWBENCH_AS_OF < end):
            return LAWBENCH_AS_OF
        return max(start, (end - timedelta(days=1)) if end else start)
    return LAWBENCH_AS_OF


def _draft(title: str, art: str, body: str) -> tuple[str, tuple[int, int]]:
    cite = f"《{title.removeprefix(_PRC)}》{article_label(art)}"
    return f"{cite}规定：{body}", (0, len(cite))


def build_lawbench_11(items: Sequence[LawBenchItem], store: AuthorityStore) -> list[LabelledItem]:
    """Labelled recitations of task 1-1 (F only).

    The draft is ``《X》第N条规定：<recitation>`` (the model's lead-in removed), so the target
    citation is the article the question asks about. The version is the one whose text the
    reference answer matches best; the as-of date is LAWBENCH_AS_OF when that version was in
    force then, else a day inside its force interval.
    """
    out: list[LabelledItem] = []
    for it in items:
        qa = question_article(it.question, store)
        if qa is None:
            continue
        title, art = qa
        inst = store.instrument(title)
        if inst is None:
            continue
        ref_text = it.reference.removeprefix("答案:").replace("。,", "。\n")
        best: tuple[float, Any] | None = None
        for v in inst.versions:
            rec = store.article(title, art, version_hint=v.version)
            if rec is not None and rec.version == v.version:
                r = similarity(ref_text, rec.text)
                if best is None or r > best[0]:
                    best = (r, rec)
        if best is None:
            continue
        ref_ratio, rec = best
        as_of = _as_of_for(title, rec.version, store)
        body = recitation(it.prediction)
        r = similarity(body, rec.text)
        label = "faithful" if r >= FAITHFUL else "misdescribed" if r < MISDESCRIBED else None
        text, span = _draft(title, art, body)
        out.append(
            LabelledItem(
                id=f"1-1:{it.model}:{it.index:03d}",
                set="lawbench_1-1",
                group=it.model,
                text=text,
                as_of=as_of,
                context=it.question,
                span=span,
                raw=text[span[0] : span[1]],
                expected=Expected(fidelity=label or "partially_faithful"),
                how=f"F: ratio {r:.2f} to {rec.key}"
                + ("" if label else " (borderline: default partially_faithful, hand-check)"),
            )
        )
        if it.model == _FIRST_MODEL and ref_ratio >= FAITHFUL:
            rtext, rspan = _draft(title, art, ref_text)
            out.append(
                LabelledItem(
                    id=f"1-1:reference:{it.index:03d}",
                    set="lawbench_1-1",
                    group="reference",
                    text=rtext,
                    as_of=as_of,
                    context=it.question,
                    span=rspan,
                    raw=rtext[rspan[0] : rspan[1]],
                    expected=Expected(fidelity="faithful"),
                    how=f"reference answer, ratio {ref_ratio:.2f} to {rec.key}",
                )
            )
    return out


# ------------------------------------------------------------------------------ perturbation suite


REPAIR_TARGET_KINDS: Final = frozenset(
    {"shifted_article", "fabricated_article", "repealed_instrument"}
)
"""Injected errors whose repair is "cite the original provision": their label carries it as
the suggestion target (the provision the description was taken from)."""


def _original_key(record_key: str) -> str:
    """``"<title>@<version>#<article>"`` → ``"<title>#<article>"`` (a suggestion target)."""
    head, _, art = record_key.rpartition("#")
    return provision_key(head.rpartition("@")[0], art)


def build_perturb(
    store: AuthorityStore, *, seeds: Sequence[int] = (0, 1), n_reports: int = 60
) -> list[LabelledItem]:
    """Labelled citations of the perturbation suite (``benchmarks.perturb``), unscreened.

    Each injected error is an item with the suite's expected labels and taxonomy codes
    (``kind`` = the error kind); every untouched citation is a ``clean`` item expected
    ``exists``/``faithful``/``supports``. ``group`` is ``seed<N>``: tune on one seed, report
    on the other. The suite is generated without the offline verifier's screen, so clean
    citations the verifier would fail stay in (screening would flatter the verifier).
    """
    from benchmarks.perturb import CLEAN_LABELS, generate_suite

    out: list[LabelledItem] = []
    for seed in seeds:
        for rep in generate_suite(store, n_reports=n_reports, seed=seed):
            common = {
                "set": "perturb",
                "group": f"seed{seed}",
                "text": rep.text,
                "as_of": rep.as_of,
                "context": rep.task.query,
            }
            spans = []
            for n, err in enumerate(rep.errors):
                spans.append((err.span.start, err.span.end))
                out.append(
                    LabelledItem(
                        id=f"perturb:{rep.id}:e{n}",
                        kind=err.kind,
                        span=(err.span.start, err.span.end),
                        raw=err.citation_raw,
                        expected=Expected(
                            existence=err.existence,
                            fidelity=err.fidelity,
                            applicability=err.applicability,
                            taxonomy=tuple(err.taxonomy),
                            suggestion=_original_key(err.original)
                            if err.kind in REPAIR_TARGET_KINDS
                            else None,
                        ),
                        how=f"injected {err.kind}: {err.detail or err.original_label}",
                        **common,
                    )
                )
            clean = set(rep.clean_citations)
            e_lab, f_lab, a_lab = CLEAN_LABELS
            for n, c in enumerate(extract(rep.text, store)):
                if c.raw not in clean or any(c.span.start < e and s < c.span.end for s, e in spans):
                    continue
                out.append(
                    LabelledItem(
                        id=f"perturb:{rep.id}:c{n}",
                        kind="clean",
                        span=(c.span.start, c.span.end),
                        raw=c.raw,
                        expected=Expected(existence=e_lab, fidelity=f_lab, applicability=a_lab),
                        how="untouched citation of a generated report (real provision text)",
                        **common,
                    )
                )
    return out


# ------------------------------------------------------------------------------ entry point


def build_all(
    lawbench_dir: Path, laws_dir: Path, out_dir: Path, store: AuthorityStore
) -> dict[str, int]:
    """Build ``labels_lawbench_3-2.jsonl`` and ``labels_lawbench_1-1.jsonl`` in ``out_dir``
    (hand checks from ``out_dir/handcheck.jsonl`` applied). Returns item counts per file."""
    from benchmarks.calibration import write_labels

    checks = load_handchecks(out_dir / "handcheck.jsonl")
    names = load_name_decisions(out_dir / "handcheck_names.json")
    raw = RawCorpus.read(laws_dir)
    counts = {}
    for task, build in (("3-2", "32"), ("1-1", "11")):
        items: list[LabelledItem] = []
        for f in sorted(lawbench_dir.glob(f"*_zero_shot_{task}.json")):
            lb = load_file(f)
            items += (
                build_lawbench_32(lb, store, raw, names)
                if build == "32"
                else build_lawbench_11(lb, store)
            )
        items = [
            it
            for it in apply_handchecks(items, checks)
            if any(it.expected.label(a) is not None for a in AXES)
        ]
        name = f"labels_lawbench_{task}.jsonl"
        counts[name] = write_labels(items, out_dir / name)
    counts["labels_perturb.jsonl"] = write_labels(
        build_perturb(store), out_dir / "labels_perturb.jsonl"
    )
    return counts


def _main(argv: Sequence[str] | None = None) -> None:
    import argparse

    from governor.authorities import load_default_store

    p = argparse.ArgumentParser(description="Build the LawBench calibration label sets.")
    p.add_argument("--lawbench", type=Path, default=data_path("lawbench_dev"))
    p.add_argument("--laws", type=Path, default=data_path("cn_laws"))
    p.add_argument("--out", type=Path, default=Path("benchmarks/data"))
    a = p.parse_args(argv)
    print(build_all(a.lawbench, a.laws, a.out, load_default_store()))


if __name__ == "__main__":
    _main()
