"""One-way layering (SPEC §1): a module may import only from its own layer or below.

Parses every module with ``ast`` (imports inside functions included) and fails on any upward
import, naming the module, the line and the offending target.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("governor", "graphs", "verifiers", "benchmarks")

# module (dotted prefix) -> layer; longest prefix wins.
LAYERS: dict[str, int] = {
    "governor": 0,
    "governor.models": 0,
    "governor.errors": 0,
    "governor.config": 0,
    "governor.regexes": 0,
    "governor.numerals": 0,
    "governor.labels": 0,
    "governor.textio": 0,
    "governor.sanitize": 0,
    "governor.output": 0,
    "governor.ports": 1,
    "governor.extract": 1,
    "governor.extract_cn": 1,
    "governor.extract_us": 1,
    "governor.claims": 1,
    "governor.authorities": 1,
    "governor.clients": 2,
    "governor.retrieval": 2,
    "verifiers": 3,
    "governor.revise": 4,
    "governor.repairs": 4,
    "governor.llm_revise": 4,
    "graphs": 5,
    "benchmarks": 6,
    "benchmarks.ablation": 7,
    "benchmarks.bench_govern": 7,
    "benchmarks.datadir": 0,
    "benchmarks.report": 7,
    "benchmarks.perturb": 6,
    "governor.api": 7,
    "governor.html": 7,
    "governor.batch": 7,
    "governor.cli": 8,
    "governor.cli_common": 8,
    "governor.cli_drafts": 8,
    "governor.cli_corpus": 8,
    "governor.cli_ablate": 8,
    "governor.cli_calibrate": 8,
}


def layer_of(module: str) -> int | None:
    best: tuple[int, int] | None = None
    for prefix, layer in LAYERS.items():
        if module == prefix or module.startswith(prefix + "."):
            if best is None or len(prefix) > best[0]:
                best = (len(prefix), layer)
    return None if best is None else best[1]


def modules() -> list[tuple[str, Path]]:
    out = []
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out.append((".".join(parts), path))
    return out


def imported(path: Path, module: str) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                is_pkg = path.name == "__init__.py"
                base = base if is_pkg else base[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            found += [(node.lineno, f"{target}.{a.name}") for a in node.names]
    return [(ln, t) for ln, t in found if t.split(".")[0] in PACKAGES]


def test_every_module_has_a_layer() -> None:
    missing = [m for m, _ in modules() if layer_of(m) is None]
    assert not missing, f"add these modules to LAYERS: {missing}"


@pytest.mark.parametrize("module,path", modules(), ids=lambda v: str(v))
def test_no_upward_import(module: str, path: Path) -> None:
    own = layer_of(module)
    assert own is not None
    bad = []
    for lineno, target in imported(path, module):
        tl = layer_of(target)
        if tl is not None and tl > own and module not in ("governor",):
            bad.append(f"{path.name}:{lineno} imports {target} (layer {tl} > {own})")
    assert not bad, "upward imports:\n" + "\n".join(bad)


def test_cli_is_imported_by_nobody() -> None:
    offenders = [
        m
        for m, p in modules()
        if m != "governor.cli"
        and any(t == "governor.cli" or t.startswith("governor.cli.") for _, t in imported(p, m))
    ]
    assert not offenders, f"governor.cli is the composition root; imported by {offenders}"


def test_the_checker_catches_an_upward_import(tmp_path: Path) -> None:
    bad = tmp_path / "m.py"
    bad.write_text("from graphs.pipeline import build_governance_graph\n", encoding="utf-8")
    targets = [t for _, t in imported(bad, "governor.models")]
    assert any(layer_of(t) == 5 for t in targets)
