"""Plain-text views of the store for ``citegov corpus stats|show|search`` (layer 1).

Pure functions returning strings or row tuples; the CLI decides how to print them (rich tables
or plain lines). No citation parsing here: ``show`` takes an instrument name and an optional
article key or label, nothing more.
"""

from __future__ import annotations

from datetime import date

from governor.authorities.store import AuthorityStore
from governor.core.records import ArticleRecord
from governor.text.numerals import article_label, to_chinese


def stats_rows(store: AuthorityStore) -> list[tuple[str, int]]:
    """``(name, count)`` rows of :meth:`AuthorityStore.stats`, in a stable order."""
    return list(store.stats().items())


def format_article(record: ArticleRecord) -> str:
    """An article as printed in the source: ``第N条`` + 款 lines, 项 with their （N） markers."""
    head = article_label(record.article)
    lines = [p.full_text for p in record.paragraphs]
    body = "\n".join(lines) if lines else ""
    return f"{head} {body}".rstrip()


def show_text(
    store: AuthorityStore,
    name: str,
    article: str | None = None,
    *,
    as_of: date | None = None,
    version_hint: str | None = None,
) -> str | None:
    """Instrument summary (title, level, aliases, versions, status, successor) or one article.

    Returns None when the name (or the article in the selected version) is unknown.
    """
    title = store.resolve_instrument(name)
    if title is None:
        return None
    inst = store.instrument(title)
    if inst is None:  # repealed and absent from the corpus
        rec = store.repeal_record(title)
        if rec is None:
            return None
        succ = f"; successor {rec.successor}" if rec.successor else ""
        return f"{rec.title} [{rec.level}] repealed {rec.repealed_on}{succ} ({rec.source})"
    if article is not None:
        rec_a = store.article(title, article, as_of=as_of, version_hint=version_hint)
        if rec_a is None:
            return None
        path = " / ".join(rec_a.path)
        head = f"《{title}》（{rec_a.version}）" + (f" {path}" if path else "")
        paras = [
            f"  第{to_chinese(i + 1)}款 {p.full_text}" if len(rec_a.paragraphs) > 1 else ""
            for i, p in enumerate(rec_a.paragraphs)
        ]
        extra = "\n".join(p for p in paras if p)
        return head + "\n" + format_article(rec_a) + (f"\n{extra}" if extra else "")
    lines = [f"{inst.title} [{inst.level}] status: {store.status_of(title)}"]
    if inst.aliases:
        lines.append("aliases: " + "、".join(inst.aliases))
    if inst.parent_law:
        lines.append(f"interprets/implements: {inst.parent_law}")
    if inst.document_numbers:
        lines.append("document numbers: " + "、".join(inst.document_numbers))
    if inst.repealed_on:
        lines.append(f"repealed on {inst.repealed_on}; successor: {inst.successor or '-'}")
    for v in inst.versions:
        span = f"{v.in_force_from or '?'} → {v.in_force_to or 'now'}"
        size = f"{len(v.articles)} articles" if v.articles else f"{len(v.body)} chars of text"
        lines.append(f"  version {v.version}: in force {span}; {size}; {v.source_path}")
    return "\n".join(lines)


def search_rows(
    results: list[tuple[ArticleRecord, float]], width: int = 60
) -> list[tuple[str, str, float, str]]:
    """``(label, version, score, snippet)`` rows for search results (snippet cut at ``width``)."""
    rows = []
    for rec, score in results:
        text = rec.text.replace("\n", " ")
        snippet = text if len(text) <= width else text[: width - 1] + "…"
        rows.append(
            (f"《{rec.instrument}》{article_label(rec.article)}", rec.version, score, snippet)
        )
    return rows
