"""Criminal applicability benchmark: cases built from 刑法 and the 罪名 provisions (issue 15 item 3).

Usage: ``python -m benchmarks.bench_criminal [--n 120] [--seed 15] [--json]``.

Cases are generated from the store only (no LawBench label is read):

* **charge cases** — for a seeded sample of charges with one defining 分则 article (charge
  table from the 罪名 意见 and 补充规定), the facts are the defining article's first
  「……的」 condition of more than six characters (its trigger, as the statute words it: so the
  facts-only figure is optimistic — real facts are rarely in the statute's words); the sentence names the charge and
  cites either the defining article (*right*: must pass — ``supports``/``partially_supports``)
  or the defining article of another seeded charge (*wrong*: must fail — ``irrelevant``/
  ``contradicts``/``overextended``);
* **facts-only cases** — the same without the charge named (reported separately: the charge
  rule cannot fire; only the retrieval test judges them);
* **general-part cases** — a term defined in 总则 (自首, 累犯, 主犯, 从犯, 胁从犯, 教唆犯, 共同犯罪,
  立功 …, found by :mod:`governor.authorities.structure`) stated with its definition, cited to
  its own article (right) or to another general-part definition article (wrong).

Balanced accuracy = (share of right cases that pass + share of wrong cases that fail) / 2.
The figure is an estimate on generated sentences, not on model answers.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from dataclasses import dataclass
from datetime import date

from governor.api import Governor
from governor.authorities import AuthorityStore, load_default_store
from governor.authorities.charges import CRIMINAL_LAW, charge_table, is_special_part
from governor.authorities.structure import structure_of
from governor.core.config import load_config
from governor.text.numerals import article_label

AS_OF = date(2025, 6, 1)
PASS = frozenset({"supports", "partially_supports"})


@dataclass(frozen=True)
class Case:
    """One generated case: the sentence, the cited article key, whether it is right, and
    the family (``charge``, ``facts``, ``general``)."""

    text: str
    article: str
    right: bool
    family: str


def _trigger(store: AuthorityStore, article: str) -> str:
    rec = store.article(CRIMINAL_LAW, article, as_of=AS_OF)
    if rec is None:
        return ""
    clauses = [
        c.text.removesuffix("的")
        for c in structure_of(rec).conditions
        if c.kind == "clause" and len(c.text) > 6  # not 情节严重的 / 数额较大的
    ]
    if clauses:
        return clauses[0]
    first = re.split(r"[，。；]", rec.text)[0]
    return first.removesuffix("的")


def charge_cases(store: AuthorityStore, n: int, seed: int) -> list[Case]:
    """Right and wrong charge cases (and their facts-only twins) for ``n`` charges."""
    table = charge_table(store)
    single = sorted(
        (name, arts[0].article)
        for name, arts in table.by_charge.items()
        if len({a.article for a in arts}) == 1
        and is_special_part(arts[0].article)
        and len(table.charges_of(arts[0].article)) == 1
    )
    rng = random.Random(seed)
    picked = rng.sample(single, min(n, len(single)))
    out: list[Case] = []
    for i, (name, art) in enumerate(picked):
        facts = _trigger(store, art)
        if len(facts) < 4:
            continue
        other = picked[(i + 1 + rng.randrange(len(picked) - 1)) % len(picked)][1]
        if other == art:
            continue
        for cited, right in ((art, True), (other, False)):
            pin = article_label(cited)
            out.append(
                Case(
                    f"被告人{facts}，公诉机关以{name}提起公诉（《刑法》{pin}）。",
                    cited,
                    right,
                    "charge",
                )
            )
            out.append(
                Case(
                    f"被告人{facts}，应当依法追究刑事责任（《刑法》{pin}）。", cited, right, "facts"
                )
            )
    return out


def general_cases(store: AuthorityStore) -> list[Case]:
    """Right and wrong cases for each term a 总则 article defines."""
    defs: list[tuple[str, str, str]] = []
    for rec in store.articles(CRIMINAL_LAW):
        if is_special_part(rec.article):
            continue
        for term in structure_of(rec).defines:
            sentence = next((s for s in re.split(r"[。；\n]", rec.text) if term in s), "")
            if sentence and len(term) >= 2:
                defs.append((term, rec.article, sentence))
    out: list[Case] = []
    for i, (_term, art, sentence) in enumerate(defs):
        other = next(
            (a for t, a, _ in defs[i + 1 :] + defs[:i] if a != art and t not in sentence), None
        )
        out.append(Case(f"{sentence}（《刑法》{article_label(art)}）。", art, True, "general"))
        if other is not None:
            out.append(
                Case(f"{sentence}（《刑法》{article_label(other)}）。", other, False, "general")
            )
    return out


def evaluate(gov: Governor, cases: list[Case]) -> dict[str, object]:
    """Balanced accuracy overall and per family, with counts."""
    rows: dict[str, list[tuple[bool, bool]]] = {}
    for c in cases:
        vs = [v for v in gov.verify(c.text, as_of=AS_OF) if v.citation.article == c.article]
        passed = bool(vs) and vs[-1].applicability.label in PASS
        rows.setdefault(c.family, []).append((c.right, passed))

    def bacc(pairs: list[tuple[bool, bool]]) -> dict[str, float | int]:
        pos = [p for r, p in pairs if r]
        neg = [p for r, p in pairs if not r]
        tpr = sum(pos) / len(pos) if pos else 0.0
        tnr = sum(not p for p in neg) / len(neg) if neg else 0.0
        return {"n": len(pairs), "right": len(pos), "wrong": len(neg), "tpr": round(tpr, 3),
                "tnr": round(tnr, 3), "balanced_accuracy": round((tpr + tnr) / 2, 3)}  # fmt: skip

    judged = rows.get("charge", []) + rows.get("general", [])
    return {
        "charge_named_and_general": bacc(judged),
        **{fam: bacc(pairs) for fam, pairs in sorted(rows.items())},
    }


def main(argv: list[str] | None = None) -> int:
    """Print the balanced accuracy per family as JSON."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=80, help="charges sampled (2 cases each, + twins)")
    ap.add_argument("--seed", type=int, default=15)
    args = ap.parse_args(argv)
    store = load_default_store()
    gov = Governor(load_config(overrides={}, environ={}), store=store)
    cases = charge_cases(store, args.n, args.seed) + general_cases(store)
    result = evaluate(gov, cases)
    sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
