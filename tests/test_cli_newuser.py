"""A new user's first runs (2026-12-02): an empty draft, a binary file, a pin of an unknown law,
the status of a provision on an as-of date, and what the README promises about the store.

Statuses checked against ``GET /v1/provisions`` (:func:`governor.service.governing.lookup_provision`):
合同法 was in force from 1999-10-01 until the 民法典 repealed it on 2021-01-01 (民法典第一千二百六十条);
刑法第三百九十条's 2020-12-26 version (修正案十一) was in force from 2021-03-01 to 2024-03-01.
"""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

from governor.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
ENV = {"CITEGOV_CONFIG": "", "NO_COLOR": "1", "COLUMNS": "200"}


def run(args: list[str]) -> object:
    return CliRunner().invoke(app, args, env=ENV)


# ---- 1. nothing checked is not a pass (SPEC §10) ----------------------------------------------


@pytest.mark.parametrize("text", ["", "本备忘录仅为初稿，结论待定。\n"])
def test_verify_of_a_draft_without_citations_does_not_read_as_a_pass(
    tmp_path: Path, text: str
) -> None:
    draft = tmp_path / "memo.md"
    draft.write_text(text, encoding="utf-8")
    res = run(["verify", "--as-of", "2024-01-01", str(draft)])
    assert res.exit_code == 0, res.output  # type: ignore[attr-defined]
    out = res.stdout  # type: ignore[attr-defined]
    assert "no citations found — nothing checked" in out
    assert "trust 1.000" not in out and "all-pass no (0 of 0 verified)" in " ".join(out.split())
    # the JSON keeps SPEC §3's trust (1.0 over no included citation) with the gap no_citations
    res = run(["verify", "--json", "--as-of", "2024-01-01", str(draft)])
    report = json.loads(res.stdout)  # type: ignore[attr-defined]
    assert report["scores"]["trust"] == 1.0 and report["scores"]["all_pass"] is False
    assert "no_citations" in {g["kind"] for g in report["gaps"]}


def test_verify_of_a_draft_whose_citations_are_all_excluded_says_nothing_was_checked() -> None:
    res = CliRunner().invoke(
        app,
        ["verify", "-", "--as-of", "2024-01-01"],
        input="根据《美国宪法》第五修正案，被告有权保持沉默。\n",
    )
    out = " ".join(res.stdout.split())  # type: ignore[attr-defined]
    assert "excluded 1" in out and "nothing checked" in out and "trust 1.000" not in out


def test_revise_of_an_empty_draft_says_nothing_was_checked(tmp_path: Path) -> None:
    draft = tmp_path / "empty.md"
    draft.write_text("", encoding="utf-8")
    res = run(["revise", str(draft), "--out", str(tmp_path / "out"), "--as-of", "2024-01-01"])
    line = next(ln for ln in res.stdout.splitlines() if ln.startswith("empty:"))  # type: ignore[attr-defined]
    assert "no citations found — nothing checked" in line and "trust 1.000" not in line


# ---- 2. one clean error line for a binary file -------------------------------------------------


@pytest.mark.parametrize("command", ["verify", "revise"])
def test_a_binary_draft_is_named_once(tmp_path: Path, command: str) -> None:
    binary = tmp_path / "bin.md"
    binary.write_bytes(b"\x00\x01")
    args = [command, str(binary)] + (
        ["--out", str(tmp_path / "out")] if command == "revise" else []
    )
    res = run(args)
    assert res.exit_code == 2, res.output  # type: ignore[attr-defined]
    lines = [ln for ln in res.output.splitlines() if "NUL" in ln]  # type: ignore[attr-defined]
    assert len(lines) == 1 and lines[0].count(str(binary)) == 1, lines
    prefix = "error:" if command == "verify" else "failed:"
    assert lines[0].startswith(f"{prefix} {binary}: contains NUL bytes")


# ---- 3. a well-formed pin of an unknown law is not found (1), not a usage error (2) -----------


@pytest.mark.parametrize(
    ("pin", "code", "words"),
    [
        ("不存在法第一条", 1, "no instrument named 《不存在法》 in the store"),
        ("《消费者保护法》第一条", 1, "nearest: 《消费者权益保护法》"),
        ("劳动合同法第一百二十条", 1, "has no 第120条"),
        ("你好", 2, "not a pin cite"),
    ],
)
def test_corpus_show_exit_codes(pin: str, code: int, words: str) -> None:
    res = run(["corpus", "show", pin])
    assert res.exit_code == code, res.output  # type: ignore[attr-defined]
    assert words in " ".join(res.output.split())  # type: ignore[attr-defined]


# ---- 4. the status shown is the status on the as-of date --------------------------------------


@pytest.mark.parametrize(
    ("pin", "day", "head", "api_status"),
    [
        ("合同法第一百一十四条", "2019-03-01", "(1999-03-15, in force on 2019-03-01)", "in_force"),
        (
            "合同法第一百一十四条",
            "2024-01-01",
            "(1999-03-15, repealed on 2021-01-01, successor 《民法典》)",
            "repealed",
        ),
        ("刑法第三百九十条", "2022-01-01", "(2020-12-26, in force on 2022-01-01)", "in_force"),
        (
            "《刑法》（2020年修正）第三百九十条",
            "2024-06-01",
            "(2020-12-26, not in force on 2024-06-01; in force 2021-03-01–2024-03-01)",
            None,
        ),
    ],
)
def test_corpus_show_status_on_the_as_of_date(
    pin: str, day: str, head: str, api_status: str | None
) -> None:
    res = run(["corpus", "show", pin, "--as-of", day])
    assert res.exit_code == 0, res.output  # type: ignore[attr-defined]
    first = res.stdout.splitlines()[0]  # type: ignore[attr-defined]
    assert first.endswith(head), first
    if api_status is not None:  # the same reading as GET /v1/provisions
        from governor.api import Governor
        from governor.authorities import load_default_store
        from governor.service.governing import lookup_provision

        gov = Governor(store=load_default_store())
        assert lookup_provision(gov, pin, date.fromisoformat(day)).status == api_status
    if day == "2019-03-01":
        assert "later repealed on 2021-01-01" in res.stdout  # type: ignore[attr-defined]


def test_corpus_show_without_as_of_keeps_todays_status() -> None:
    res = run(["corpus", "show", "合同法第一百一十四条"])
    assert res.stdout.splitlines()[0].endswith("(1999-03-15, repealed)")  # type: ignore[attr-defined]
    res = run(["corpus", "show", "刑法第三百九十条"])
    assert res.stdout.splitlines()[0].endswith("(2023-12-29, in_force)")  # type: ignore[attr-defined]


# ---- 5. the README's figures are the store's ---------------------------------------------------


def test_readme_states_the_bundled_store_counts() -> None:
    from governor.authorities import load_default_store

    store = load_default_store()
    st = store.stats()
    base = store.dense_base or {}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    intro = " ".join(readme.split("## Setup")[0].split())
    for figure in (
        f"{st['instruments']:,} instruments",
        f"{st['versions']:,} versions",
        f"{st['articles']:,} articles",
        f"{st['articles_current']:,} of them in the newest versions",
    ):
        assert figure in intro, figure
    flat = " ".join(readme.split())
    assert "every distinct provision text" not in flat
    assert f"the {int(base.get('bm25_only', 0)):,} provisions of the bundled store" in flat
    assert "E/F/A counts" not in flat
    assert re.search(r"--details +# … the rationale lines of failing citations", readme)
