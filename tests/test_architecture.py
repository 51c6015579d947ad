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

# package or module (dotted prefix) -> layer; longest prefix wins (SPEC §1).
LAYERS: dict[str, int] = {
    "governor": 0,  # the package root: __version__ and a lazy facade (exempt below)
    "governor.core": 0,
    "governor.text": 0,
    "governor.citations": 1,
    "governor.authorities": 1,
    "governor.clients": 2,
    "governor.retrieval": 2,
    "verifiers": 3,
    "governor.revision": 4,
    "graphs": 5,
    "benchmarks": 6,
    "benchmarks.datadir": 0,
    "benchmarks.processes": 0,
    "benchmarks.perturb": 6,
    "benchmarks.ablation": 7,
    "benchmarks.bench_edits": 7,
    "benchmarks.bench_successors": 7,
    "benchmarks.bench_policy": 7,
    "benchmarks.bench_repair": 7,
    "benchmarks.bench_retrieval": 7,
    "benchmarks.stard_variants": 7,
    "benchmarks.stard_rerank": 7,
    "benchmarks.bench_criminal": 7,
    "benchmarks.bench_judgment": 7,
    "benchmarks.report": 7,
    "governor.reports": 7,
    "governor.api": 7,
    "governor.batch": 7,
    "governor.batch_ray": 7,
    "governor.cli": 8,
    "governor.service": 8,
}

# Layer-0 packages that must stay self-contained: nothing above them is imported by them.
FOUNDATION = ("governor.core", "governor.text")


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


def test_foundation_imports_only_itself() -> None:
    bad = [
        f"{m} imports {t}"
        for m, p in modules()
        if m.startswith(FOUNDATION)
        for _, t in imported(p, m)
        if not t.startswith(FOUNDATION) and t != "governor"
    ]
    assert not bad, "core/ and text/ import only core/ and text/:\n" + "\n".join(bad)


def _module_graph() -> dict[str, set[str]]:
    """module -> the citegov modules it imports (a ``from pkg import name`` of a submodule counts
    as importing that submodule)."""
    known = {m for m, _ in modules()}
    graph: dict[str, set[str]] = {}
    for m, p in modules():
        deps = set()
        for _, target in imported(p, m):
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != m:
                deps.add(target)
        graph[m] = deps
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` as a path ``[a, b, …, a]``, or None (iterative DFS)."""
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    for root in sorted(graph):
        if state.get(root):
            continue
        stack: list[tuple[str, list[str]]] = [(root, sorted(graph[root]))]
        path = [root]
        state[root] = 1
        while stack:
            node, todo = stack[-1]
            if not todo:
                stack.pop()
                path.pop()
                state[node] = 2
                continue
            nxt = todo.pop()
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if not state.get(nxt):
                state[nxt] = 1
                path.append(nxt)
                stack.append((nxt, sorted(graph.get(nxt, ()))))
    return None


def test_no_import_cycle() -> None:
    """Package ``__init__`` modules that only hold a docstring are nodes like any other; the root
    ``governor`` package's lazy facade is left out (it imports ``governor.api`` only on access)."""
    graph = _module_graph()
    graph.pop("governor", None)
    for deps in graph.values():
        deps.discard("governor")
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_cli_is_imported_by_nobody() -> None:
    offenders = [
        m
        for m, p in modules()
        if m != "governor.cli.app"
        and any(
            t == "governor.cli.app" or t.startswith("governor.cli.app.") for _, t in imported(p, m)
        )
    ]
    assert not offenders, f"governor.cli.app is the composition root; imported by {offenders}"


def test_service_is_imported_only_by_its_cli_command() -> None:
    """governor/service/ is a composition root (SPEC §1): outside itself, only the CLI module
    that starts it (governor.cli.serve) may import it."""
    offenders = [
        m
        for m, p in modules()
        if not m.startswith("governor.service")
        and m != "governor.cli.serve"
        and any(
            t == "governor.service" or t.startswith("governor.service.") for _, t in imported(p, m)
        )
    ]
    assert not offenders, f"governor.service is a composition root; imported by {offenders}"


def test_the_checker_catches_an_upward_import(tmp_path: Path) -> None:
    bad = tmp_path / "m.py"
    bad.write_text("from graphs.pipeline import build_governance_graph\n", encoding="utf-8")
    targets = [t for _, t in imported(bad, "governor.core.models")]
    assert any(layer_of(t) == 5 for t in targets)
