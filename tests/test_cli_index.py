"""End to end on a tiny corpus: `corpus build` → `index build` → hybrid `verify`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.datadir import data_path
from governor.cli.app import app

LAWS = data_path("cn_laws")


@pytest.mark.skipif(not LAWS.is_dir(), reason="needs the shared data folder (CITEGOV_SHARED_DATA)")
def test_build_store_then_index_then_verify_with_hybrid_retrieval(tmp_path: Path) -> None:
    corpus = tmp_path / "laws"
    (corpus / "民法典").mkdir(parents=True)
    for name in ("总则.md", "附则.md"):
        shutil.copy(LAWS / "民法典" / name, corpus / "民法典" / name)
    rows = (LAWS / "manifest.csv").read_text(encoding="utf-8").splitlines()
    keep = [rows[0]] + [r for r in rows[1:] if r.startswith(("民法典/总则.md", "民法典/附则.md"))]
    (corpus / "manifest.csv").write_text("\n".join(keep) + "\n", encoding="utf-8")
    store = tmp_path / "store.json.xz"
    runner = CliRunner()
    r = runner.invoke(app, ["corpus", "build", "--from", str(corpus), "--out", str(store)])
    assert r.exit_code == 0, r.output
    cfg = tmp_path / "citegov.toml"
    cfg.write_text(
        f'store_path = "{store}"\nindex_dir = "{tmp_path / "idx"}"\ncache_dir = "{tmp_path / "cache"}"\n',
        encoding="utf-8",
    )
    r = runner.invoke(app, ["index", "build", "--config", str(cfg)])
    assert r.exit_code == 0, r.output
    assert "indexed" in r.output
    assert "embedding provisions:" in r.output  # progress without a terminal (plain lines)
    cfg.write_text(cfg.read_text(encoding="utf-8") + 'retrieval = "hybrid"\n', encoding="utf-8")
    draft = tmp_path / "d.md"
    draft.write_text("根据《民法典》第一百八十八条规定，诉讼时效期间为二年。", encoding="utf-8")
    r = runner.invoke(app, ["verify", str(draft), "--json", "--config", str(cfg)])
    assert r.exit_code == 0, r.output
    (cit,) = json.loads(r.stdout.splitlines()[0])["citations"]
    assert cit["existence"]["label"] == "exists"
    assert cit["fidelity"]["label"] == "misdescribed"  # 三年, not 二年
