"""``scripts/test.sh`` (the CI command) reuses its venv while pyproject.toml is unchanged.

The script runs on a copy of the project with stub executables: a stub ``python -m venv``
creates a venv whose ``pip``, ``ruff``, ``mypy`` and ``python`` only record that they ran, so
the test checks which steps the script takes without installing anything.
"""

from __future__ import annotations

import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

STUB = """#!/bin/sh
echo "$(basename "$0") $*" >> "{log}"
"""
FAKE_PY = """#!/bin/sh
# stub of `python3 -m venv DIR`: a venv of recording stubs
echo "python3 $*" >> "{log}"
mkdir -p "$3/bin"
for tool in pip ruff mypy python; do
  printf '#!/bin/sh\\necho "%s $*" >> "{log}"\\n' "$tool" > "$3/bin/$tool"
  chmod +x "$3/bin/$tool"
done
"""


def _exe(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    (proj / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "test.sh", proj / "scripts" / "test.sh")
    shutil.copy(ROOT / "pyproject.toml", proj / "pyproject.toml")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "calls.log"
    _exe(bin_dir / "fakepython", FAKE_PY.format(log=log))
    _exe(bin_dir / "chromium", STUB.format(log=log))  # present: no apt-get
    return proj


def _run(
    proj: Path, args: tuple[str, ...] = (), extra: dict[str, str] | None = None
) -> tuple[str, list[str]]:
    bin_dir = proj.parent / "bin"
    env = {
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "PYTHON": str(bin_dir / "fakepython"),
        "VENV": str(proj / ".venv-test"),
        **(extra or {}),
    }
    res = subprocess.run(
        ["bash", "scripts/test.sh", *args], cwd=proj, env={**env, "HOME": str(proj)},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    log = proj.parent / "calls.log"
    calls = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    log.unlink(missing_ok=True)
    return res.stderr, calls


def test_venv_is_built_once_and_reused_until_pyproject_changes(project: Path) -> None:
    _, first = _run(project)
    assert any(c.startswith("python3 -m venv") for c in first)
    assert any("install -q -e .[st,dev]" in c for c in first)
    assert (project / ".venv-test" / ".citegov-pyproject.sha256").is_file()

    err, second = _run(project)
    assert "reusing" in err
    assert not any(c.startswith(("python3 -m venv", "pip")) for c in second)
    assert any(c.startswith("ruff check") for c in second)  # lint, types, tests still run
    assert any(c.startswith("mypy") for c in second)
    assert any(c.startswith("python -m pytest") for c in second)

    with (project / "pyproject.toml").open("a", encoding="utf-8") as f:
        f.write("\n# a changed dependency\n")
    _, third = _run(project)
    assert any(c.startswith("python3 -m venv") for c in third)


def test_fresh_venv_on_request(project: Path) -> None:
    _run(project)
    bin_dir = project.parent / "bin"
    res = subprocess.run(
        ["bash", "scripts/test.sh"], cwd=project, capture_output=True, text=True, timeout=60,
        env={"PATH": f"{bin_dir}:/usr/bin:/bin", "PYTHON": str(bin_dir / "fakepython"),
             "VENV": str(project / ".venv-test"), "CITEGOV_FRESH_VENV": "1"},
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    calls = (project.parent / "calls.log").read_text(encoding="utf-8")
    assert "python3 -m venv" in calls and "reusing" not in res.stderr


def test_venv_is_git_ignored() -> None:
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    assert ".venv-test/" in ignored and ".venv-test-lite/" in ignored


def test_quick_run_passes_the_marker_to_pytest(project: Path) -> None:
    _, calls = _run(project, ("-m", "not heavy"))
    assert any(c.startswith("python -m pytest") and c.endswith("-m not heavy") for c in calls)


def test_lite_venv_has_no_torch(project: Path) -> None:
    _, calls = _run(project, extra={"CITEGOV_TEST_LITE": "1"})
    assert any("install -q -e .[dev]" in c for c in calls)
    installs = [c for c in calls if c.startswith("pip install")]
    assert not any("torch==" in c or "[st," in c for c in installs), installs
    assert (project / ".venv-test-lite" / ".citegov-pyproject.sha256").is_file()
    assert not (project / ".venv-test").exists()
