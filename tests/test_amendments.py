"""Articles whose stored text is a later amendment's (SOURCE.md: 刑法.md includes 修正案（十二）)."""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.authorities import load_default_store
from governor.authorities.amendments import amendment_dates, mark_later_amendments

ACT = (
    "一、在刑法第一百六十五条中增加一款作为第二款，将该条修改为：……\n"
    "五、将刑法第三百九十条修改为：……\n"
    "六、在刑法第一百三十三条之一后增加一条，作为第一百三十三条之二：……\n"
    "八、本修正案自2024年3月1日起施行。"
)


def test_an_amending_act_names_its_articles_and_date() -> None:
    when, keys = amendment_dates(ACT)
    assert when == date(2024, 3, 1)
    assert keys == {"165", "390", "133之一", "133之二"}


def _inst(path: str, start: str, keys: list[str]) -> dict[str, object]:
    return {
        "versions": [
            {"version": start, "in_force_from": start, "source_path": path, "body": "",
             "articles": [[k, 0, []] for k in keys]}
        ]
    }  # fmt: skip


def test_only_undated_consolidated_files_are_marked() -> None:
    act = {"versions": [{"version": "2023-12-29", "in_force_from": "2024-03-01",
                         "source_path": "刑法/刑法修正案（十二）(2023-12-29).md", "body": ACT,
                         "articles": []}]}  # fmt: skip
    undated = {
        "中华人民共和国刑法": _inst("刑法/刑法.md", "2021-03-01", ["165", "264", "390"]),
        "中华人民共和国刑法修正案（十二）": act,
    }
    assert mark_later_amendments(undated) == 2  # type: ignore[arg-type]
    v = undated["中华人民共和国刑法"]["versions"][0]  # type: ignore[index]
    assert v["text_from"] == {"165": "2024-03-01", "390": "2024-03-01"}
    dated = {
        "中华人民共和国刑法": _inst("刑法/刑法(2020-12-26).md", "2021-03-01", ["390"]),
        "中华人民共和国刑法修正案（十二）": act,
    }
    assert mark_later_amendments(dated) == 0  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(store=load_default_store())


def test_a_report_dated_before_the_amendment_is_judged_on_the_text_of_its_date(
    gov: Governor,
) -> None:
    """The 2024 wording of 第三百九十条第二款 in a 2022 report: judged against the 2015 wording
    of the version in force that day (rebuilt from 修正案（九）), which it does not match; the
    same words in a 2024 report are faithful (issue 24: versions from the 修正案)."""
    text = "刑法第三百九十条第二款规定，为谋取职务、职级晋升、调整行贿的，从重处罚。"
    (before,) = gov.verify(text, as_of=date(2022, 5, 1))
    assert before.existence.label == "exists" and before.fidelity.label == "misdescribed"
    assert "2023-12-29" in before.fidelity.rationale  # the words of a later version
    (after,) = gov.verify(text, as_of=date(2024, 6, 1))
    assert after.fidelity.label == "faithful"
    (old,) = gov.verify(text, as_of=date(2010, 5, 1))
    assert old.fidelity.label == "not_assessed"  # the 1997-2015 wording is in no corpus text
    assert "2015-11-01" in old.fidelity.rationale
    (other,) = gov.verify(
        "《刑法》第二百六十四条规定，盗窃公私财物，数额较大的，处三年以下有期徒刑、拘役或者管制，"
        "并处或者单处罚金。",
        as_of=date(2022, 5, 1),
    )
    assert other.fidelity.label == "faithful"  # an article the amendment did not touch
