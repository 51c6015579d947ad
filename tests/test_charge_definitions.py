"""A doctrinal definition of the charge a 刑法 article defines is not judged on word overlap
(dev review 3-8: 「诈骗罪是指…」 under 第二百六十六条 had been noted 「该条文并无上述内容」)."""

from __future__ import annotations

from datetime import date

import pytest

from governor.api import Governor
from governor.authorities import load_default_store
from governor.core.config import load_config

AS_OF = date(2023, 7, 1)
FRAUD = "诈骗罪是指以非法占有为目的，用虚构事实或者隐瞒真相的方法，骗取数额较大的公私财物的行为"


@pytest.fixture(scope="module")
def gov() -> Governor:
    return Governor(load_config(overrides={}, environ={}), store=load_default_store())


@pytest.mark.parametrize(
    ("text", "passes", "fidelity"),
    [
        # the article that defines 诈骗罪: the textbook definition is not its text, and is no flag
        (f"根据《中华人民共和国刑法》第266条，{FRAUD}。", True, "not_assessed"),
        (f"{FRAUD}（《中华人民共和国刑法》第266条）。", True, "not_assessed"),
        # 第二百六十四条 defines 盗窃罪: the same definition under it is still wrong
        (f"根据《中华人民共和国刑法》第264条，{FRAUD}。", False, "misdescribed"),
    ],
)
def test_definition_of_the_articles_own_charge(
    gov: Governor, text: str, passes: bool, fidelity: str
) -> None:
    (v,) = gov.verify(text, as_of=AS_OF)
    assert v.citation.assertion is not None and v.citation.assertion.role == "definition"
    assert v.fidelity.label == fidelity, v.fidelity.rationale
    assert v.passes is passes
