"""The ``citegov`` command line (typer). The composition root: nothing imports this module.

Exit codes: 0 success · 1 a ``--fail-on`` threshold was crossed · 2 usage error (bad flag,
unknown strategy, unreadable input) · 3 some drafts failed (the others were still written).
"""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from governor.errors import GovernorError

app = typer.Typer(
    name="citegov",
    help="Govern the citations of LLM-written legal research reports: extract, verify "
    "(Existence / Fidelity / Applicability), revise, score.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    add_completion=False,
)
corpus_app = typer.Typer(help="Build and inspect the authority store.", no_args_is_help=True)
app.add_typer(corpus_app, name="corpus")

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)

FilesArg = Annotated[
    list[Path], typer.Argument(help="Draft files (.md/.txt; UTF-8, GB18030 or UTF-16 with BOM).")
]
AsOfOpt = Annotated[
    str | None,
    typer.Option(
        "--as-of", help="Report date YYYY-MM-DD (default: a date the report states, else today)."
    ),
]
StrictOpt = Annotated[
    bool,
    typer.Option(
        "--strict", help="Score unverifiable citations 0.5 (and let E-Filter remove them)."
    ),
]
JudgeOpt = Annotated[str, typer.Option("--judge", help="F/A judge: offline (default) or llm.")]
ConfigOpt = Annotated[Path | None, typer.Option("--config", help="TOML config file.")]
MaxCharsOpt = Annotated[
    int | None, typer.Option("--max-chars", help="Refuse drafts longer than this (characters).")
]


def _fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[bold red]error:[/] {message}", highlight=False)
    return typer.Exit(code)


def _as_of(value: str | None) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise _fail(f"--as-of {value!r} is not a date; use YYYY-MM-DD") from None


def _governor(config: Path | None, **overrides: Any) -> Any:
    from governor.api import Governor
    from governor.config import load_config

    try:
        return Governor(load_config(config, overrides))
    except GovernorError as exc:
        raise _fail(str(exc)) from None


def _read(path: Path, gov: Any) -> Any:
    from governor.textio import read_draft

    return read_draft(path, max_chars=gov.config.max_chars)


def _verdict_table(title: str, rows: list[Any]) -> Table:
    t = Table(title=title, show_lines=False, title_justify="left")
    for col in ("citation", "E", "F", "A", "trust", "taxonomy", "suggestion"):
        t.add_column(col, overflow="fold")
    for c in rows:
        sug = c.suggestion.authority.label if c.suggestion else ""
        t.add_row(
            c.raw.replace("\n", " "),
            c.existence.label,
            c.fidelity.label,
            c.applicability.label,
            "excl." if c.excluded else f"{c.item_trust:.2f}",
            " ".join(c.taxonomy),
            sug,
        )
    return t


@app.command()
def verify(
    files: FilesArg,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the SPEC JSON report (one object per line).")
    ] = False,
    as_of: AsOfOpt = None,
    strict: StrictOpt = False,
    judge: JudgeOpt = "offline",
    config: ConfigOpt = None,
    max_chars: MaxCharsOpt = None,
    context: Annotated[
        str, typer.Option("--context", help="Question the report answers (used for claims).")
    ] = "",
) -> None:
    """Verify every citation of each draft (no revision): a table, or JSON with --json."""
    from governor.api import build_report, detect_as_of

    gov = _governor(config, strict=strict, judge=judge, max_chars=max_chars)
    fixed = _as_of(as_of)
    failed = 0
    for path in files:
        try:
            draft = _read(path, gov)
            when = fixed or gov.config.as_of or detect_as_of(draft.text)
            verdicts = gov.verify(draft.text, as_of=when, context=context)
        except GovernorError as exc:
            err.print(f"[red]{path}:[/] {exc}", highlight=False)
            failed += 1
            continue
        warnings = ["empty draft: no citations"] if not draft.text.strip() else []
        report = build_report(
            draft,
            as_of=when,
            strategy="none",
            judge=gov.judge.name,
            initial=verdicts,
            warnings=warnings,
        )
        for w in warnings:
            err.print(f"[yellow]warning:[/] {path}: {w}", highlight=False)
        if as_json:
            sys.stdout.write(report.model_dump_json() + "\n")
        else:
            s = report.scores
            out.print(_verdict_table(f"{path}  (as of {when})", list(report.citations)))
            out.print(
                f"citations {s.n_cite} · excluded {s.n_excluded} · trust {s.trust:.3f} · "
                f"all-pass {'yes' if s.all_pass else 'no'}\n",
                highlight=False,
            )
    if failed:
        raise typer.Exit(3 if failed < len(files) else 2)


def _out_paths(out_dir: Path, path: Path, taken: set[str]) -> tuple[Path, Path]:
    stem, suffix = path.stem, path.suffix or ".md"
    name = stem
    n = 1
    while name in taken:
        n += 1
        name = f"{stem}-{n}"
    taken.add(name)
    return out_dir / f"{name}{suffix}", out_dir / f"{name}.verdicts.json"


def _counts(cits: Any, axis: str) -> str:
    from collections import Counter

    c = Counter(getattr(x, axis).label for x in cits)
    return ", ".join(f"{k} {v}" for k, v in c.most_common())


@app.command()
def revise(
    files: FilesArg,
    out_dir: Annotated[Path, typer.Option("--out", help="Folder for revised drafts and verdicts.")],
    strategy: Annotated[str, typer.Option("--strategy", help="none | existence | efa")] = "efa",
    as_of: AsOfOpt = None,
    strict: StrictOpt = False,
    judge: JudgeOpt = "offline",
    max_rounds: Annotated[
        int | None, typer.Option("--max-rounds", help="Revision rounds at most (default 2).")
    ] = None,
    config: ConfigOpt = None,
    max_chars: MaxCharsOpt = None,
    context: Annotated[str, typer.Option("--context", help="Question the report answers.")] = "",
    fail_on: Annotated[
        float | None, typer.Option("--fail-on", help="Exit 1 if any final trust is below this.")
    ] = None,
) -> None:
    """Revise drafts: write the revised text, <name>.verdicts.json and a summary per draft."""
    from governor.api import build_report, detect_as_of
    from governor.config import STRATEGIES
    from governor.textio import atomic_write_text

    if strategy not in STRATEGIES:
        raise _fail(f"unknown strategy {strategy!r}; use one of: {', '.join(STRATEGIES)}")
    gov = _governor(
        config,
        strict=strict,
        judge=judge,
        max_rounds=max_rounds,
        max_chars=max_chars,
        strategy=strategy,
    )
    fixed = _as_of(as_of)
    taken: set[str] = set()
    failed = 0
    below = 0
    summary_rows: list[dict[str, Any]] = []
    for path in files:
        try:
            draft = _read(path, gov)
            text_out, json_out = _out_paths(out_dir, path, taken)
            if text_out.resolve() == path.resolve():
                raise _fail(f"{path}: --out would overwrite the input; choose another folder")
            when = fixed or gov.config.as_of or detect_as_of(draft.text)
            result = gov.govern(draft.text, strategy=strategy, as_of=when, context=context)
        except GovernorError as exc:
            err.print(f"[red]{path}:[/] {exc}", highlight=False)
            failed += 1
            continue
        report = build_report(
            draft,
            as_of=when,
            strategy=strategy,
            judge=gov.judge.name,
            initial=result.initial_verdicts,
            result=result,
        )
        atomic_write_text(text_out, result.text)
        atomic_write_text(json_out, report.model_dump_json(indent=2) + "\n")
        s0 = report.scores
        s1 = report.final.scores if report.final else s0
        if fail_on is not None and s1.trust < fail_on:
            below += 1
        row = {
            "input": str(path),
            "output": str(text_out),
            "verdicts": str(json_out),
            "citations": s0.n_cite,
            "edits": len(result.edits),
            "trust_before": round(s0.trust, 4),
            "trust_after": round(s1.trust, 4),
            "stop_reason": result.stop_reason,
        }
        summary_rows.append(row)
        out.print(
            f"[bold]{path}[/] → {text_out}\n"
            f"  citations {s0.n_cite} (excluded {s0.n_excluded}); "
            f"E: {_counts(report.citations, 'existence') or '-'}; "
            f"F: {_counts(report.citations, 'fidelity') or '-'}; "
            f"A: {_counts(report.citations, 'applicability') or '-'}\n"
            f"  edits {len(result.edits)} in {len(result.rounds)} round(s) · "
            f"trust {s0.trust:.3f} → {s1.trust:.3f} · stop: {result.stop_reason}",
            highlight=False,
        )
    if summary_rows:
        from governor.textio import atomic_write_text as _w

        _w(
            out_dir / "summary.jsonl",
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in summary_rows),
        )
    if failed:
        raise typer.Exit(3 if failed < len(files) else 2)
    if below:
        raise typer.Exit(1)


@app.command()
def schema() -> None:
    """Print the JSON Schema of the verdict report (verify --json, *.verdicts.json)."""
    from governor.output import json_schema

    sys.stdout.write(json.dumps(json_schema(), ensure_ascii=False, indent=2) + "\n")


@app.command()
def graph(
    mermaid: Annotated[bool, typer.Option("--mermaid", help="Print the graph as Mermaid.")] = True,
    strategy: Annotated[str, typer.Option("--strategy")] = "efa",
) -> None:
    """Draw the governance graph."""
    gov = _governor(None)
    g = gov.graph(strategy)
    sys.stdout.write(g.get_graph().draw_mermaid() + "\n")


@corpus_app.command("build")
def corpus_build(
    source: Annotated[Path, typer.Option("--from", help="LawRefBook-format folder (cn_laws).")],
    cases: Annotated[
        Path | None, typer.Option("--cases", help="Guiding cases folder (cn_cases).")
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--out", help="Store file to write (default: the user store).")
    ] = None,
) -> None:
    """Rebuild the authority store from a corpus folder."""
    from governor.authorities import AuthorityStore

    if not source.is_dir():
        raise _fail(f"--from {source}: not a folder; pass the cn_laws folder")
    try:
        store = AuthorityStore.build(source, cases)
    except GovernorError as exc:
        raise _fail(str(exc)) from None
    target = output or Path.home() / ".cache" / "citegov" / "store.json.gz"
    store.save(target)
    st = store.stats()
    out.print(f"wrote {target}: " + ", ".join(f"{k} {v:,}" for k, v in st.items()), highlight=False)


@corpus_app.command("stats")
def corpus_stats(config: ConfigOpt = None) -> None:
    """Counts of instruments, versions, articles, aliases, repealed instruments."""
    gov = _governor(config)
    t = Table(title="authority store")
    t.add_column("what")
    t.add_column("count", justify="right")
    for k, v in gov.store.stats().items():
        t.add_row(k, f"{v:,}")
    out.print(t)


@corpus_app.command("show")
def corpus_show(
    pin: Annotated[str, typer.Argument(help='A pin cite, e.g. "民法典第五百七十七条第二款".')],
    as_of: AsOfOpt = None,
    config: ConfigOpt = None,
) -> None:
    """Show the text of one provision."""
    from governor.extract import parse_pin

    gov = _governor(config)
    cit = parse_pin(pin, gov.store)
    if cit is None or cit.instrument is None or cit.article is None:
        raise _fail(f"{pin!r}: not a pin cite the store resolves; try e.g. 民法典第五百七十七条")
    when = _as_of(as_of)
    rec = gov.store.article(cit.instrument, cit.article, as_of=when, version_hint=cit.version_hint)
    if rec is None:
        raise _fail(f"{pin}: 《{cit.instrument}》 has no {cit.pin}", code=1)
    auth = gov.store.authority(rec, cit.paragraph, cit.item)
    if auth is None:
        raise _fail(f"{pin}: the article exists but not the cited 款/项", code=1)
    out.print(f"[bold]{auth.label}[/] ({auth.version or '?'}, {auth.status})", highlight=False)
    if auth.path:
        out.print(" / ".join(auth.path), style="dim", highlight=False)
    out.print(auth.text, highlight=False)


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
    gov = _governor(config)
    title = None
    if instrument:
        title = gov.store.resolve_instrument(instrument)
        if title is None:
            raise _fail(f"--in {instrument!r}: no such instrument in the store")
    t = Table(title=f"search: {query}")
    for col in ("#", "provision", "score", "text"):
        t.add_column(col, overflow="fold")
    for i, (rec, score) in enumerate(gov.retriever.search(query, instrument=title, k=k), 1):
        t.add_row(str(i), f"《{rec.instrument}》第{rec.article}条", f"{score:.3f}", rec.text[:120])
    out.print(t)


def main() -> None:
    """Console-script entry point: maps :class:`GovernorError` to exit code 2."""
    try:
        app()
    except GovernorError as exc:
        err.print(f"[bold red]error:[/] {exc}", highlight=False)
        raise SystemExit(2) from None
