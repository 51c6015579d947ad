"""Existence of instruments the store lacks (issue 24 items 4-6): the horizon, covered kinds,
names as reports write them.

The horizon rows run on a small store built from a temporary corpus with a stated horizon, so
they hold whatever the bundled store's horizon becomes; the covered-kind rows use fabricated
names that no update of the store will add, at an as-of date within any horizon.
"""

from __future__ import annotations

import csv
from datetime import date
from pathlib import Path

import pytest

from governor.api import Governor
from governor.authorities import AuthorityStore, load_default_store
from governor.authorities.build import build_payload
from governor.citations.extract import extract
from governor.core.gaps import coverage_gaps, gap_line
from verifiers.existence import check_existence

WITHIN = date(2024, 6, 1)
"""An as-of date inside the bundled store's horizon (before and after its update)."""

COLUMNS = (
    "path,folder,level,title,subtitle,db_name,publish,valid_from,expired_flag,"
    "versions_in_corpus,latest_in_corpus,articles,has_info_end,bytes,sha1"
).split(",")
LDJS2 = "最高人民法院关于审理劳动争议案件适用法律问题的解释（二）"
"""法释〔2025〕12号, in force 2025-09-01: after the small store's horizon."""


def _doc(title: str, meta: str, body: str) -> str:
    return f"# {title}\n\n{meta}\n\n<!-- INFO END -->\n\n{body}"


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> AuthorityStore:
    """A store of two instruments whose horizon is 2025-04-19."""
    root = tmp_path_factory.mktemp("cn_laws")
    rows = [
        ("社会法/甲法(2020-01-01).md", "法律", "2020-01-01",
         _doc("中华人民共和国甲法", "2020年1月1日 施行", "第一条 甲。\n\n第二条 乙。\n")),
        ("司法解释/甲解释(2021-01-01).md", "司法解释", "2021-01-01",
         _doc("最高人民法院关于审理劳动争议案件适用法律问题的解释（一）", "2021年1月1日 施行",
              "第一条 丙。\n")),
    ]  # fmt: skip
    with (root / "manifest.csv").open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, COLUMNS)
        w.writeheader()
        for path, level, publish, text in rows:
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text, encoding="utf-8")
            w.writerow(
                dict.fromkeys(COLUMNS, "")
                | {
                    "path": path,
                    "folder": path.split("/")[0],
                    "level": level,
                    "title": text.splitlines()[0].lstrip("# "),
                    "publish": publish,
                    "expired_flag": "0",
                    "latest_in_corpus": "1",
                }
            )
    return AuthorityStore({**build_payload(root), "horizon": "2025-04-19"})


@pytest.fixture(scope="module")
def store() -> AuthorityStore:
    return load_default_store()


def _one(text: str, store: AuthorityStore, as_of: date) -> tuple[str, str | None, str]:
    """Existence of the last pin cite (or 文号) in ``text``."""
    cits = [c for c in extract(text, store) if c.article is not None or c.kind != "statute"]
    assert cits and len(cits) <= 2, [c.raw for c in cits]
    ex = check_existence(cits[-1], store, as_of=as_of)
    return ex.result.label, ex.gap, ex.result.rationale


def test_horizon_stated_and_fallback(small: AuthorityStore, store: AuthorityStore) -> None:
    assert small.horizon == date(2025, 4, 19)
    payload = dict(small._payload)
    payload.pop("horizon")
    # without a stated horizon: the newest publication date of any stored version
    assert AuthorityStore(payload).horizon == date(2021, 1, 1)
    assert store.horizon >= date(2025, 4, 5)


@pytest.mark.parametrize(
    "text,as_of,label,gap,says",
    [
        # 法释〔2025〕12号, in force 2025-09-01, cited in a report of today: made after the
        # horizon, so not "fabricated or misnamed"
        (f"依据《{LDJS2}》第一条，", date(2026, 2, 1), "unverifiable", "after_horizon", "2025-04-19"),
        # the same name in a report dated within the horizon, but the citation dates it 2025
        (f"依据《{LDJS2}》（法释〔2025〕12号）第一条，", date(2025, 3, 1), "unverifiable",
         "after_horizon", "2025"),
        # within the horizon and nothing dates it later: a fabricated interpretation
        (f"依据《{LDJS2}》第一条，", date(2024, 6, 1), "not_found", None, "fabricated"),
        ("依据《中华人民共和国乙法》第三条，", date(2024, 6, 1), "not_found", None, "fabricated"),
        ("依据《中华人民共和国乙法》第三条，", date(2025, 12, 1), "unverifiable", "after_horizon",
         "dated 2025-12-01"),
        # a document number of the horizon's year the store does not list
        ("见法释〔2025〕12号。", date(2025, 12, 1), "unverifiable", "after_horizon", "2025-04-19"),
        ("见法释〔2019〕12号。", date(2025, 12, 1), "unverifiable", "record_not_in_store", ""),
        # the stored texts stay checkable after the horizon
        ("依据《甲法》第二条，", date(2026, 2, 1), "exists", None, ""),
    ],
)  # fmt: skip
def test_horizon_rows(
    small: AuthorityStore, text: str, as_of: date, label: str, gap: str | None, says: str
) -> None:
    got_label, got_gap, why = _one(text, small, as_of)
    assert (got_label, got_gap) == (label, gap), why
    assert says in why


def test_after_horizon_gap_line_is_loud() -> None:
    gaps = coverage_gaps((), as_of=date(2026, 2, 1), horizon=date(2025, 4, 19))
    # An empty draft also gets ``no_citations`` (nothing checked is not a pass).
    assert [(g.kind, g.n, g.loud) for g in gaps if g.kind != "no_citations"] == [
        ("after_horizon", 0, True)
    ]
    line = gap_line(gaps)
    assert "law made after 2025-04-19 is not in the store" in line and "2026-02-01" in line
    assert "2025-04-19之后" in gap_line(gaps, lang="zh")
    within = coverage_gaps((), as_of=date(2025, 4, 19), horizon=date(2025, 4, 19))
    assert [g.kind for g in within] == ["no_citations"]


def test_report_after_horizon_names_it(store: AuthorityStore) -> None:
    from governor.reports.json_report import build_report

    gov = Governor(store=store)
    text = "被告应当承担违约责任（《民法典》第五百七十七条）。"
    after = store.horizon.replace(year=store.horizon.year + 1)
    vs = gov.verify(text, as_of=after)
    report = build_report(
        text, as_of=after, strategy="none", judge="offline", initial=vs, horizon=store.horizon
    )
    assert [g.kind for g in report.gaps] == ["after_horizon"]
    assert f"law made after {store.horizon.isoformat()}" in report.gaps[0].message
    within = build_report(
        text, as_of=WITHIN, strategy="none", judge="offline", initial=vs, horizon=store.horizon
    )
    assert within.gaps == ()


@pytest.mark.parametrize(
    "text,label,says",
    [
        # issue 24 item 5: fabricated national instruments that passed as "outside the store"
        ("依据《最高人民法院关于审理建设工程合同纠纷案件的暂行意见》第五条，", "not_found",
         "最高人民法院关于审理建设工程施工合同纠纷案件适用法律问题的解释"),
        ("依据《社会保险费追缴办法》第三条，", "not_found", "fabricated"),
        ("依据《劳务派遣实施规定》第三条，", "not_found", "fabricated"),
        ("依据《居民身份证法实施细则》第三条，", "not_found", "fabricated"),
        ("依据《中华人民共和国基本医疗保险管理办法》第三条，", "not_found", "fabricated"),
        ("依据《城市保障性住房条例》第三条，", "not_found", "fabricated"),
        ("根据《中华人民共和国合同保护法》第十条规定，合同无效。", "not_found", "fabricated"),
        # 《条例》 after a 办法 (LawBench 3-2 reference answer 338): which 条例 is not said
        ("根据《集成电路布图设计行政执法办法》第二条和《条例》第三十一条所规定", "unverifiable",
         "names only a kind"),
        # kinds the store does not cover stay outside it; real documents JuDGE judgments cite
        ("依据《最高人民法院关于处理自首和立功若干具体问题的意见》第二条，", "unverifiable",
         "outside the store"),
        # a real 1993 SPC 意见 (repealed 2021) on a case type no stored interpretation covers
        ("依据《最高人民法院关于人民法院审理离婚案件处理子女抚养问题的若干具体意见》第三条，",
         "unverifiable", "outside the store"),
        ("依据《最高人民法院、最高人民检察院、公安部关于办理醉酒驾驶机动车刑事案件适用法律若干问题的意见》"
         "第二条，", "unverifiable", "outside the store"),
        ("依据《上海市居住证管理办法》第十条，", "unverifiable", "outside the store"),
        ("依据《学生伤害事故处理办法》第九条，", "unverifiable", "outside the store"),
        ("依据《最高人民法院关于当前形势下审理民商事合同纠纷案件若干问题的指导意见》第三条，",
         "unverifiable", "outside the store"),
        ("依据《中华人民共和国海关关于个人邮递物品进出境监管的规定》第三条，", "unverifiable",
         "outside the store"),
        # a Party regulation (党内法规) is real but not state law (dev 3-8 chatglm2 353: it
        # was removed as 「原引条文经核查不存在」)
        ("根据《中国共产党纪律处分条例》第十二条，", "unverifiable", "Party regulation"),
        ("依据《中共中央关于全面推进依法治国若干重大问题的决定》第三条，", "unverifiable",
         "Party regulation"),
    ],
)  # fmt: skip
def test_covered_kinds_are_not_outside(
    store: AuthorityStore, text: str, label: str, says: str
) -> None:
    got, _gap, why = _one(text, store, WITHIN)
    assert got == label, why
    assert says in why


@pytest.mark.parametrize(
    "text,instrument,article",
    [
        # issue 24 item 6: names as reports write them
        ("《中华人民共和国政府信息公开条例》（以下简称《公开条例》）。《公开条例》第十三条规定。",
         "中华人民共和国政府信息公开条例", "13"),
        ("根据《工伤保险条例》第十四条认定工伤后，依据《条例》第十五条视同工伤。",
         "工伤保险条例", "15"),
        ("《最高人民法院关于审理人身损害赔偿案件具体应用法律若干问题的解释》第十七条",
         "最高人民法院关于审理人身损害赔偿案件适用法律若干问题的解释", "17"),
    ],
)  # fmt: skip
def test_names_as_written_exist(
    store: AuthorityStore, text: str, instrument: str, article: str
) -> None:
    cits = [c for c in extract(text, store) if c.article == article]
    assert len(cits) == 1
    ex = check_existence(cits[0], store, as_of=WITHIN)
    assert cits[0].instrument == instrument
    assert ex.result.label == "exists", ex.result.rationale


@pytest.mark.parametrize(
    "text,label",
    [
        # a stored law's name with words added or dropped is a misnaming, not law made after
        # the horizon: not_found even in a report dated after it
        ("依据《社会法就业促进法》第三条，", "not_found"),
        ("依据《会计师法》第三条，", "not_found"),
        # a branch of law (法律部门) is no instrument, old or new
        ("依据《中华人民共和国社会法》第三条，", "not_found"),
        ("依据《民法商法》第十条，", "not_found"),
        ("依据《中华人民共和国诉讼与非诉讼程序法》第五条，", "not_found"),
        # a name that matches no stored law may be a new one
        ("依据《中华人民共和国户籍法》第三条，", "unverifiable"),
    ],
)
def test_after_horizon_misnamed_law(store: AuthorityStore, text: str, label: str) -> None:
    later = store.horizon.replace(year=store.horizon.year + 1)
    got, gap, why = _one(text, store, later)
    assert got == label, why
    assert gap == (None if label == "not_found" else "after_horizon")


def test_cli_verify_after_horizon_is_loud_but_passes_fail_on(
    tmp_path: Path, store: AuthorityStore
) -> None:
    from typer.testing import CliRunner

    from governor.cli.app import app

    brief = tmp_path / "brief.md"
    brief.write_text("被告应当承担违约责任（《民法典》第五百七十七条）。\n", encoding="utf-8")
    later = store.horizon.replace(year=store.horizon.year + 1).isoformat()
    res = CliRunner().invoke(
        app,
        ["verify", str(brief), "--as-of", later, "--fail-on", "0.5"],
        env={"CITEGOV_CONFIG": "", "NO_COLOR": "1", "COLUMNS": "200"},
    )
    out = " ".join(res.output.split())
    assert f"law made after {store.horizon.isoformat()} is not in the store" in out, out
    assert res.exit_code == 0, out  # the citation itself was checked: no gap with n > 0
