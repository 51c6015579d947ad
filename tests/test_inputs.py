"""Broken and unusual inputs through ``citegov verify --json`` (SPEC §10, issue #8).

Every case is a file on disk read by the CLI, so decoding, the size limit, warnings, exit
codes and spans are tested the way a user meets them. Spans in the JSON must index the text
exactly as given: for every citation, ``text[start:end] == raw`` where ``text`` is the file
decoded (BOM removed, CRLF kept).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from governor.api import Governor
from governor.cli.app import app
from governor.core.config import load_config
from governor.core.errors import EncodingError
from governor.text.textio import decode_bytes, draft_from_text, read_draft

ENV = {"CITEGOV_CONFIG": "", "NO_COLOR": "1", "COLUMNS": "120"}
AS_OF = "2026-11-29"
DRAFT = (
    "问题：合同一方不履行义务怎么办？\r\n"
    "根据《中华人民共和国民法典》第五百七十七条规定，当事人一方不履行合同义务的，"
    "应当承担违约责任。\r\n"
    "另依《民法典》第五百八十五条，违约金过高的，人民法院可以适当减少。\r\n"
)
"""Two real provisions, CRLF line endings (kept as given)."""


def run(args: list[str]) -> Any:
    return CliRunner().invoke(app, args, env=ENV)


def verify_json(*paths: Path, extra: tuple[str, ...] = ()) -> tuple[Any, list[dict[str, Any]]]:
    res = run(["verify", "--json", "--as-of", AS_OF, *extra, *map(str, paths)])
    objs = [json.loads(line) for line in res.stdout.splitlines() if line.startswith("{")]
    return res, objs


def assert_spans_index(text: str, report: dict[str, Any]) -> None:
    assert report["input"]["chars"] == len(text)
    for c in report["citations"]:
        start, end = c["span"]
        assert text[start:end] == c["raw"], (c["raw"], text[start:end])


@pytest.mark.parametrize(
    "encoding,bom,detected",
    [
        ("utf-8", b"", "utf-8"),
        ("utf-8", b"\xef\xbb\xbf", "utf-8-sig"),
        ("gb18030", b"", "gb18030"),
        ("gbk", b"", "gb18030"),
        ("utf-16-le", b"\xff\xfe", "utf-16"),
        ("utf-16-be", b"\xfe\xff", "utf-16"),
        ("utf-32-le", b"\xff\xfe\x00\x00", "utf-32"),
    ],
)
def test_encodings_give_the_same_spans(
    tmp_path: Path, encoding: str, bom: bytes, detected: str
) -> None:
    p = tmp_path / "d.md"
    p.write_bytes(bom + DRAFT.encode(encoding))
    res, (report,) = verify_json(p)
    assert res.exit_code == 0, res.output
    assert report["input"]["encoding"] == detected
    assert_spans_index(DRAFT, report)
    assert [c["article"] for c in report["citations"]] == ["577", "585"]
    # CRLF kept: offsets count the \r (they would be one less per line otherwise)
    assert report["citations"][1]["span"][0] == DRAFT.index("《民法典》第五百八十五条")


@pytest.mark.parametrize(
    "text",
    [
        "违约金",  # charset-normalizer alone reads these GBK bytes as Big5 (峊埮踢)
        "你好",
        "第十条",
        "见民法典第十条。",
    ],
)
def test_short_gbk_is_not_read_as_big5(text: str) -> None:
    assert decode_bytes(text.encode("gbk")) == (text, "gb18030")


def test_big5_still_reads_when_it_is_clearly_big5() -> None:
    text = "根據民法第一百八十四條規定，應負損害賠償責任。"
    assert decode_bytes(text.encode("big5")) == (text, "big5")


@pytest.mark.parametrize(
    "data,message",
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),  # NUL bytes
        ("正文\x00正文".encode(), "binary"),  # one NUL in UTF-8 text
        (bytes([1, 2, 3, 4, 5, 6, 7, 8, 14, 15]) * 30, "binary"),  # controls, no NUL
        ("根据民法典第五百七十七条".encode("utf-16-le"), "byte-order mark"),  # UTF-16, no BOM
        (b"\xff\xfe\x00\xd8", "byte-order mark"),  # BOM, then a lone surrogate
        (bytes(range(0x80, 0x100)) * 3, "cannot be decoded"),
    ],
)
def test_unreadable_files_exit_2_with_a_clear_message(
    tmp_path: Path, data: bytes, message: str
) -> None:
    p = tmp_path / "bad.md"
    p.write_bytes(data)
    res, objs = verify_json(p)
    assert res.exit_code == 2 and objs == []
    assert message in res.stderr and "bad.md" in res.stderr


def test_a_stray_control_character_is_not_binary() -> None:
    text = "根据《民法典》第五百七十七条规定，应当承担违约责任。\x0c第二页\x1a"
    assert decode_bytes(text.encode("utf-8"))[0] == text


@pytest.mark.parametrize("content", [b"", b"  \r\n\t\n", "\ufeff".encode()])
def test_empty_draft_zero_citations_trust_one_and_a_warning(tmp_path: Path, content: bytes) -> None:
    p = tmp_path / "empty.md"
    p.write_bytes(content)
    res, (report,) = verify_json(p)
    assert res.exit_code == 0
    assert report["citations"] == [] and report["scores"]["trust"] == 1.0
    # nothing checked is not a pass (issue 23)
    assert report["scores"]["n_cite"] == 0 and report["scores"]["all_pass"] is False
    # dated today, after the store's horizon: that gap is stated too
    assert [g["kind"] for g in report["gaps"] if g["kind"] != "after_horizon"] == ["no_citations"]
    assert any("empty" in w for w in report["warnings"])
    assert "empty" in res.stderr


def test_size_limit_flag(tmp_path: Path) -> None:
    p = tmp_path / "big.md"
    p.write_text(DRAFT, encoding="utf-8")
    res, objs = verify_json(p, extra=("--max-chars", str(len(DRAFT) - 1)))
    assert res.exit_code == 2 and objs == [] and "--max-chars" in res.stderr
    res, (report,) = verify_json(p, extra=("--max-chars", str(len(DRAFT))))
    assert res.exit_code == 0 and report["scores"]["n_cite"] == 2


def test_one_bad_file_does_not_stop_the_others(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.md", tmp_path / "bad.md"
    good.write_text(DRAFT, encoding="utf-8")
    bad.write_bytes(b"\x00\x01\x02")
    res, objs = verify_json(good, bad)
    assert res.exit_code == 3
    assert [Path(o["input"]["path"]).name for o in objs] == ["good.md"]


MARKDOWN = """# 违约责任研究报告

> 报告日期：2026年11月1日

| 问题 | 依据 |
| --- | --- |
| 违约责任 | 《中华人民共和国民法典》第五百七十七条 |
| 违约金调整 | 《民法典》第五百八十五条第二款 |

违约方应当承担责任[^1]。

```markdown
根据《民法典》第一千二百六十条规定，本法自2021年1月1日起施行。
```

- 列表项：依据《劳动合同法》第39条，用人单位可以解除劳动合同。

[^1]: 《中华人民共和国民法典》第五百七十七条：当事人一方不履行合同义务或者履行合同义务不符合约定的，应当承担继续履行、采取补救措施或者赔偿损失等违约责任。
"""


def test_markdown_tables_code_blocks_footnotes(tmp_path: Path) -> None:
    p = tmp_path / "report.md"
    p.write_text(MARKDOWN, encoding="utf-8")
    res, (report,) = verify_json(p)
    assert res.exit_code == 0, res.output
    assert_spans_index(MARKDOWN, report)
    got = [(c["article"], c["paragraph"]) for c in report["citations"]]
    # table cells, the fenced code block (shown to readers: verified like any text, see
    # governor.text.sanitize rule 4), the list item and the footnote
    assert got == [("577", None), ("585", 2), ("1260", None), ("39", None), ("577", None)]
    footnote = report["citations"][-1]
    assert footnote["description"].startswith("当事人一方不履行合同义务")
    assert footnote["fidelity"]["label"] == "faithful"


def test_citations_in_a_wrapping_fence_are_scored_the_same(tmp_path: Path) -> None:
    """Wrapping a draft in a code fence is not a way around verification."""
    plain, fenced = tmp_path / "plain.md", tmp_path / "fenced.md"
    body = "根据《民法典》第九千条规定，合同无效。\n" + DRAFT.replace("\r\n", "\n")
    plain.write_text(body, encoding="utf-8")
    fenced.write_text("```markdown\n" + body + "```\n", encoding="utf-8")
    _, (a, b) = verify_json(plain, fenced)
    labels = [
        [(c["raw"], c["existence"]["label"], c["fidelity"]["label"]) for c in r["citations"]]
        for r in (a, b)
    ]
    assert labels[0] == labels[1] and labels[0][0][1] == "not_found"
    assert a["scores"] == b["scores"] and a["scores"]["trust"] < 1.0


def test_lone_cr_line_endings_are_kept(tmp_path: Path) -> None:
    text = DRAFT.replace("\r\n", "\r")
    p = tmp_path / "mac.md"
    p.write_bytes(text.encode("utf-8"))
    assert read_draft(p).text == text
    _, (report,) = verify_json(p)
    assert_spans_index(text, report)
    assert report["scores"]["n_cite"] == 2


@pytest.mark.parametrize("call", ["extract", "verify", "govern", "draft_from_text"])
def test_lone_surrogates_are_an_input_error_not_a_crash(call: str) -> None:
    text = "根据《民法典》第五百七十七条\ud800规定，应当承担违约责任。"
    gov = Governor(load_config(overrides={}, environ={}))
    with pytest.raises(EncodingError, match="surrogate"):
        if call == "draft_from_text":
            draft_from_text(text)
        else:
            getattr(gov, call)(text)
