"""Config precedence (defaults < file < environment < flags) and clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from governor.core.config import load_config
from governor.core.errors import ConfigError


def test_precedence_defaults_file_env_flags(tmp_path: Path) -> None:
    f = tmp_path / "c.toml"
    f.write_text('strategy = "existence"\nmax_rounds = 3\nstrict = true\n', encoding="utf-8")
    env = {"CITEGOV_MAX_ROUNDS": "4"}
    cfg = load_config(f, {"strict": None, "judge": "offline"}, environ=env)
    assert cfg.strategy == "existence"  # file over default
    assert cfg.max_rounds == 4  # environment over file
    assert cfg.strict is True  # a None flag does not override
    cfg = load_config(f, {"max_rounds": 5}, environ=env)
    assert cfg.max_rounds == 5  # flag over environment
    assert load_config(None, None, environ={}).strategy == "efa"


@pytest.mark.parametrize(
    "content,field",
    [("strategy = 'delete'\n", "strategy"), ("max_rounds = 0\n", "max_rounds")],
)
def test_invalid_values_name_the_field(tmp_path: Path, content: str, field: str) -> None:
    f = tmp_path / "c.toml"
    f.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError, match=field):
        load_config(f, environ={})


def test_broken_toml_is_a_config_error(tmp_path: Path) -> None:
    f = tmp_path / "c.toml"
    f.write_text("strategy = \n", encoding="utf-8")
    with pytest.raises(ConfigError, match="TOML"):
        load_config(f, environ={})


def test_the_key_itself_is_never_a_config_field() -> None:
    cfg = load_config(None, None, environ={"OPENAI_API_KEY": "sk-secret"})
    assert "sk-secret" not in cfg.model_dump_json()
    assert cfg.llm_api_key_env == "OPENAI_API_KEY"


def test_cli_flags_do_not_mask_config_file_or_environment(tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from governor.cli.app import app

    draft = tmp_path / "d.md"
    draft.write_text("根据《民法典》第九千条规定，合同无效。\n", encoding="utf-8")
    cfg = tmp_path / "c.toml"
    cfg.write_text('strategy = "existence"\n', encoding="utf-8")
    out = tmp_path / "out"
    r = CliRunner().invoke(
        app, ["revise", str(draft), "--out", str(out), "--config", str(cfg), "-q"]
    )
    assert r.exit_code == 0, r.output
    assert (
        json.loads((out / "d.verdicts.json").read_text(encoding="utf-8"))["strategy"] == "existence"
    )
    bad = CliRunner().invoke(app, ["verify", str(draft)], env={"CITEGOV_JUDGE": "foo"})
    assert bad.exit_code == 2 and "judge" in bad.output
