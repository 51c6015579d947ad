"""An amending act is never a suggested provision: its articles are instructions merged into the
consolidated law a lawyer cites (fresh reviews 39 and 42: 《宪法修正案（2018年）》第五十一条 named
「可能应为」 for a 城乡规划法 citation, dev 3-2 item 454 of all three models, judged harmful — the
rule is 宪法第一百零七条 as amended). ``governor.text.regexes.AMENDING_ACT_TITLE_RE``,
``verifiers.suggest.citable``."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from governor.api import Governor
from governor.authorities import ArticleRecord
from governor.authorities.store import load_default_store
from governor.core.config import Config
from verifiers.suggest import amending_act, store_candidates

AS_OF = date(2023, 7, 1)
QUESTION = (
    "某县城规划局正在进行一次土地利用规划会议，讨论未来城市发展方向以及如何合理分配土地资源。"
    "根据哪条法律，县级以上地方各级人民政府有权限管理本行政区域内的城乡建设事业？"
)
DRAFT = (
    f"问题：{QUESTION}\n\n"
    "根据中华人民共和国城乡规划法第三条的规定，县级以上地方各级人民政府有权限管理本行政区域内的城乡建设事业。\n"
)


@pytest.mark.parametrize(
    ("title", "amending"),
    [
        ("中华人民共和国刑法修正案", True),
        ("中华人民共和国刑法修正案（十一）", True),
        ("中华人民共和国宪法修正案（2018年）", True),
        ("国务院关于修改和废止部分行政法规的决定", True),
        ("最高人民法院关于修改《关于上海金融法院案件管辖的规定》的决定", True),
        ("中华人民共和国宪法", False),
        ("中华人民共和国刑法", False),
        ("最高人民法院关于《中华人民共和国刑法修正案（九）》时间效力问题的解释", False),
        ("最高人民法院关于修改后的民事诉讼法施行时未结案件适用法律若干问题的规定", False),
        ("最高人民法院关于商标法修改决定施行后商标案件管辖和法律适用问题的解释", False),
    ],
)
def test_amending_act_titles(title: str, amending: bool) -> None:
    assert amending_act(title) is amending


class _Fixed:
    """A retriever that returns fixed store-wide hits, best first."""

    def __init__(self, hits: list[tuple[ArticleRecord, float]]) -> None:
        self.hits = hits

    def search(
        self, query: str, *, instrument: str | None = None, as_of: date | None = None, k: int = 10
    ) -> list[tuple[ArticleRecord, float]]:
        return self.hits[:k]


@pytest.fixture(scope="module")
def store() -> Any:
    return load_default_store()


def test_store_candidates_leave_out_amending_acts(store: Any) -> None:
    amendment = store.article("中华人民共和国宪法修正案（2018年）", "51", as_of=AS_OF)
    base = store.article("中华人民共和国宪法", "107", as_of=AS_OF)
    assert amendment is not None and base is not None
    hits = store_candidates(_Fixed([(amendment, 2.0), (base, 1.0)]), store, QUESTION, as_of=AS_OF)
    assert [r.instrument for r, _ in hits] == ["中华人民共和国宪法"]


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(Config())


def test_no_amending_act_named_in_the_governed_text(gov: Governor) -> None:
    out = gov.govern(DRAFT, strategy="efa", as_of=AS_OF)
    assert "修正案" not in out.text, out.text
    for v in (*out.initial_verdicts, *out.final_verdicts):
        if v.suggestion is not None:
            assert not amending_act(v.suggestion.authority.instrument), v.suggestion
