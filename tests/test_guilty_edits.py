"""``invariants.guilty_edits`` judges each edit on the text around it (its window) and must
find exactly what reading the whole text again finds: an edit that breaks a sentence lines or
paragraphs away is still guilty."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from governor.core.models import Edit, Span
from governor.revision.invariants import counts, guilty_edits
from governor.revision.ops import apply_edits

NOTE = "（注：经核查，该条文并无上述内容，请核实）"


def edit(text: str, start: int, end: int, after: str = "") -> Edit:
    return Edit(
        op="remove_citation",
        span=Span(start=start, end=end),
        before=text[start:end],
        after=after,
        reason="test",
    )


def added(text: str, ed: Edit) -> Counter[str]:
    """What the edit adds, the whole text read again (the definition)."""
    return counts(apply_edits(text, [ed])[0]) - counts(text)


def at(text: str, words: str, after: str = "") -> Edit:
    i = text.index(words)
    return edit(text, i, i + len(words), after)


CASES = [
    pytest.param(
        # the 「该条规定」 six lines down loses the citation it refers to (dangling_ref)
        "根据《民法典》第五百七十七条，当事人应当承担违约责任。\n其次。\n再次。\n又次。\n"
        "此外。\n另外。\n最后，该条规定应当赔偿损失。\n\n另一段。\n",
        "根据《民法典》第五百七十七条，",
        "",
        "dangling_ref",
        id="paragraph",
    ),
    pytest.param(
        # the 法律依据 heading three lines up (a paragraph break between) is left empty
        "法律依据：\n\n\n《民法典》第五百七十七条\n\n后文。\n",
        "《民法典》第五百七十七条",
        "",
        "empty_basis",
        id="heading",
    ),
    pytest.param(
        # a note added at a line's end doubles the note four blank lines down
        f"甲方违约。\n\n\n\n{NOTE}乙方守约。\n",
        "甲方违约。",
        f"甲方违约。{NOTE}",
        "double_note",
        id="blank-lines",
    ),
    pytest.param(
        # a paragraph break put in takes 「该条规定」 away from its citation
        "根据《民法典》第五百七十七条，应当赔偿。\n其次。\n该条规定如此。\n",
        "其次。\n",
        "其次。\n\n",
        "dangling_ref",
        id="split",
    ),
]


@pytest.mark.parametrize(("text", "words", "after", "kind"), CASES)
def test_an_edit_that_breaks_a_sentence_elsewhere_is_guilty(
    text: str, words: str, after: str, kind: str
) -> None:
    ed = at(text, words, after)
    assert kind in added(text, ed)
    harmless = edit(text, len(text), len(text), "附言。")
    assert not added(text, harmless)
    assert guilty_edits(text, [harmless, ed]) == (ed,)


def test_windows_find_what_the_whole_text_finds() -> None:
    """Random edits (line and paragraph breaks, notes, quotations, headings, source verbs put in
    and taken out) over random texts: guilty exactly when the whole text says so."""
    rng = random.Random(38)
    pieces = [
        "\n",
        "\n\n",
        "，",
        "。",
        "：“",
        "”",
        NOTE,
        "法律依据：",
        "该条规定",
        "根据",
        "规定，",
        "《民法典》第一条",
        " ",
        "　",
        "在合同问题上",
        "“甲乙丙丁戊己庚辛壬癸子丑”",
        "\n法律依据：\n",
        "（注：该说法见《民法典》第一条）",
    ]
    chars = "：:。，,；;、！？法\n 根据在上规定该条“”「」《》第条"
    guilty = 0
    for _ in range(300):
        text = "".join(
            rng.choice(pieces) if rng.random() < 0.3 else rng.choice(chars)
            for _ in range(rng.randrange(1, 160))
        )
        edits = []
        for _ in range(rng.randrange(1, 8)):
            s = rng.randrange(len(text) + 1)
            e = min(len(text), s + rng.choice([0, 1, 2, 5, 10, 30]))
            edits.append(edit(text, s, e, rng.choice(["", *pieces])))
        want = tuple(ed for ed in edits if added(text, ed))
        assert guilty_edits(text, edits) == want, text
        guilty += len(want)
    assert guilty > 50  # the random edits do break things
