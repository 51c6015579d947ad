"""Cold start (issue 16): what a new ``citegov verify`` process loads, and the on-disk caches
that spare it work (jieba's dictionary, cn2an's numerals). Timing lives in
``benchmarks/bench_all.py``, never here: these tests check *what* is loaded and that each
cache returns exactly what the library it stands for would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

HEAVY = ("langgraph", "langchain_core", "chromadb", "matplotlib", "torch", "openai", "eyecite")
"""Packages a cold ``verify`` (offline judge, bm25 retrieval, a Chinese draft) must not import."""

_VERIFY = """
import sys
from governor.cli.app import main
sys.argv = ["citegov", "verify", sys.argv[1]]
try:
    main()
except SystemExit:
    pass
heavy = sorted({m.split(".")[0] for m in sys.modules} & set(sys.argv[2].split(",")))
print("HEAVY=" + ",".join(heavy))
print("CN2AN=" + str("cn2an" in sys.modules))
print("SCIPY=" + str("scipy" in sys.modules))
"""


def _run(code: str, *args: str, cache: Path) -> str:
    env = dict(os.environ, CITEGOV_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=True,
    )
    return out.stdout


def _field(out: str, name: str) -> str:
    return next(line for line in out.splitlines() if line.startswith(name + "="))[len(name) + 1 :]


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("citegov-cache")


@pytest.mark.heavy  # fresh processes, ~20 s each
def test_cold_verify_loads_no_graph_llm_or_plot_stack(cache: Path, tmp_path: Path) -> None:
    draft = tmp_path / "d.md"
    draft.write_text(
        "问题：借款利息怎么算？\n\n根据《中华人民共和国民法典》第六百八十条，禁止高利放贷，"
        "借款的利率不得违反国家有关规定。依据《民法典》第五百七十七条承担违约责任。\n",
        encoding="utf-8",
    )
    first = _run(_VERIFY, str(draft), ",".join(HEAVY), cache=cache)
    assert "第六百八十条" in first
    assert _field(first, "HEAVY") == ""
    assert _field(first, "SCIPY") == "False"  # per-instrument BM25 without bm25s/scipy
    again = _run(_VERIFY, str(draft), ",".join(HEAVY), cache=cache)
    assert _field(again, "CN2AN") == "False"  # the numerals table is read from the cache
    assert list(cache.glob("jieba-*-dict.npz")) and list(cache.glob("numerals-cn2an-*.json"))


def test_numerals_table_is_what_cn2an_says(cache: Path) -> None:
    """Every entry of the cached table, both ways, is what cn2an itself renders and reads."""
    import cn2an

    from governor.text import numerals

    names, back = numerals._table()
    assert sorted(names) == numerals.table_numbers()
    assert len(names) == 2 * numerals.TABLE_MAX
    for n, name in names.items():
        assert name == cn2an.an2cn(n)
    for s, n in back.items():
        assert int(cn2an.cn2an(s, "smart")) == n
    for s, n in [("五百七十七", 577), ("五千", 5000), ("二十万", 200_000), ("一十", 10),
                 ("一十五万", 150_000), ("两千五百", 2500), ("两万", 20_000)]:  # fmt: skip
        assert back[s] == n


@pytest.mark.parametrize(
    "numeral,value",
    [
        ("五百七十七", 577),
        ("十", 10),
        ("一十", 10),
        ("两百", 200),
        ("一万零一", 10001),
        ("五十4", 54),
    ],
)
def test_numerals_outside_the_table_still_go_to_cn2an(numeral: str, value: int) -> None:
    from governor.text.numerals import to_int

    assert to_int(numeral) == value


_MISSPELT = """
import json, sys
from governor.text.numerals import to_int
out = {}
for s in sys.argv[1].split(","):
    try:
        out[s] = to_int(s)
    except ValueError as exc:
        out[s] = str(exc)
print("OUT=" + json.dumps(out, ensure_ascii=False))
print("CN2AN=" + str("cn2an" in sys.modules))
"""


def test_numerals_cn2an_answers_outside_the_table_are_kept(tmp_path: Path) -> None:
    """A numeral outside the table (misspelt pins included) is cn2an's answer, asked once:
    a later process reads it from the cache folder and does not import cn2an (≈ 0.17 s)."""
    import cn2an

    cases = ["十六十四", "一千零零六十三", "一千零十一", "一万零一", "三十七"]
    expected: dict[str, object] = {}
    for s in cases:
        try:
            expected[s] = int(cn2an.cn2an(s, "smart"))
        except (ValueError, KeyError):
            expected[s] = f"not a numeral: {s!r}"
    assert expected["十六十四"] == "not a numeral: '十六十四'"  # the case the memo is for
    assert expected["一千零十一"] == 1011
    first = _run(_MISSPELT, ",".join(cases), cache=tmp_path)
    assert json.loads(_field(first, "OUT")) == expected
    assert _field(first, "CN2AN") == "True"
    (memo,) = tmp_path.glob("numerals-cn2an-*-other.json")
    assert set(json.loads(memo.read_text(encoding="utf-8"))) == {
        "十六十四", "一千零零六十三", "一千零十一", "一万零一"
    }  # fmt: skip
    again = _run(_MISSPELT, ",".join(cases), cache=tmp_path)
    assert json.loads(_field(again, "OUT")) == expected
    assert _field(again, "CN2AN") == "False"


@pytest.mark.heavy  # fresh processes, ~20 s each
def test_jieba_dictionary_cache_equals_jiebas_own(cache: Path) -> None:
    """citegov's array copy of jieba's prefix dictionary holds exactly jieba's entries."""
    code = """
import hashlib, json
import jieba
from governor.authorities.store import tokenize
toks = tokenize("用人单位未签订书面劳动合同的应当支付二倍工资")
print(json.dumps({"n": len(jieba.dt.FREQ), "total": jieba.dt.total, "toks": toks,
    "h": hashlib.sha256("\\n".join(f"{k} {v}" for k, v in sorted(jieba.dt.FREQ.items()))
        .encode()).hexdigest()}))
"""
    env_cache = cache / "jieba-case"
    first = json.loads(_run(code, cache=env_cache).strip().splitlines()[-1])
    assert (env_cache / "jieba.cache").is_file()  # jieba's own cache kept beside ours
    (npz,) = env_cache.glob("jieba-*-dict.npz")
    second = json.loads(_run(code, cache=env_cache).strip().splitlines()[-1])
    assert first["toks"] == second["toks"] == [
        "用人", "单位", "用人单位", "未", "签订", "书面", "劳动", "合同", "劳动合同",
        "应当", "支付", "二倍", "工资",
    ]  # fmt: skip
    assert (first["n"], first["total"], first["h"]) == (second["n"], second["total"], second["h"])
    assert npz.stat().st_size > 1_000_000


def test_inline_space_matches_what_the_one_class_form_matches() -> None:
    """``_INLINE_SPACE`` is written so that ``re`` compiles it cheaply (see its docstring);
    every code point it matches, and only those, is matched by the plain form
    ``[^\\S\\n]|[<ZERO_WIDTH>]``, so every pattern built from :data:`GAP` is unchanged."""
    import re

    from governor.text import regexes as rx

    plain = re.compile(rf"(?:[^\S\n]|[{rx.ZERO_WIDTH}])")
    cheap = re.compile(rx._INLINE_SPACE)
    differ = [
        hex(i)
        for i in range(sys.maxunicode + 1)
        if bool(plain.fullmatch(chr(i))) != bool(cheap.fullmatch(chr(i)))
    ]
    assert differ == []
    assert cheap.fullmatch("\u2060") and cheap.fullmatch("\u3000") and not cheap.match("\n")


def test_cli_collects_young_garbage_less_often() -> None:
    """``citegov`` raises the young-generation threshold for its own process (see
    :data:`governor.cli.app.GC_YOUNG_THRESHOLD`) and leaves the older generations alone."""
    import gc

    from governor.cli import app as cli

    before = gc.get_threshold()
    old_argv = sys.argv
    try:
        sys.argv = ["citegov", "--version"]
        with pytest.raises(SystemExit):
            cli.main()
        assert gc.get_threshold() == (cli.GC_YOUNG_THRESHOLD, *before[1:])
        assert cli.GC_YOUNG_THRESHOLD > before[0]
    finally:
        sys.argv = old_argv
        gc.set_threshold(*before)
