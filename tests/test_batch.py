"""Batch engine (governor/batch.py): inputs, output names, resume after a kill, workers, docx."""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import pytest

from governor.api import Governor
from governor.authorities import load_default_store
from governor.batch import (
    SUMMARY_NAME,
    BatchOptions,
    BatchProgress,
    check_portable,
    collect_inputs,
    make_options,
    output_names,
    plan_jobs,
    read_docx,
    read_summary,
    run_batch,
)
from governor.core.config import load_config
from governor.core.errors import ConfigError, EncodingError, InputError, StrategyError
from governor.core.report import VerdictReport

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "drafts"
AS_OF = date(2026, 11, 29)
GOOD = (
    "问题：对方违约后我能否要求赔偿？\n\n"
    "回答：根据《中华人民共和国民法典》第五百七十七条规定，当事人一方不履行合同义务的，应当承担违约责任。"
    "向人民法院请求保护民事权利的诉讼时效期间为二年（《民法典》第一百八十八条）。\n"
)
FABRICATED = "根据《民法典》第九千条规定，合同无效。\n"


@pytest.fixture(scope="module")
def gov() -> Governor:
    g = Governor(load_config(overrides={"as_of": AS_OF}, environ={}))
    _ = g.judge
    return g


def opts(**kw: object) -> BatchOptions:
    return make_options(as_of=AS_OF, **kw)


def write(folder: Path, name: str, text: str | bytes) -> Path:
    p = folder / name
    p.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return p


def summary_inputs(out: Path) -> list[str]:
    lines = (out / SUMMARY_NAME).read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["input"] for line in lines if line.strip()]


# --- inputs -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "specs,expected",
    [
        (["d/a.md"], ["d/a.md"]),
        (["d"], ["d/a.md", "d/b.txt", "d/sub/c.md"]),  # recursive; .json, hidden, out/ skipped
        (["d/*.md"], ["d/a.md"]),
        (["d/**/*.md"], ["d/a.md", "d/sub/c.md"]),
        (["d/a.md", "d", "d/a.md"], ["d/a.md", "d/b.txt", "d/sub/c.md"]),  # no duplicates
        (["d/notes.json"], ["d/notes.json"]),  # an explicit file is taken as given
    ],
)
def test_collect_inputs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, specs: list[str], expected: list[str]
) -> None:
    for name in ("d/a.md", "d/b.txt", "d/sub/c.md", "d/notes.json", "d/.hidden.md", "d/out/x.md"):
        write(tmp_path, name, GOOD)
    monkeypatch.chdir(tmp_path)
    got = collect_inputs(specs, exclude=tmp_path / "d" / "out")
    assert [str(p.relative_to(tmp_path)) for p in got] == expected


@pytest.mark.parametrize(
    "spec,message",
    [("missing.md", "no such file"), ("empty", "holds no drafts"), ("*.nothing", "no draft")],
)
def test_collect_inputs_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spec: str, message: str
) -> None:
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match=message):
        collect_inputs([spec])


# --- output names -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "files,expected",
    [
        (["a/x.md", "b/y.md"], ["x", "y"]),
        (["a/x.md", "b/x.md"], ["a__x", "b__x"]),  # same stem, different folders
        (["a/X.md", "b/x.md"], ["a__X", "b__x"]),  # case-insensitive file systems
        (["p/a/x.md", "q/a/x.md"], ["p__a__x", "q__a__x"]),
        (["a/index.md"], ["a__index"]),  # index.html is the batch page
        (["a/my draft #1.md"], ["my_draft_1"]),
        (["a/民法典 问题.md"], ["民法典_问题"]),
    ],
)
def test_output_names(tmp_path: Path, files: list[str], expected: list[str]) -> None:
    paths = [tmp_path / f for f in files]
    names = output_names(paths)
    assert [names[p.resolve()] for p in paths] == expected


def test_output_names_same_folder_same_stem_differ(tmp_path: Path) -> None:
    paths = [tmp_path / "d" / "x.md", tmp_path / "d" / "x.txt", tmp_path / "d" / "x.docx"]
    names = output_names(paths)
    assert len({n.casefold() for n in names.values()}) == 3, names
    assert output_names(list(reversed(paths))) == names  # deterministic


def test_plan_refuses_output_over_input(tmp_path: Path) -> None:
    p = write(tmp_path, "a.md", GOOD)
    with pytest.raises(InputError, match="overwrite an input"):
        plan_jobs([p], tmp_path)
    jobs = plan_jobs([write(tmp_path, "r.docx", b"x")], tmp_path / "out")
    assert jobs[0].text_out.name == "r.md"  # .docx is written back as Markdown


# --- one batch, resume, kill ------------------------------------------------------------------


def test_batch_writes_outputs_and_isolates_failures(gov: Governor, tmp_path: Path) -> None:
    src = tmp_path / "in"
    write(src, "good.md", GOOD)
    write(src, "fab.md", FABRICATED)
    write(src, "bin.txt", b"\x00\x01\x02binary")
    write(src, "empty.md", "")
    seen: list[BatchProgress] = []
    res = run_batch(gov, [src], tmp_path / "out", opts(), progress=seen.append)
    status = {Path(r.input).name: r.status for r in res.rows}
    assert status == {"bin.txt": "failed", "empty.md": "ok", "fab.md": "ok", "good.md": "ok"}
    assert (res.governed, res.skipped, res.failed) == (3, 0, 1)
    assert [e.completed for e in seen] == [1, 2, 3, 4] and seen[-1].failed == 1
    bad = next(r for r in res.rows if r.status == "failed")
    assert bad.error_code == "encoding" and "binary" in (bad.error or "")
    out = tmp_path / "out"
    for stem in ("good", "fab", "empty"):
        report = VerdictReport.model_validate_json((out / f"{stem}.verdicts.json").read_text())
        assert report.final is not None and report.input.as_of == AS_OF
        assert (out / f"{stem}.md").is_file() and (out / f"{stem}.html").is_file()
    assert "第九千条" not in (out / "fab.md").read_text(encoding="utf-8")
    assert (src / "fab.md").read_text(encoding="utf-8") == FABRICATED  # input untouched
    assert sorted(summary_inputs(out)) == sorted(str(p) for p in src.iterdir())
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="good.html"' in index and "binary" in index


def test_resume_skips_unchanged_and_redoes_changed(gov: Governor, tmp_path: Path) -> None:
    src, out = tmp_path / "in", tmp_path / "out"
    a = write(src, "a.md", GOOD)
    write(src, "b.md", FABRICATED)
    first = run_batch(gov, [src], out, opts())
    assert first.governed == 2
    again = run_batch(gov, [src], out, opts(resume=True))
    assert (again.governed, again.skipped) == (0, 2)
    assert [r.model_dump() for r in again.rows] == [r.model_dump() for r in first.rows]
    a.write_text(GOOD + "补充。\n", encoding="utf-8")  # content changed → redone
    third = run_batch(gov, [src], out, opts(resume=True))
    assert (third.governed, third.skipped) == (1, 1)
    fourth = run_batch(gov, [src], out, opts(resume=True, strategy="existence"))
    assert (fourth.governed, fourth.skipped) == (2, 0)  # settings changed → all redone
    assert sorted(summary_inputs(out)) == sorted(str(p) for p in (src / "a.md", src / "b.md"))
    fresh = run_batch(gov, [src / "b.md"], out, opts())  # no --resume: the summary restarts
    assert fresh.skipped == 0 and summary_inputs(out) == [str(src / "b.md")]


def test_resume_after_kill_loses_and_duplicates_nothing(gov: Governor, tmp_path: Path) -> None:
    src, out = tmp_path / "in", tmp_path / "out"
    for i in range(4):
        write(src, f"d{i}.md", GOOD if i % 2 else FABRICATED)
    run_batch(gov, [src], out, opts())
    reference = {p.name: p.read_bytes() for p in out.iterdir() if p.suffix in (".md", ".json")}
    # Simulate a SIGKILL: d2's outputs written but no row, d3 not started, the last row cut in
    # half, a temp file of an interrupted atomic write left behind.
    rows = (out / SUMMARY_NAME).read_text(encoding="utf-8").splitlines()
    (out / SUMMARY_NAME).write_text("\n".join(rows[:2]) + "\n" + rows[2][:40], encoding="utf-8")
    (out / "d3.md").unlink()
    (out / ".d3.verdicts.json.abc.tmp").write_text("partial", encoding="utf-8")
    res = run_batch(gov, [src], out, opts(resume=True))
    assert (res.skipped, res.governed, res.failed) == (2, 2, 0)
    names = summary_inputs(out)
    assert sorted(names) == sorted(str(src / f"d{i}.md") for i in range(4))  # each once
    assert not list(out.glob(".*.tmp"))
    after = {p.name: p.read_bytes() for p in out.iterdir() if p.suffix in (".md", ".json")}
    assert after == reference  # same outputs as the uninterrupted run
    assert set(read_summary(out / SUMMARY_NAME)) == {str(src / f"d{i}.md") for i in range(4)}


def test_failed_rows_are_retried_on_resume(gov: Governor, tmp_path: Path) -> None:
    src, out = tmp_path / "in", tmp_path / "out"
    bad = write(src, "x.md", b"\x00bad")
    assert run_batch(gov, [src], out, opts()).failed == 1
    bad.write_text(GOOD, encoding="utf-8")
    res = run_batch(gov, [src], out, opts(resume=True))
    assert (res.governed, res.failed, res.skipped) == (1, 0, 0)
    assert summary_inputs(out) == [str(bad)]


def test_two_workers_match_one(gov: Governor, tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    for p in sorted(EXAMPLES.glob("*.md"))[:3]:
        shutil.copy(p, src / p.name)
    one = run_batch(gov, [src], tmp_path / "one", opts())
    events: list[BatchProgress] = []
    two = run_batch(gov, [src], tmp_path / "two", opts(workers=2), progress=events.append)
    assert two.governed == one.governed == 3 and two.failed == 0
    assert sorted(e.completed for e in events) == [1, 2, 3]
    for p in (tmp_path / "one").iterdir():
        other = tmp_path / "two" / p.name
        if p.suffix in (".md", ".json"):  # byte for byte: float sums are order-independent
            assert other.read_bytes() == p.read_bytes(), p.name
    strip = {"output", "verdicts", "html", "seconds"}
    assert [r.model_dump(mode="json", exclude=strip) for r in two.rows] == [
        r.model_dump(mode="json", exclude=strip) for r in one.rows
    ]


@pytest.mark.parametrize(("extra_threads", "method"), [(0, "fork"), (1, "forkserver")])
def test_workers_fork_this_process_only_when_it_runs_no_other_thread(
    gov: Governor, tmp_path: Path, extra_threads: int, method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fork shares the imports and the loaded store with the workers (issue 16); with a
    thread alive (the progress bar's) the clean fork server is used; outputs are the same.

    The choice is checked with the thread count this process would have (threads other tests
    leave alive in the pytest process must not decide it); the batches then run as they are."""
    import threading

    from governor.batch import _pool_context

    stop = threading.Event()
    threads = [threading.Thread(target=stop.wait) for _ in range(extra_threads)]
    for t in threads:
        t.start()
    try:
        with monkeypatch.context() as m:
            m.setattr(threading, "active_count", lambda: 1 + extra_threads)
            assert _pool_context(gov.config).get_start_method() == method
        src = tmp_path / "in"
        src.mkdir()
        for p in sorted(EXAMPLES.glob("*.md"))[:2]:
            shutil.copy(p, src / p.name)
        run_batch(gov, [src], tmp_path / "one", opts())
        two = run_batch(gov, [src], tmp_path / "two", opts(workers=2))
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert two.governed == 2 and two.failed == 0
    for p in (tmp_path / "one").iterdir():
        if p.suffix in (".md", ".json", ".html") and p.name != "index.html":
            assert (tmp_path / "two" / p.name).read_bytes() == p.read_bytes(), p.name


def test_second_batch_on_the_same_folder_is_refused(gov: Governor, tmp_path: Path) -> None:
    import fcntl

    out = tmp_path / "out"
    out.mkdir()
    with (out / ".citegov-batch.lock").open("a") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        with pytest.raises(InputError, match="another citegov batch"):
            run_batch(gov, [write(tmp_path, "a.md", GOOD)], out, opts())


@pytest.mark.parametrize(
    "kwargs,error",
    [
        ({"workers": 0}, ConfigError),
        ({"fail_on": 1.5}, ConfigError),
    ],
)
def test_make_options_rejects(kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error, match="invalid batch option"):
        make_options(**kwargs)


def test_unknown_strategy_and_file_as_out(gov: Governor, tmp_path: Path) -> None:
    a = write(tmp_path, "a.md", GOOD)
    with pytest.raises(StrategyError):
        run_batch(gov, [a], tmp_path / "o", opts(strategy="magic"))
    with pytest.raises(InputError, match="is a file"):
        run_batch(gov, [a], a, opts())


def test_workers_refused_with_injected_components() -> None:
    g = Governor(load_config(environ={}), store=load_default_store())
    check_portable(g, 1)
    with pytest.raises(ConfigError, match="injected store"):
        check_portable(g, 2)


# --- docx -------------------------------------------------------------------------------------


def test_docx_is_read_in_order_and_revised_as_markdown(gov: Governor, tmp_path: Path) -> None:
    from docx import Document

    doc = Document()
    doc.add_heading("法律意见", level=1)
    doc.add_paragraph(GOOD.splitlines()[-1])
    table = doc.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "依据"
    table.cell(0, 1).text = "《民法典》第九千条"
    path = tmp_path / "opinion.docx"
    doc.save(str(path))
    draft = read_docx(path)
    assert draft.text.splitlines()[0] == "# 法律意见"
    assert draft.text.index("第五百七十七条") < draft.text.index("| 依据 | 《民法典》第九千条 |")
    res = run_batch(gov, [path], tmp_path / "out", opts())
    assert res.rows[0].status == "ok" and res.rows[0].output == str(tmp_path / "out/opinion.md")
    report = json.loads((tmp_path / "out/opinion.verdicts.json").read_text(encoding="utf-8"))
    assert report["input"]["encoding"] == "docx" and report["scores"]["n_cite"] >= 2


def test_corrupt_docx_is_an_encoding_error(tmp_path: Path) -> None:
    p = write(tmp_path, "broken.docx", b"PK\x03\x04 not really a zip")
    with pytest.raises(EncodingError, match=r"not a readable \.docx"):
        read_docx(p)


def test_trace_flag_writes_rounds_and_a_unified_diff(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from governor.cli.app import app

    draft = tmp_path / "d.md"
    draft.write_text(
        "向人民法院请求保护民事权利的诉讼时效期间为二年（《民法典》第一百八十八条）。\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    r = CliRunner().invoke(app, ["revise", str(draft), "--out", str(out), "--trace", "-q"])
    assert r.exit_code == 0, r.output
    trace = json.loads((out / "d.trace.json").read_text(encoding="utf-8"))
    assert trace["rounds"][0]["edits"][0]["op"] == "fix_number"
    assert "-向人民法院请求保护民事权利的诉讼时效期间为二年" in trace["diff"]
    assert "+向人民法院请求保护民事权利的诉讼时效期间为三年" in trace["diff"]
