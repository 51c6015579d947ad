"""Parsing one LawRefBook markdown file (cn_laws/SOURCE.md "File format" and "Quirks")."""

from __future__ import annotations

from datetime import date

import pytest

from governor.authorities.parse import (
    clean_heading,
    heading_rank,
    normalise_docno,
    parse_markdown,
)

HEADER = "# 中华人民共和国测试法\n\n2020年5月28日 第十三届全国人民代表大会第三次会议通过\n\n<!-- INFO END -->\n\n"


def arts(text: str) -> dict[str, list[tuple[str, list[str]]]]:
    return {a.key: a.paragraphs for a in parse_markdown(HEADER + text).articles}


@pytest.mark.parametrize(
    "body,expected",
    [
        # two 款: every later paragraph line is a new 款
        (
            "第十八条 成年人为完全民事行为能力人。\n\n十六周岁以上的未成年人，视为完全民事行为能力人。\n",
            {
                "18": [
                    ("成年人为完全民事行为能力人。", []),
                    ("十六周岁以上的未成年人，视为完全民事行为能力人。", []),
                ]
            },
        ),
        # 项 attach to the 款 before them; a line after the items is a new 款
        (
            "第三十三条 主刑的种类如下：\n\n（一）管制；\n\n（二）拘役。\n\n前款规定适用于本法。\n",
            {"33": [("主刑的种类如下：", ["管制；", "拘役。"]), ("前款规定适用于本法。", [])]},
        ),
        # 之一 article
        (
            "第十七条之一 已满七十五周岁的人故意犯罪的，可以从轻。\n",
            {"17之一": [("已满七十五周岁的人故意犯罪的，可以从轻。", [])]},
        ),
        # misplaced space (刑事诉讼法 2018): 第一百二十八 条侦查人员…
        (
            "第一百二十八 条侦查人员对于与犯罪有关的场所应当勘验。\n",
            {"128": [("侦查人员对于与犯罪有关的场所应当勘验。", [])]},
        ),
        # typo 笫 (农民专业合作社法 2017)
        ("笫五十四条 清算组成员应当忠于职守。\n", {"54": [("清算组成员应当忠于职守。", [])]}),
        # full-width space after the marker, zero-width-space lines and comment lines ignored
        (
            "第一条\u3000为了规范。\n\n\u200b\n\n<!-- FORCE BREAK -->\n\n第二条 其次。\n",
            {"1": [("为了规范。", [])], "2": [("其次。", [])]},
        ),
        # an article that opens with an item
        ("第五条\n\n（一）甲；\n\n（二）乙。\n", {"5": [("", ["甲；", "乙。"])]}),
        # ASCII brackets in an item are tolerated
        ("第六条 如下：\n\n(一)甲；\n", {"6": [("如下：", ["甲；"])]}),
    ],
)
def test_articles_paragraphs_items(
    body: str, expected: dict[str, list[tuple[str, list[str]]]]
) -> None:
    assert arts(body) == expected


def test_headings_ranked_by_text_not_hash_count() -> None:
    text = (
        HEADER
        + "## 第一编 总则\n\n#### 第一章　总　则\n\n第一条 甲。\n\n## 第二节 乙节\n\n第二条 乙。\n\n"
        + "### 第二章 分则\n\n第三条 丙。\n"
    )
    pf = parse_markdown(text)
    paths = {a.key: a.path for a in pf.articles}
    assert paths["1"] == ("第一编 总则", "第一章 总则")
    assert paths["2"] == ("第一编 总则", "第一章 总则", "第二节 乙节")
    assert paths["3"] == ("第一编 总则", "第二章 分则")


@pytest.mark.parametrize(
    "heading,rank",
    [
        ("第一编 总则", 0),
        ("第一分编 通则", 1),
        ("第八章 违约责任", 2),
        ("一、一般规定", 2),
        ("第三节 婚姻", 3),
        ("（一）管辖", 3),
        ("附则", 2),
    ],
)
def test_heading_rank(heading: str, rank: int) -> None:
    assert heading_rank(heading) == rank


@pytest.mark.parametrize(
    "raw,clean",
    [
        ("第一章　总　则", "第一章 总则"),
        ("第一章  基本规定", "第一章 基本规定"),
        ("第三分编 准 合 同", "第三分编 准合同"),
        ("一、 一般规定", "一、一般规定"),
        ("基本案情", "基本案情"),
    ],
)
def test_clean_heading(raw: str, clean: str) -> None:
    assert clean_heading(raw) == clean


def test_metadata_events_in_force_and_subtitle() -> None:
    pf = parse_markdown(
        "# 中华人民共和国民法典\n\n# 合同编\n\n2020年5月28日 第十三届全国人民代表大会第三次会议通过\n\n"
        "2021年1月1日 施行\n\n<!-- INFO END -->\n\n第四百六十三条 本编调整。\n"
    )
    assert pf.title == "中华人民共和国民法典"
    assert pf.subtitle == "合同编"
    assert pf.events[0] == (date(2020, 5, 28), "第十三届全国人民代表大会第三次会议通过")
    assert pf.in_force == date(2021, 1, 1)


def test_metadata_spill_across_info_end() -> None:
    # 新民间借贷司法解释适用范围问题的批复: the passage note continues after INFO END
    pf = parse_markdown(
        "# 最高人民法院关于某问题的批复\n\n2020年11月9日 最高人民法院审判委员会\n\n<!-- INFO END -->\n\n"
        "第1815次会议通过，自2021年1月1日起施行）\n\n广东省高级人民法院：\n\n一、关于适用范围问题。\n"
    )
    assert pf.in_force == date(2021, 1, 1)
    assert pf.articles == []
    assert pf.body.startswith("广东省高级人民法院：")
    assert "1815" not in pf.body


def test_wrapped_metadata_and_document_number_lines() -> None:
    pf = parse_markdown(
        "# 工资支付暂行规定\n\n1994年12月6日 劳动部\n\n关于印发《工资支付暂行规定》的通知\n\n劳部发〔1994〕489号\n\n"
        "<!-- INFO END -->\n\n第一条 为维护劳动者权利。\n"
    )
    assert pf.docnos == ["劳部发〔1994〕489号"]
    assert pf.events == [(date(1994, 12, 6), "劳动部关于印发《工资支付暂行规定》的通知")]


def test_body_in_force_clause_and_docno_near_top() -> None:
    pf = parse_markdown(
        "# 最高人民法院关于某解释\n\n2023年12月4日 通过\n\n<!-- INFO END -->\n\n法释〔2023〕13号\n\n"
        "第一条 甲。\n\n第二条 本解释自2023年12月5日起施行。\n"
    )
    assert pf.docnos == ["法释〔2023〕13号"]
    assert pf.body_in_force == date(2023, 12, 5)
    assert [a.key for a in pf.articles] == ["1", "2"]


def test_file_without_articles_keeps_body() -> None:
    pf = parse_markdown(
        HEADER
        + "一、将刑法第十七条修改为：\n\n“第十七条 已满十六周岁的人犯罪，应当负刑事责任。”\n\n| 刑法条文 | 罪名 |\n"
    )
    assert pf.articles == []
    assert "将刑法第十七条修改为" in pf.body and "| 刑法条文 | 罪名 |" in pf.body


def test_appendix_after_the_last_article_is_not_article_text() -> None:
    got = arts(
        "第一百六十条 香港原有法律予以保留。\n\n附件一：行政长官的产生办法\n\n一、行政长官由选举委员会选出。\n"
    )
    assert got == {"160": [("香港原有法律予以保留。", [])]}
    # a paragraph that merely starts with 附件 is article text
    assert arts("第九条 甲。\n\n附件所列的物品，由海关依法处理。\n")["9"][1][0].startswith(
        "附件所列"
    )


def test_repeated_article_key_keeps_first() -> None:
    pf = parse_markdown(HEADER + "第一条 甲。\n\n第一条 乙。\n")
    assert [(a.key, a.paragraphs[0][0]) for a in pf.articles] == [("1", "甲。")]
    assert pf.duplicate_keys == ["1"]


def test_not_a_title_line_raises() -> None:
    with pytest.raises(ValueError, match="title"):
        parse_markdown("第一条 甲。\n")


@pytest.mark.parametrize(
    "raw,norm",
    [
        ("法释〔2020〕17号", "法释〔2020〕17号"),
        ("法释[2020]17号", "法释〔2020〕17号"),
        ("法释（2020）17号", "法释〔2020〕17号"),
        ("法释［2020］第17号", "法释〔2020〕17号"),
        ("法释〔2020〕017号", "法释〔2020〕17号"),
        ("高检发释字〔2025〕1号", "高检发释字〔2025〕1号"),
        ("不是文号", "不是文号"),
    ],
)
def test_normalise_docno(raw: str, norm: str) -> None:
    assert normalise_docno(raw) == norm
