"""Batch revision: many drafts → revised texts, verdict reports, HTML pages, a resumable summary.

Layer 7 (beside :mod:`governor.api`). Used by ``citegov revise`` and by
:meth:`governor.api.Governor.revise_many`.

Inputs are files, folders (searched recursively for ``.md``/``.markdown``/``.txt``/``.docx``;
hidden entries and the output folder itself are skipped) and glob patterns. A ``.docx`` is read
with python-docx (paragraphs and tables in document order, headings as ``#``) and its revision
is written as Markdown: ``report.docx`` → ``report.md``.

Outputs per draft, all in ``out_dir`` and all written atomically (temp file + ``os.replace``):

* ``<name><suffix>``: the revised text (``.md`` for ``.docx`` inputs);
* ``<name>.verdicts.json``: the SPEC §2 report (:func:`governor.reports.json_report.build_report`);
* ``<name>.html``: the annotated page (:func:`governor.reports.html.render_draft`);

and per batch ``index.html`` plus ``summary.jsonl``: one :class:`BatchRow` per input, appended
(and fsync'ed) right after that draft's outputs are written. The summary is the checkpoint: a
draft is done when its row is there. ``resume=True`` skips an input whose row says ``ok`` with
the same content hash (sha256 of the file's bytes), the same settings fingerprint and the same
output name, and whose outputs still exist; everything else is (re)done. Killed at any point
(even ``SIGKILL`` of the process group), a resumed run neither loses nor duplicates a draft: a
draft killed between its outputs and its row is redone and its outputs replaced atomically; a
half-written last line is dropped when the summary is compacted at the start of the next run
(latest row per input wins). Without ``resume`` the summary starts empty.

``<name>`` is the input's stem when unique in the batch; stems that collide (case-insensitive,
e.g. ``a/x.md`` and ``b/x.md``, or ``x.md`` and ``x.txt``) are prefixed with as many parent
folder names as make them unique (``a__x``, ``b__x``), else suffixed with a hash of the absolute
path. ``index`` is reserved for the batch page. An output path that is also an input is refused,
and so is an input whose outputs would be one file with another output (``a.html``, whose
revised text is its page; ``x.md`` with ``x.verdicts.json``), before anything is written.

Processes (issue 23): worker processes die with the batch process, even when it is killed with
``SIGKILL`` (:func:`die_with_parent`); SIGTERM and Ctrl-C stop them at once
(:func:`stop_workers`). The folder lock records its owner and is taken over from a batch that
is gone (:func:`_locked`). An output that cannot be written stops the batch with
:class:`~governor.core.errors.OutputError` (CLI exit 4), never a failed row per draft. A draft
with more than ``config.max_citations`` citations is a ``too_large`` failed row
(:func:`check_citations`).
"""

from __future__ import annotations

import contextlib
import errno
import gc
import glob
import hashlib
import importlib
import io
import json
import os
import re
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from governor import __version__
from governor.core.config import FIXED_THRESHOLDS, STRATEGIES, Config
from governor.core.errors import (
    FATAL_ENDPOINT_ERRORS,
    ConfigError,
    EncodingError,
    GovernorError,
    InputError,
    InputTooLargeError,
    OutputError,
    StrategyError,
    first_problem,
)
from governor.core.extras import require, unread_us_cases
from governor.core.gaps import INFO_ONLY, coverage_gaps, gap_line
from governor.core.labels import deletion_counts
from governor.core.logs import get_logger
from governor.core.report import SCHEMA_VERSION
from governor.text.script import language
from governor.text.textio import Draft, atomic_write_text, read_draft
from verifiers.coverage import draft_support

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext


class Governor(Protocol):
    """What a batch needs of the facade (:class:`governor.api.Governor` satisfies it).

    Injected, so this module never imports :mod:`governor.api` (no import circle). Worker
    processes rebuild one with ``type(gov)(gov.config)``.
    """

    config: Config

    @property
    def judge(self) -> Any: ...

    @property
    def store(self) -> Any:
        """The authority store (its ``horizon`` dates the report's gaps)."""
        ...

    def govern(
        self, text: str, *, strategy: str | None = ..., as_of: date | None = ..., context: str = ...
    ) -> Any: ...


DRAFT_SUFFIXES: tuple[str, ...] = (".md", ".markdown", ".txt", ".docx")
"""Suffixes picked up when a folder or a glob is given (explicit files may have any suffix)."""
SUMMARY_NAME = "summary.jsonl"
INDEX_NAME = "index.html"
_LOCK_NAME = ".citegov-batch.lock"
_RESERVED = frozenset({"index"})
_UNSAFE_NAME = re.compile(r"[^\w.\-]+")


# ---------------------------------------------------------------------------------------------
# Inputs


def collect_inputs(specs: Sequence[str | Path], *, exclude: Path | None = None) -> tuple[Path, ...]:
    """Expand files, folders and glob patterns into draft paths.

    Args:
        specs: paths or glob patterns (``drafts/**/*.md``) as the user gave them.
        exclude: a folder whose contents are never picked from a folder or glob (the output
            folder, so a second run does not revise its own outputs).

    Returns:
        Absolute-resolved paths, in the order given (folder and glob hits sorted), without
        duplicates.

    Raises:
        InputError: a spec names nothing (no such file or folder, a glob without matches) or a
            folder holds no drafts.
    """
    out: list[Path] = []
    seen: set[Path] = set()
    skip = exclude.resolve() if exclude is not None else None

    def add(p: Path) -> None:
        r = p.resolve()
        if r not in seen:
            seen.add(r)
            out.append(r)

    outputs: dict[Path, bool] = {}

    def is_output_folder(d: Path) -> bool:
        """A folder citegov wrote (it holds summary.jsonl): never read back as drafts."""
        if d not in outputs:
            outputs[d] = (d / SUMMARY_NAME).is_file()
        return outputs[d]

    def scan(folder: Path) -> list[Path]:
        hits = []
        for p in sorted(folder.rglob("*")):
            rel = p.relative_to(folder).parts
            if any(part.startswith(".") for part in rel) or not p.is_file():
                continue
            if any(is_output_folder(a) for a in p.parents if a != folder and folder in a.parents):
                continue
            if p.suffix.lower() not in DRAFT_SUFFIXES or _inside(p, skip):
                continue
            hits.append(p)
        return hits

    for spec in specs:
        p = Path(spec)
        if p.is_dir() and skip is not None and p.resolve() == skip:
            raise InputError(
                f"{spec}: is also the --out folder; write the outputs to another folder "
                "(inputs are never overwritten)"
            )
        if p.is_dir():
            hits = scan(p)
            if not hits:
                raise InputError(
                    f"{spec}: folder holds no drafts ({', '.join(DRAFT_SUFFIXES)}); "
                    "pass another folder or the files themselves"
                )
            for h in hits:
                add(h)
        elif p.is_file():
            add(p)
        elif glob.has_magic(str(spec)):
            matched = 0
            for m in sorted(glob.glob(str(spec), recursive=True)):
                mp = Path(m)
                files = scan(mp) if mp.is_dir() else [mp]
                for f in files:
                    if f.suffix.lower() in DRAFT_SUFFIXES and not _inside(f, skip):
                        add(f)
                        matched += 1
            if not matched:
                raise InputError(f"{spec}: no draft files match this pattern; check the glob")
        else:
            raise InputError(f"{spec}: no such file or folder; check the path")
    return tuple(out)


def _inside(p: Path, folder: Path | None) -> bool:
    if folder is None:
        return False
    try:
        p.resolve().relative_to(folder)
    except ValueError:
        return False
    return True


def read_docx(path: Path, *, max_chars: int = 2_000_000) -> Draft:
    """Read a Word ``.docx`` draft as text (python-docx).

    Paragraphs and tables come in document order; a paragraph styled ``Heading N`` gets ``N``
    leading ``#``; a table row becomes ``| cell | cell |`` (merged cells once). ``sha256`` is
    over the file's bytes; ``encoding`` is ``"docx"``. Spans of citations index this text.

    Raises:
        InputError: missing or unreadable file.
        EncodingError: not a valid ``.docx`` package.
        InputTooLargeError: more than ``max_chars`` characters of text.
    """
    require("docx")  # the `docx` extra: MissingExtraError names `pip install 'citegov[docx]'`
    from docx import Document
    from docx.table import Table

    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror}); check the path") from None
    try:
        doc = Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises zipfile/KeyError/ValueError/its own errors
        raise EncodingError(
            f"{path}: not a readable .docx ({type(exc).__name__}); re-save it from Word, "
            "or export it as .md/.txt"
        ) from None
    lines: list[str] = []
    for block in doc.iter_inner_content():
        if isinstance(block, Table):
            for row in block.rows:
                cells: list[str] = []
                for cell in row.cells:
                    t = cell.text.replace("\n", " ").strip()
                    if not cells or cells[-1] != t:
                        cells.append(t)
                lines.append("| " + " | ".join(cells) + " |")
        else:
            style = block.style.name if block.style is not None else ""
            m = re.match(r"Heading (\d)", style or "")
            lines.append(("#" * int(m.group(1)) + " " if m else "") + block.text)
    text = "\n".join(lines).strip("\n") + "\n"
    if len(text) > max_chars:
        raise InputTooLargeError(
            f"{path}: {len(text):,} characters is over the limit of {max_chars:,}; "
            "split the draft or raise --max-chars"
        )
    return Draft(path=path, text=text, encoding="docx", sha256=hashlib.sha256(data).hexdigest())


def read_input(path: Path, *, max_chars: int = 2_000_000) -> Draft:
    """Read one draft: ``.docx`` through :func:`read_docx`, anything else as text.

    Raises:
        InputError / EncodingError / InputTooLargeError: see :func:`governor.text.textio.read_draft`.
    """
    if path.suffix.lower() == ".docx" and path.is_file():
        return read_docx(path, max_chars=max_chars)
    return read_draft(path, max_chars=max_chars)


# ---------------------------------------------------------------------------------------------
# Output names and jobs


def output_names(inputs: Sequence[Path]) -> dict[Path, str]:
    """A unique, filesystem-safe output name (no suffix) per input.

    The stem when unique (compared case-insensitively, ``index`` reserved); colliding stems
    get their parent folder names as a prefix (``a__x``), as many as it takes, or a hash of
    the absolute path when the folders do not tell them apart (``x.md`` vs ``x.txt``).
    Deterministic for a given set of inputs.
    """
    paths = [p.resolve() for p in inputs]

    def safe(s: str) -> str:
        return _UNSAFE_NAME.sub("_", s).strip("._") or "draft"

    names = {p: safe(p.stem) for p in paths}
    for depth in range(1, 1 + max((len(p.parts) for p in paths), default=1)):
        groups = _collisions(names)
        if not groups:
            break
        for group in groups:
            for p in group:
                parents = [safe(x) for x in p.parent.parts[1:]][-depth:]
                names[p] = "__".join([*parents, safe(p.stem)])
    for group in _collisions(names):
        for p in group:
            h = hashlib.sha1(str(p).encode("utf-8")).hexdigest()[:8]
            names[p] = f"{names[p]}-{h}"
    return names


def _collisions(names: Mapping[Path, str]) -> list[list[Path]]:
    by: dict[str, list[Path]] = {}
    for p, n in names.items():
        by.setdefault(n.casefold(), []).append(p)
    return [g for k, g in by.items() if len(g) > 1 or k in _RESERVED]


@dataclass(frozen=True)
class BatchJob:
    """One draft of a batch and where its outputs go."""

    input: Path
    name: str
    text_out: Path
    json_out: Path
    html_out: Path

    @property
    def trace_out(self) -> Path:
        """``<name>.trace.json`` (written with ``--trace``; its name is reserved either way)."""
        return self.html_out.with_name(f"{self.name}.trace.json")

    def outputs(self) -> dict[str, Path]:
        """Every file this job may write, by what it is (the words of collision errors)."""
        return {
            "revised text": self.text_out,
            "verdicts report": self.json_out,
            "HTML page": self.html_out,
            "trace": self.trace_out,
        }


_BATCH_FILES = {
    INDEX_NAME: "batch index page",
    SUMMARY_NAME: "batch summary",
    _LOCK_NAME: "batch lock",
}


def plan_jobs(inputs: Sequence[Path], out_dir: Path) -> tuple[BatchJob, ...]:
    """Jobs for ``inputs`` with their output paths in ``out_dir``.

    Every output file name (compared case-insensitively, as on macOS and Windows) belongs to
    one output of one job: an input whose revised text would land on another output (``a.html``
    on its own page, ``x.verdicts.json`` on the report of ``x.md``, ``summary.jsonl`` on the
    batch summary) is refused before anything is written, never overwritten silently.

    Raises:
        InputError: an output path would be one of the inputs (``--out`` is the input folder),
            or two outputs would be the same file (the message names both and what to rename).
    """
    names = output_names(inputs)
    resolved = {p.resolve() for p in inputs}
    jobs = []
    for p in inputs:
        name = names[p.resolve()]
        suffix = ".md" if p.suffix.lower() in (".docx", "") else p.suffix
        job = BatchJob(
            input=p,
            name=name,
            text_out=out_dir / f"{name}{suffix}",
            json_out=out_dir / f"{name}.verdicts.json",
            html_out=out_dir / f"{name}.html",
        )
        for target in (job.text_out, job.json_out, job.html_out):
            if target.resolve() in resolved:
                raise InputError(
                    f"{p}: writing its output {target} would overwrite an input; "
                    "choose another --out folder"
                )
        jobs.append(job)
    _check_collisions(jobs)
    return tuple(jobs)


def _check_collisions(jobs: Sequence[BatchJob]) -> None:
    """Raise :class:`InputError` naming every pair of outputs that would be one file."""
    owner: dict[str, tuple[str, str]] = {n.casefold(): ("", w) for n, w in _BATCH_FILES.items()}
    clashes: list[str] = []
    for job in jobs:
        for what, path in job.outputs().items():
            key = path.name.casefold()
            if key in owner:
                other, other_what = owner[key]
                whose = f"{other}'s {other_what}" if other else f"the {other_what}"
                if other == str(job.input):
                    whose = f"its own {other_what}"
                clashes.append(f"{job.input}: its {what} would be {path.name}, {whose}")
            else:
                owner[key] = (str(job.input), what)
    if clashes:
        more = f" (and {len(clashes) - 3} more)" if len(clashes) > 3 else ""
        raise InputError(
            "output names collide: "
            + "; ".join(clashes[:3])
            + more
            + ". Nothing was written; rename the input (e.g. give a.html as a.html.txt) or "
            "revise it in a run of its own with another --out"
        )


# ---------------------------------------------------------------------------------------------
# Options, rows, results


class BatchOptions(BaseModel):
    """Per-batch settings that are not in :class:`~governor.core.config.Config`.

    ``as_of`` fixes the report date for every draft (``None``: each draft's own, see
    :func:`governor.text.dates.detect_as_of`); ``context`` is the question (``""``: each draft's own
    ``问题：`` line); ``fail_on`` is the final-trust threshold in [0, 1] counted in
    :attr:`BatchResult.below`; ``workers`` is the number of processes.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    strategy: str = "efa"
    as_of: date | None = None
    context: str = ""
    fail_on: float | None = Field(default=None, ge=0.0, le=1.0)
    allow_unverifiable: bool = False
    """With ``fail_on``: do not count a draft whose output holds citations that could not be
    checked (coverage gaps, :mod:`governor.core.gaps`) as failing; by default it fails."""
    resume: bool = False
    details: bool = False
    """Keep raw measures (overlap, match scores) in the HTML pages' rationales."""
    workers: int = Field(default=1, ge=1, le=64)
    trace: bool = False
    """Also write ``<name>.trace.json``: every round's edits and verdicts and a unified diff."""


def make_options(**values: Any) -> BatchOptions:
    """Validated :class:`BatchOptions` (``None`` values take the defaults).

    Raises:
        ConfigError: a value is out of range (e.g. ``workers=0``, ``fail_on=1.5``).
    """
    try:
        return BatchOptions(**{k: v for k, v in values.items() if v is not None})
    except ValidationError as exc:
        loc, msg = first_problem(exc)
        raise ConfigError(
            f"invalid batch option {loc}={values.get(loc)!r}: {msg}; see `citegov revise --help`"
        ) from None


class BatchRow(BaseModel):
    """One line of ``summary.jsonl``: what happened to one input.

    Paths are absolute. ``trust_*`` are report trust in [0, 1] (SPEC §3) of the draft as given
    and of the output; ``seconds`` is the wall time spent on this draft in its worker.
    ``status`` is ``failed`` with ``error``/``error_code`` when the draft could not be governed.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    input: str
    input_sha256: str | None
    settings: str
    name: str
    status: Literal["ok", "failed"]
    output: str | None = None
    verdicts: str | None = None
    html: str | None = None
    as_of: date | None = None
    citations: int = 0
    excluded: int = 0
    edits: int = 0
    rounds: int = 0
    trust_before: float | None = None
    trust_after: float | None = None
    all_pass_before: bool | None = None
    all_pass_after: bool | None = None
    stop_reason: str | None = None
    error: str | None = None
    error_code: str | None = None
    seconds: float = 0.0
    unverified: int = 0
    """Citations of the output that could not be checked (coverage gaps)."""
    uncited: bool = False
    """The draft cites nothing (gap ``no_citations``): nothing was checked, never a pass."""
    gaps: str = ""
    """One line naming them (:func:`governor.core.gaps.gap_line`), "" when none."""
    language: str = ""
    """``zh`` or ``en``: the draft's language (:func:`governor.text.script.language`)."""
    kept: int = 0
    """Draft citations still cited in the output (:func:`governor.core.labels.deletion_counts`)."""
    removed: int = 0
    """Draft citations an edit took out of the text."""
    annotations: int = 0
    """Edits that add a 「（注：…）」 note or mark."""
    orphan_claims: int = 0
    """Removed citations whose claim or quoted provision text is still in the output."""
    cov_after: float | None = None
    """Cov of the output, the draft as reference (:func:`verifiers.coverage.draft_support`;
    the draft's own Cov is 1.0 by construction)."""
    sup_before: float | None = None
    """Sup of the draft (its cited claims backed by an existing citation, its cited sections)."""
    sup_after: float | None = None
    """Sup of the output on the same claims and sections: a claim whose citation was removed
    while its words stay is unsupported."""


@dataclass(frozen=True)
class BatchProgress:
    """Sent to the progress callback after each input (done, skipped or failed).

    ``completed`` counts inputs finished so far (skipped included) out of ``total``.
    """

    completed: int
    total: int
    failed: int
    skipped: int
    row: BatchRow
    was_skipped: bool


ProgressCallback = Callable[[BatchProgress], None]

Engine = Callable[[Governor, Sequence["BatchJob"], "BatchOptions", str], Iterator["BatchRow"]]
"""The engine seam: ``(gov, jobs, options, settings) -> rows as they finish``.

An engine governs each job with :func:`govern_one` (which writes that draft's outputs
atomically) wherever it runs and yields the rows; :func:`run_batch` does everything else
(inputs, names, resume, the summary checkpoint, progress, the index) the same for every
engine, so outputs are byte for byte the same. Engines: :func:`local_engine` (this process,
or ``workers`` spawned processes) and :func:`governor.batch_ray.ray_engine` (Ray Data actors).
"""


@dataclass(frozen=True)
class BatchResult:
    """Outcome of a batch: one row per input, in input order.

    ``governed`` were done in this run, ``skipped`` were already done (``resume``), ``failed``
    could not be governed; ``below`` counts ok rows failing ``fail_on``: final trust under it,
    or citations that could not be checked unless ``allow_unverifiable`` (:func:`_fails`).
    """

    rows: tuple[BatchRow, ...]
    governed: int
    skipped: int
    failed: int
    below: int
    seconds: float
    out_dir: Path
    summary: Path
    index: Path


def settings_key(config: Config, options: BatchOptions) -> str:
    """Fingerprint of everything that changes a draft's outputs (sha256 hex, 16 chars).

    Covers the citegov and schema versions, the strategy, the fixed as-of date and context,
    and the config fields that affect verdicts (not cache paths, timeouts or key names).
    """
    cfg = config.model_dump(
        mode="json",
        exclude={
            "cache_dir": True,
            "llm_api_key_env": True,
            "llm_timeout_s": True,
            "llm_max_retries": True,
            "max_citations": True,  # which drafts run, not what they give (keys stay stable)
            # fixed thresholds cannot differ between runs (keys stay those of earlier runs)
            "thresholds": dict.fromkeys(FIXED_THRESHOLDS, True),
        },
    )
    blob = json.dumps(
        {
            "citegov": __version__,
            "schema": SCHEMA_VERSION,
            "strategy": options.strategy,
            "as_of": options.as_of.isoformat() if options.as_of else None,
            "context": options.context,
            "config": cfg,
            **({"details": True} if options.details else {}),  # pages differ; keys stay stable
        },
        sort_keys=True,
        ensure_ascii=False,
    )
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


# ---------------------------------------------------------------------------------------------
# Writing outputs (I/O failures) and the citation limit

_FULL = frozenset({errno.ENOSPC, errno.EDQUOT})
_DENIED = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})


def output_error(exc: OSError, path: Path, what: str = "write") -> OutputError:
    """The :class:`OutputError` for an ``OSError`` raised writing ``path``: what failed, the
    system's reason with its errno name, and what to do (free space, fix permissions)."""
    code = errno.errorcode.get(exc.errno or 0, "")
    reason = f"{exc.strerror or exc}" + (f" [{code}]" if code else "")
    if exc.errno in _FULL:
        hint = "free space on that disk (or pass another --out)"
    elif exc.errno in _DENIED:
        hint = "the folder is not writable: fix its permissions or pass another --out"
    elif exc.errno in (errno.ENOTDIR, errno.EEXIST):
        hint = "part of the path is a file, not a folder: pass another --out"
    else:
        hint = "check the output folder"
    return OutputError(f"cannot {what} {path}: {reason}; {hint}")


@contextmanager
def _writing(path: Path, what: str = "write") -> Iterator[None]:
    """Turn an ``OSError`` raised inside into :func:`output_error` (no traceback, exit 4)."""
    try:
        yield
    except OSError as exc:
        raise output_error(exc, path, what) from None


def _write(path: Path, text: str) -> None:
    with _writing(path):
        atomic_write_text(path, text)


def check_citations(gov: Any, text: str, *, source: object = "draft") -> None:
    """Refuse a draft holding more than ``gov.config.max_citations`` citations.

    Verifying cost grows with the citation count, so a CLI run is bounded the way a service
    request is (``ServiceSettings.max_citations``). Counted with ``gov.extract`` (skipped for a
    governor without it).

    Raises:
        InputTooLargeError: over the limit (the message gives the count and the flag to raise).
    """
    limit = getattr(gov.config, "max_citations", None)
    extract = getattr(gov, "extract", None)
    if limit is None or extract is None:
        return
    n = len(extract(text))
    if n > limit:
        raise InputTooLargeError(
            f"{source}: draft holds {n:,} citations, over the limit of {limit:,}; split the "
            "draft or raise --max-citations (config max_citations)"
        )


_STOPS_THE_BATCH: tuple[type[GovernorError], ...] = (*FATAL_ENDPOINT_ERRORS, OutputError)
"""Errors of one draft that end the batch instead of making a ``failed`` row."""


# ---------------------------------------------------------------------------------------------
# One draft


def govern_one(gov: Governor, job: BatchJob, options: BatchOptions, settings: str) -> BatchRow:
    """Govern one draft and write its three outputs; never raises for a bad draft.

    A :class:`GovernorError` (bad input, backend failure) or any other exception in this draft
    is recorded as a ``failed`` row (error class and message, no traceback: messages never carry
    secrets), so one bad draft does not stop a batch.
    """
    from governor.reports.html import render_draft
    from governor.reports.json_report import build_report
    from governor.text.dates import detect_as_of

    t0 = time.perf_counter()
    sha: str | None = None
    try:
        draft = read_input(job.input, max_chars=gov.config.max_chars)
        sha = draft.sha256
        check_citations(gov, draft.text, source=job.input)
        when = options.as_of or gov.config.as_of or detect_as_of(draft.text)
        result = gov.govern(
            draft.text, strategy=options.strategy, as_of=when, context=options.context
        )
        warnings = ["empty draft: no citations"] if not draft.text.strip() else []
        report = build_report(
            draft,
            as_of=when,
            strategy=options.strategy,
            judge=gov.judge.name,
            initial=result.initial_verdicts,
            result=result,
            warnings=warnings,
            horizon=gov.store.horizon,
        )
        page = render_draft(
            report,
            draft.text,
            result.text,
            title=job.name,
            index_href=INDEX_NAME,
            details=options.details,
        )
        _write(job.text_out, result.text)
        _write(job.json_out, report.model_dump_json(indent=2) + "\n")
        _write(job.html_out, page)
        if options.trace:
            from graphs.trace import write_trace

            with _writing(job.trace_out):
                write_trace(result, job.trace_out, name=job.name)
    except _STOPS_THE_BATCH:
        # the endpoint refuses every draft, or the outputs cannot be written (disk full,
        # read-only folder): stop the batch (resume after fixing it)
        raise
    except Exception as exc:  # batch isolation: record and go on (see docstring)
        code = exc.code.value if isinstance(exc, GovernorError) else "internal"
        msg = str(exc) if isinstance(exc, GovernorError) else f"{type(exc).__name__}: {exc}"
        return BatchRow(
            input=str(job.input),
            input_sha256=sha,
            settings=settings,
            name=job.name,
            status="failed",
            error=msg[:2000],
            error_code=code,
            seconds=round(time.perf_counter() - t0, 4),
        )
    s0 = report.scores
    s1 = report.final.scores if report.final else s0
    gaps = coverage_gaps(
        result.final_verdicts,
        unextracted_us=unread_us_cases(result.text),
        as_of=when,
        horizon=gov.store.horizon,
    )
    dc = deletion_counts(
        result.initial_verdicts,
        result.edits,
        result.text,
        rounds=[r.verdicts for r in result.rounds],
    )
    sup0 = draft_support(draft.text, result.initial_verdicts, draft.text, result.initial_verdicts)
    sup1 = draft_support(draft.text, result.initial_verdicts, result.text, result.final_verdicts)
    _log.info(
        "%s: %d citations, %d edits, trust %.3f -> %.3f (%s)",
        job.name, s0.n_cite, len(result.edits), s0.trust, s1.trust, result.stop_reason,
    )  # fmt: skip
    return BatchRow(
        input=str(job.input),
        input_sha256=sha,
        settings=settings,
        name=job.name,
        status="ok",
        output=str(job.text_out),
        verdicts=str(job.json_out),
        html=str(job.html_out),
        as_of=when,
        citations=s0.n_cite,
        excluded=s0.n_excluded,
        edits=len(result.edits),
        rounds=len(result.rounds),
        trust_before=round(s0.trust, 6),
        trust_after=round(s1.trust, 6),
        all_pass_before=s0.all_pass,
        all_pass_after=s1.all_pass,
        stop_reason=result.stop_reason,
        seconds=round(time.perf_counter() - t0, 4),
        unverified=sum(g.n for g in gaps if g.kind != "no_citations" and g.kind not in INFO_ONLY),
        uncited=any(g.kind == "no_citations" for g in gaps),
        gaps=gap_line(gaps),
        language=language(draft.text),
        kept=dc.kept,
        removed=dc.removed,
        annotations=dc.annotations,
        orphan_claims=dc.orphan_claims,
        cov_after=round(sup1.s_cov, 6),
        sup_before=round(sup0.s_sup, 6),
        sup_after=round(sup1.s_sup, 6),
    )


_log = get_logger(__name__)

# Worker-process state (one Governor per worker process, built once).
_WORKER_GOV: Governor | None = None


_PRELOAD = ("jieba", "numpy", "governor.api", "governor.batch", "graphs.pipeline")
"""Modules the fork server imports once (imports only, no loading): every worker forked from
it starts with them imported instead of importing them again (≈ 1–1.5 s of CPU each)."""


def _worker_init(
    factory: Callable[[Config], Governor],
    config: Config,
    environ: Mapping[str, str] | None = None,
    cwd: str | None = None,
    parent: int | None = None,
) -> None:
    """Build the worker's governor once. A worker forked from the fork server starts with the
    environment and folder the server had when it started: the batch's are restored first.

    Before that the worker ties its life to the batch's process ``parent``
    (:func:`die_with_parent`), lets the batch handle Ctrl-C (SIGINT ignored here: the batch
    stops its workers), dies on SIGTERM, and closes the batch lock it inherited by ``fork``
    (:func:`_release_inherited_locks`): a worker never keeps the folder locked."""
    global _WORKER_GOV
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _release_inherited_locks()
    if parent is not None:
        die_with_parent(parent)
    if environ is not None:
        os.environ.clear()
        os.environ.update(environ)
    if cwd is not None:
        os.chdir(cwd)
    gov = factory(config)
    _ = gov.judge  # load the store, retriever and judge before the first draft arrives
    _WORKER_GOV = gov


PR_SET_PDEATHSIG = 1
"""``prctl`` option (``<linux/prctl.h>``): the signal this process gets when its parent dies."""
PARENT_POLL_S = 0.5
"""How often a worker's watcher thread checks that the batch process is still there (s)."""


def die_with_parent(parent: int) -> None:
    """End this (worker) process when the batch process ``parent`` dies, even by ``kill -9``.

    On Linux ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` (through ctypes) has the kernel kill it when
    its parent exits: the batch process for a forked worker, the fork server for one started
    from it (the server exits when the batch process is gone: its pipe from it closes). A
    daemon thread also checks every :data:`PARENT_POLL_S` seconds that the parent it had at
    start is still its parent and that ``parent`` still runs, and ends the process otherwise:
    other systems, or a parent that died before ``prctl`` took effect. Without this a worker
    blocked on its task queue outlives a killed batch (issue 23: orphans holding the lock).
    """
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no libc prctl: the thread only
            pass
    start_parent = os.getppid()

    def gone() -> bool:
        return os.getppid() != start_parent or not pid_alive(parent)

    if gone():
        os._exit(1)

    def watch() -> None:
        while not gone():
            time.sleep(PARENT_POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="citegov-parent-watch", daemon=True).start()


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` exists on this machine (a zombie counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, another user's
        return True
    try:  # a zombie (killed, not reaped yet) answers kill(0) but runs no more
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[-1].split()[0] != b"Z"
    except OSError:
        return True


def _worker_run(job: BatchJob, options: BatchOptions, settings: str) -> BatchRow:
    if _WORKER_GOV is None:  # pragma: no cover - the initializer always ran
        raise RuntimeError("batch worker used before its initializer ran")
    return govern_one(_WORKER_GOV, job, options, settings)


# ---------------------------------------------------------------------------------------------
# Summary (checkpoint) and lock


def read_summary(path: Path) -> dict[str, BatchRow]:
    """Rows of an existing ``summary.jsonl``, latest per input; unparseable lines are dropped
    (a line cut short by a kill). A missing file gives ``{}``."""
    rows: dict[str, BatchRow] = {}
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return rows
    for line in lines:
        if not line.strip():
            continue
        try:
            row = BatchRow.model_validate_json(line)
        except ValidationError:
            continue
        rows.pop(row.input, None)  # re-insert so the latest row keeps its place last
        rows[row.input] = row
    return rows


def _is_done(prev: BatchRow | None, job: BatchJob, sha: str | None, settings: str) -> bool:
    return (
        prev is not None
        and prev.status == "ok"
        and sha is not None
        and prev.input_sha256 == sha
        and prev.settings == settings
        and prev.name == job.name
        and all(p.is_file() for p in (job.text_out, job.json_out, job.html_out))
    )


def _file_sha(path: Path) -> str | None:
    h = hashlib.sha256()
    try:
        with path.open("rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
    except OSError:
        return None
    return h.hexdigest()


_HELD_LOCKS: dict[int, tuple[int, int]] = {}
"""Batch locks this process holds: fd → (device, inode) of the lock file, so a worker forked
while one is held can close its inherited copy (:func:`_release_inherited_locks`)."""


class LockOwner(BaseModel):
    """What the lock file ``.citegov-batch.lock`` records: who holds the folder since when."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    pid: int
    host: str
    started: str = ""
    """ISO 8601 UTC time the batch took the lock."""

    def describe(self) -> str:
        return f"pid {self.pid} on {self.host}" + (
            f", since {self.started}" if self.started else ""
        )

    def gone(self) -> bool:
        """Known to be gone: a process of this host that no longer runs."""
        return self.host == socket.gethostname() and not pid_alive(self.pid)


def _read_owner(fd: int) -> LockOwner | None:
    """The owner recorded in the open lock file ``fd`` (read through this fd: closing another
    descriptor of the file would not drop a ``flock``, but keep one path), or None."""
    try:
        data = os.pread(fd, 4096, 0)
        return LockOwner.model_validate_json(data.decode("utf-8", "replace").strip() or "{}")
    except (OSError, ValidationError, ValueError):
        return None


def _holders(path: Path) -> list[int]:
    """Pids of the processes with ``path`` open (Linux ``/proc``; [] elsewhere or unreadable)."""
    try:
        target = os.stat(path)
    except OSError:
        return []
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        if int(entry.name) == os.getpid():
            continue
        with contextlib.suppress(OSError):
            for fd in (entry / "fd").iterdir():
                with contextlib.suppress(OSError):
                    st = fd.stat()
                    if (st.st_dev, st.st_ino) == (target.st_dev, target.st_ino):
                        found.append(int(entry.name))
                        break
    return sorted(found)


def _busy_message(out_dir: Path, path: Path, owner: LockOwner | None) -> str:
    if owner is not None and owner.gone():
        held = _holders(path)
        by = f" by pid {', '.join(map(str, held))}" if held else ""
        return (
            f"{out_dir}: the batch that took this folder ({owner.describe()}) is no longer "
            f"running, but its lock is still held{by} (a process it left behind); stop "
            f"{'it' if len(held) == 1 else 'them'}"
            + (f" (kill {' '.join(map(str, held))})" if held else "")
            + " and rerun with --resume"
        )
    who = f" ({owner.describe()})" if owner is not None else ""
    return (
        f"{out_dir}: another citegov batch{who} is writing to this folder; wait for it to "
        "finish or choose another --out"
    )


@contextmanager
def _locked(out_dir: Path) -> Iterator[None]:
    """Hold ``out_dir`` for this batch: an exclusive ``flock`` on ``.citegov-batch.lock``,
    which records the owner (:class:`LockOwner`: pid, host, start time).

    The OS drops the ``flock`` when its holder dies (even by ``kill -9``), and workers close
    the copy they inherit, so a killed batch never keeps the folder: the next run takes the
    lock and, finding the record of a batch that did not finish, says it took it over. When
    the lock is busy the error names its owner; an owner that is gone while the lock is still
    held names the processes holding it. A finishing batch removes the lock file (while it
    still holds the lock: a batch that opened the old file then retries on the new one). On a
    filesystem without ``flock`` the record alone decides: a live owner on this host, or an
    owner on another host, is refused.

    Raises:
        InputError: another batch holds the folder.
        OutputError: the lock file cannot be created (read-only folder, disk full).
    """
    path = out_dir / _LOCK_NAME
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock
        yield
        return
    while True:
        with _writing(path, "create the batch lock"):
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            owner = _read_owner(fd)
            os.close(fd)
            raise InputError(_busy_message(out_dir, path, owner)) from None
        except OSError:  # no flock on this filesystem: the record decides
            owner = _read_owner(fd)
            if owner is not None and owner.pid != os.getpid() and not owner.gone():
                os.close(fd)
                raise InputError(_busy_message(out_dir, path, owner)) from None
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)  # the file was removed by the batch that held it: lock the new one
    try:
        previous = _read_owner(fd)
        if previous is not None:
            _log.warning(
                "%s: took over the lock of an earlier batch (%s) that is no longer running "
                "(killed?); its finished drafts are kept for --resume",
                out_dir,
                previous.describe(),
            )
        record = LockOwner(
            pid=os.getpid(),
            host=socket.gethostname(),
            started=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        )
        with _writing(path, "write the batch lock"):
            os.ftruncate(fd, 0)
            os.pwrite(fd, (record.model_dump_json() + "\n").encode("utf-8"), 0)
        st = os.fstat(fd)
        _HELD_LOCKS[fd] = (st.st_dev, st.st_ino)
        yield
    finally:
        _HELD_LOCKS.pop(fd, None)
        with contextlib.suppress(OSError):
            path.unlink()  # still ours: removed before the lock is let go
        os.close(fd)


def _release_inherited_locks() -> None:
    """In a worker forked while the batch held its lock: close the inherited descriptors (only
    if they still are that lock file; never ``LOCK_UN``, which would release the batch's)."""
    for fd, ident in list(_HELD_LOCKS.items()):
        with contextlib.suppress(OSError):
            st = os.fstat(fd)
            if (st.st_dev, st.st_ino) == ident:
                os.close(fd)
    _HELD_LOCKS.clear()


class _SummaryWriter:
    """Appends rows durably: one JSON line, written and fsync'ed, per finished draft.

    The file is first rewritten atomically with the rows kept from the last run (temp file +
    ``os.replace``); a line cut short by a full disk or a kill is dropped when it is read back
    (:func:`read_summary`), so the summary always holds whole rows of finished drafts.

    Raises:
        OutputError: the summary cannot be written (disk full, read-only folder).
    """

    def __init__(self, path: Path, keep: Sequence[BatchRow]) -> None:
        self._path = path
        _write(path, "".join(r.model_dump_json() + "\n" for r in keep))
        with _writing(path):
            self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_CLOEXEC", 0))

    def append(self, row: BatchRow) -> None:
        data = (row.model_dump_json() + "\n").encode("utf-8")
        with _writing(self._path):
            while data:  # os.write may write part of it
                data = data[os.write(self._fd, data) :]
            os.fsync(self._fd)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._fd)


# ---------------------------------------------------------------------------------------------
# The batch


def run_batch(
    gov: Governor,
    paths: Sequence[str | Path],
    out_dir: Path,
    options: BatchOptions,
    *,
    progress: ProgressCallback | None = None,
    engine: Engine | None = None,
) -> BatchResult:
    """Revise every draft named by ``paths`` into ``out_dir`` (see the module docstring).

    With ``options.workers == 1`` drafts run in this process with ``gov``; with more, in that
    many worker processes (forked from this one, see :func:`_pool_context`), each building
    ``Governor(gov.config)`` once, so components injected into ``gov`` are not used there.

    Args:
        gov: the governor (its config is the run's config).
        paths: files, folders and glob patterns.
        out_dir: output folder (created; must not be a file).
        options: strategy, as-of, context, ``fail_on``, ``resume``, ``workers``.
        progress: called in this process after each input with a :class:`BatchProgress`.
        engine: where drafts are governed (see :data:`Engine`); default :func:`local_engine`.

    Returns:
        The :class:`BatchResult`; bad drafts are ``failed`` rows, not exceptions.

    Raises:
        StrategyError: unknown strategy.
        InputError: no inputs, ``out_dir`` is a file, an output would overwrite an input or
            another output (:func:`plan_jobs`), or another batch holds ``out_dir``
            (:func:`_locked`).
        OutputError: an output, the summary, the index or the lock cannot be written (disk
            full, read-only folder): the batch stops, its finished rows stay in the summary.
        BatchInterrupted: SIGTERM while the batch ran in the main thread (KeyboardInterrupt
            for Ctrl-C); the workers are stopped first.
    """
    t0 = time.perf_counter()
    if options.strategy not in STRATEGIES:
        raise StrategyError(
            f"unknown strategy {options.strategy!r}; use one of {', '.join(STRATEGIES)}"
        )
    if out_dir.exists() and not out_dir.is_dir():
        raise InputError(f"--out {out_dir}: is a file; pass a folder for the outputs")
    inputs = collect_inputs(paths, exclude=out_dir)
    if not inputs:
        raise InputError("no drafts given; pass files, folders or glob patterns")
    jobs = plan_jobs(inputs, out_dir)
    created = not out_dir.exists()
    with _writing(out_dir, "create the output folder"):
        out_dir.mkdir(parents=True, exist_ok=True)
    summary_path = out_dir / SUMMARY_NAME
    settings = settings_key(gov.config, options)
    try:
        with _stop_on_sigterm(), _locked(out_dir), _no_empty_summary(summary_path):
            rows, skipped_rows, failed = _run_jobs(
                gov,
                jobs,
                out_dir,
                summary_path,
                options,
                settings,
                progress,
                engine or local_engine,
            )
    except OutputError as exc:
        _drop_if_empty(out_dir, created)
        done = len(read_summary(summary_path))
        raise OutputError(
            f"{exc}; then rerun with --resume: the {done} draft(s) finished are kept"
        ) from None
    except BaseException:
        _drop_if_empty(out_dir, created)
        raise
    ordered = tuple(rows[str(j.input)] for j in jobs if str(j.input) in rows)
    below = sum(1 for r in ordered if _fails(r, options))
    return BatchResult(
        rows=ordered,
        governed=len(ordered) - len(skipped_rows) - failed,
        skipped=len(skipped_rows),
        failed=failed,
        below=below,
        seconds=time.perf_counter() - t0,
        out_dir=out_dir,
        summary=summary_path,
        index=out_dir / INDEX_NAME,
    )


class BatchInterrupted(KeyboardInterrupt):
    """The batch was stopped by a signal (SIGTERM; Ctrl-C raises a plain KeyboardInterrupt).
    ``signum`` is the signal's number: the CLI exits ``128 + signum``."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"stopped by signal {signum}")
        self.signum = signum


@contextmanager
def _stop_on_sigterm() -> Iterator[None]:
    """While a batch runs in the main thread of a process that left SIGTERM at its default
    (the CLI), SIGTERM raises :class:`BatchInterrupted` instead of ending the process at once,
    so the batch stops its workers and keeps its summary (as for Ctrl-C). A handler the
    application installed itself is left alone; the default is restored afterwards."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    try:
        previous = signal.getsignal(signal.SIGTERM)
    except (ValueError, OSError):  # pragma: no cover - no signals here
        yield
        return
    if previous is not signal.SIG_DFL:
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends it at once
        raise BatchInterrupted(signum)

    signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextmanager
def _no_empty_summary(summary_path: Path) -> Iterator[None]:
    """An aborted run (a fatal endpoint error, Ctrl-C) that wrote no row leaves no empty
    ``summary.jsonl`` behind (held under the folder lock: never another batch's file)."""
    try:
        yield
    except BaseException:
        with contextlib.suppress(OSError):
            if summary_path.exists() and summary_path.stat().st_size == 0:
                summary_path.unlink()
        raise


def _run_jobs(
    gov: Governor,
    jobs: Sequence[BatchJob],
    out_dir: Path,
    summary_path: Path,
    options: BatchOptions,
    settings: str,
    progress: ProgressCallback | None,
    engine: Engine,
) -> tuple[dict[str, BatchRow], list[BatchRow], int]:
    """The batch itself, under the folder lock: ``(rows by input, skipped rows, failures)``."""
    for stale in out_dir.glob(".*.tmp"):  # left by a killed atomic write
        stale.unlink(missing_ok=True)
    previous = read_summary(summary_path) if options.resume else {}
    rows: dict[str, BatchRow] = {}
    pending: list[BatchJob] = []
    skipped_rows: list[BatchRow] = []
    for job in jobs:
        prev = previous.get(str(job.input))
        if options.resume and _is_done(prev, job, _file_sha(job.input), settings):
            assert prev is not None
            skipped_rows.append(prev)
        else:
            pending.append(job)
    redo = {str(j.input) for j in pending}
    keep = [r for k, r in previous.items() if k not in redo]
    writer = _SummaryWriter(summary_path, keep)
    total, failed = len(jobs), 0
    try:
        for n, row in enumerate(skipped_rows, 1):
            rows[row.input] = row
            if progress:
                progress(BatchProgress(n, total, 0, n, row, True))
        completed = len(skipped_rows)
        it = iter(engine(gov, pending, options, settings) if pending else ())
        try:
            for row in it:
                writer.append(row)
                rows[row.input] = row
                completed += 1
                failed += row.status == "failed"
                if progress:
                    progress(BatchProgress(completed, total, failed, len(skipped_rows), row, False))
        finally:
            # an exception here (Ctrl-C, SIGTERM, a full disk) reaches a generator engine at
            # once, which stops its workers, not when the generator is collected
            close = getattr(it, "close", None)
            if close is not None:
                close()
    finally:
        writer.close()
    all_rows = read_summary(summary_path)
    _write_index(out_dir, list(all_rows.values()), options.strategy)
    return rows, skipped_rows, failed


def _drop_if_empty(out_dir: Path, created: bool) -> None:
    """After an aborted batch, remove the output folder this run created if it holds nothing
    but the lock file (best effort: the original error is what the user must see)."""
    with contextlib.suppress(OSError):
        if created and {p.name for p in out_dir.iterdir()} <= {_LOCK_NAME}:
            (out_dir / _LOCK_NAME).unlink(missing_ok=True)
            out_dir.rmdir()


PREFETCH_DRAFTS = 64
"""Drafts whose first-round citations the LLM judge sees together (:func:`prefetch_judge`)."""


def prefetch_judge(gov: Governor, jobs: Sequence[BatchJob], options: BatchOptions) -> None:
    """With a judge that batches across documents (the LLM judge's ``judge_many``), judge
    the first round of ``jobs`` in one pass (:meth:`Governor.verify_many`): its calls are
    filled across the drafts and run concurrently, and its answers are kept by the judge, so
    each draft's own first round asks nothing again. Unreadable drafts are left to
    :func:`govern_one` (which records them); a non-fatal failure here only loses the
    prefetch. No-op for the offline judge.

    Raises:
        the fatal endpoint errors (unreachable, 401/403/404), as :func:`govern_one` does.
    """
    verify_many = getattr(gov, "verify_many", None)  # the facade has it; a wrapper may not
    if verify_many is None or getattr(gov.judge, "judge_many", None) is None or len(jobs) < 2:
        return
    from governor.text.dates import detect_as_of

    texts: list[str] = []
    for job in jobs:
        try:
            texts.append(read_input(job.input, max_chars=gov.config.max_chars).text)
        except GovernorError:
            continue
    dates = [options.as_of or gov.config.as_of or detect_as_of(t) for t in texts]
    try:
        verify_many(texts, as_of=dates, context=options.context)
    except FATAL_ENDPOINT_ERRORS:
        raise
    except GovernorError:
        return


def local_engine(
    gov: Governor, jobs: Sequence[BatchJob], options: BatchOptions, settings: str
) -> Iterator[BatchRow]:
    """The local :data:`Engine`: rows of ``jobs`` as they finish, in this process with one
    worker (input order), else in ``options.workers`` worker processes (completion order;
    where they come from: :func:`_pool_context`)."""
    if not jobs:
        return
    workers = min(options.workers, len(jobs))
    if workers == 1:
        for start in range(0, len(jobs), PREFETCH_DRAFTS):
            chunk = jobs[start : start + PREFETCH_DRAFTS]
            prefetch_judge(gov, chunk, options)
            for job in chunk:
                yield govern_one(gov, job, options, settings)
        return
    from concurrent.futures import FIRST_COMPLETED, wait

    ctx = _pool_context(gov.config)
    ex = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=ctx,
        initializer=_worker_init,
        initargs=(type(gov), gov.config, dict(os.environ), os.getcwd(), os.getpid()),
    )
    futures: dict[Future[BatchRow], BatchJob] = {}
    queue = list(reversed(jobs))
    try:
        # Keep a bounded number in flight so an interrupted run has little work in the air.
        while queue or futures:
            while queue and len(futures) < 4 * workers:
                job = queue.pop()
                futures[ex.submit(_worker_run, job, options, settings)] = job
            done, _ = wait(futures, return_when=FIRST_COMPLETED)
            broken = False
            for fut in done:
                job = futures.pop(fut)
                try:
                    yield fut.result()
                except BrokenProcessPool:
                    broken = True
                    yield _crashed(job, settings)
            if broken:  # the pool is unusable: record the rest, a resumed run redoes them
                for job in [*futures.values(), *reversed(queue)]:
                    yield _crashed(job, settings)
                futures.clear()
                queue.clear()
    except BaseException:  # Ctrl-C, SIGTERM, a fatal error, the consumer closing early
        stop_workers(ex)
        raise
    finally:
        ex.shutdown(wait=True, cancel_futures=True)


def stop_workers(ex: ProcessPoolExecutor, *, grace_s: float = 2.0) -> None:
    """Stop the pool's worker processes now (SIGTERM, then SIGKILL after ``grace_s``) instead
    of waiting for the drafts they are on: a stopped batch leaves no process behind. A draft
    cut short leaves at most a temp file, removed by the next run, and no summary row, so
    ``--resume`` redoes it."""
    procs = list((getattr(ex, "_processes", None) or {}).values())  # {pid: Process}, private
    for p in procs:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            p.terminate()
    deadline = time.monotonic() + grace_s
    for p in procs:
        with contextlib.suppress(OSError, ValueError, AttributeError, AssertionError):
            p.join(max(0.0, deadline - time.monotonic()))
            if p.is_alive():
                p.kill()
                p.join(1.0)


def _pool_context(config: Config) -> BaseContext:
    """Where the batch's worker processes come from.

    ``fork`` of this process when it runs no other thread: the workers start with
    :data:`_PRELOAD` imported here once (copy-on-write), not imported again by a fork server
    started from scratch (≈ 1 s of serial wall time before the first draft, issue 16), and
    with the bundled store (``config.store_path`` unset: :func:`load_default_store` keeps one
    per process) loaded and its global BM25 index built once here, not once per worker. With
    another thread alive (the progress bar's refresh thread) fork is unsafe (a lock held by
    that thread stays held in the child): ``forkserver``, a clean single-threaded server that
    imports :data:`_PRELOAD` once; ``spawn`` where neither exists (Windows).
    """
    import multiprocessing
    import threading

    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        for name in _PRELOAD:
            importlib.import_module(name)
        if config.store_path is None:  # the bundled store: loaded once, shared by the workers
            from governor.authorities import load_default_store

            load_default_store().search("合同的效力", k=1)  # builds the global BM25 index
        # Out of the collector's sight, so its passes in a worker do not write to (and copy)
        # every shared page (Python docs, gc.freeze).
        gc.freeze()
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        server = multiprocessing.get_context("forkserver")
        server.set_forkserver_preload(list(_PRELOAD))
        return server
    return multiprocessing.get_context("spawn")  # pragma: no cover - Windows


def _crashed(job: BatchJob, settings: str) -> BatchRow:
    return BatchRow(
        input=str(job.input),
        input_sha256=None,
        settings=settings,
        name=job.name,
        status="failed",
        error="a worker process died (out of memory or killed); rerun with --resume",
        error_code="worker",
    )


def _fails(row: BatchRow, options: BatchOptions) -> bool:
    """A governed draft fails ``--fail-on`` when its final trust is below the threshold, or
    (unless ``allow_unverifiable``) when some of its citations could not be checked: an
    unverifiable citation leaves the trust denominator, so trust alone would pass it
    silently (SPEC §10)."""
    if options.fail_on is None or row.status != "ok":
        return False
    if row.trust_after is not None and row.trust_after < options.fail_on:
        return True
    return (row.unverified > 0 or row.uncited) and not options.allow_unverifiable


def run_title(rows: Sequence[BatchRow], strategy: str, lang: str) -> str:
    """The batch index title: which inputs were governed, with which strategy, how many.

    The inputs are named by their common folder (or the one file), e.g.
    ``examples/drafts 的引用核验与修订（策略 efa，30 份文稿）``.
    """
    from governor.reports.i18n import UI

    paths = [r.input for r in rows]
    if len(paths) == 1:
        inputs = Path(paths[0]).name
    else:
        common = Path(os.path.commonpath(paths)) if paths else Path(".")
        if len(common.parts) > 1:
            inputs = "/".join(common.parts[-2:])
        else:  # nothing in common but the root: name the folders themselves
            folders = list(dict.fromkeys(Path(p).parent.name or "/" for p in paths))
            inputs = ("、" if lang == "zh" else ", ").join(folders[:3])
            inputs += " …" if len(folders) > 3 else ""
    words = UI["zh" if lang == "zh" else "en"]["run"]
    return words.format(inputs=inputs, strategy=strategy, n=len(rows))


def _write_index(out_dir: Path, rows: Sequence[BatchRow], strategy: str = "efa") -> None:
    from urllib.parse import quote

    from governor.reports.html import IndexEntry, render_index

    langs = [r.language for r in rows if r.language]
    lang = "zh" if langs and langs.count("zh") * 2 >= len(langs) else "en"

    entries = [
        IndexEntry(
            name=r.name,
            href=quote(Path(r.html).name) if r.html and r.status == "ok" else None,
            input=r.input,
            status=r.status,
            citations=r.citations,
            edits=r.edits,
            trust_before=r.trust_before,
            trust_after=r.trust_after,
            all_pass_after=r.all_pass_after,
            stop_reason=r.stop_reason,
            error=r.error,
            unverified=r.unverified,
            sup_before=r.sup_before,
            sup_after=r.sup_after,
            cov_after=r.cov_after,
            kept=r.kept,
            removed=r.removed,
            orphan_claims=r.orphan_claims,
            annotations=r.annotations,
        )
        for r in sorted(rows, key=lambda r: r.name.casefold())
    ]
    _write(
        out_dir / INDEX_NAME,
        render_index(entries, title=run_title(rows, strategy, lang), lang=lang),
    )


def check_portable(gov: Governor, workers: int) -> None:
    """Refuse ``workers > 1`` for a governor built with injected components.

    Raises:
        ConfigError: ``gov`` has an injected store, judge, retriever, reviser or generator, which
            worker processes (built from ``gov.config``) would silently not use.
    """
    injected = [
        name
        for name in ("_store", "_judge", "_retriever", "_reviser", "generator")
        if getattr(gov, name, None) is not None
    ]
    if workers > 1 and injected:
        raise ConfigError(
            f"revise_many(workers={workers}) builds a Governor from its Config in each worker "
            f"process and cannot carry the injected {', '.join(n.lstrip('_') for n in injected)};"
            " use workers=1 or configure them through Config (store_path, judge, retrieval)"
        )
