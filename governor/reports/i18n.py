"""Words of the report pages in the draft's language (layer 7; issue 14 item 6).

A Chinese draft gets Chinese headings, labels and explanations; an English draft keeps
English. Label codes (``exists``, ``misdescribed`` …) stay in the JSON (SPEC §2); only what a
reader sees is translated. Rationales keep their measures only when asked
(``details=True``): a raw overlap or match number means nothing to a reader of the report.
"""

from __future__ import annotations

import re

from governor.core.labels import stop_phrase
from governor.text.numerals import pin_label

__all__ = ["LABELS", "OPS", "UI", "label", "op_name", "readable", "stop_words", "zh_rationale"]

UI: dict[str, dict[str, str]] = {
    "en": {
        "batch_index": "← batch index",
        "as_of": "as of",
        "strategy": "strategy",
        "judge": "judge",
        "offline": "offline",
        "stopped": "stopped",
        "colon": ": ",
        "trust": "trust",
        "citations": "citations",
        "all_pass": "all-pass",
        "verified_of": "{n} of {m} verified",
        "edits": "edits",
        "yes": "yes",
        "no": "no",
        "draft": "Draft",
        "revised": "Revised",
        "changes": "Changes",
        "draft_as_given": "Draft as given",
        "revised_text": "revised text",
        "no_change": "No change: the revision kept the draft as it was.",
        "round": "Round",
        "trust_after": "trust after",
        "no_edits": "no edits",
        "no_round": "No revision round.",
        "op": "op",
        "before": "before",
        "after": "after",
        "reason": "reason",
        "citation": "citation",
        "taxonomy": "taxonomy",
        "suggestion": "suggestion",
        "excl": "excl.",
        "no_citation": "No citation found in this draft.",
        "placeholder": "Click a highlighted citation to see the provision it resolved to, "
        "its E/F/A labels, rationale and suggestion.",
        "existence": "Existence",
        "fidelity": "Fidelity",
        "applicability": "Applicability",
        "item_trust": "Item trust",
        "excluded_from_trust": "excluded from trust",
        "said": "What the report says it says",
        "claim": "Claim it supports",
        "resolved": "Resolved provision",
        "not_in_store": "not found in the authority store",
        "suggested": "Suggestion",
        "match": "match",
        "version": "version",
        "pass": "pass",
        "partial": "partial",
        "fail": "fail",
        "excluded": "excluded",
        "legend_pass": "E·F·A all pass",
        "legend_partial": "trust between 0 and 1",
        "legend_fail": "trust 0",
        "legend_excluded": "not scored (could not be checked, or the question's own)",
        "not_checked": "Not checked",
        "in_question": "in the question, not scored",
        "schema": "schema",
        "mean_trust": "mean trust",
        "all_pass_after": "all-pass after",
        "drafts": "drafts",
        "governed": "governed",
        "failed": "failed",
        "filter": "filter",
        "filter_hint": "name or path",
        "only_open": "only drafts not all-pass or failed",
        "trust_before": "trust before",
        "trust_final": "trust after",
        "mean_sup": "mean Sup",
        "sup": "Sup before → after",
        "cov": "Cov (draft = reference)",
        "kept_removed": "citations kept / removed",
        "orphan_claims": "claims left without a citation",
        "annotations": "notes",
        "stop": "stopped",
        "failed_row": "failed",
        "run": "citegov revise of {inputs} ({strategy}, {n} drafts)",
    },
    "zh": {
        "batch_index": "← 返回批次目录",
        "as_of": "报告日期",
        "strategy": "策略",
        "judge": "判定",
        "offline": "离线规则",
        "stopped": "结束原因",
        "colon": "：",
        "trust": "可信度",
        "citations": "引用",
        "all_pass": "全部通过",
        "verified_of": "已核验 {n} / {m}",
        "edits": "修改",
        "yes": "是",
        "no": "否",
        "draft": "原稿",
        "revised": "修订稿",
        "changes": "改动对照",
        "draft_as_given": "原稿（未改动）",
        "revised_text": "修订稿",
        "no_change": "未改动：修订保留了原稿。",
        "round": "第{n}轮",
        "trust_after": "本轮后可信度",
        "no_edits": "本轮无修改",
        "no_round": "未进行修订。",
        "op": "操作",
        "before": "原文",
        "after": "改为",
        "reason": "理由",
        "citation": "引用",
        "taxonomy": "错误类型",
        "suggestion": "建议条文",
        "excl": "不计入",
        "no_citation": "本稿未发现法律引用。",
        "placeholder": "点击高亮的引用，查看其对应的条文、存在性/准确性/适用性判定、理由和建议。",
        "existence": "存在性",
        "fidelity": "准确性",
        "applicability": "适用性",
        "item_trust": "单项可信度",
        "excluded_from_trust": "不计入可信度",
        "said": "报告对该条文内容的表述",
        "claim": "该引用所支持的主张",
        "resolved": "对应条文",
        "not_in_store": "权威库中未找到",
        "suggested": "建议",
        "match": "匹配度",
        "version": "版本",
        "pass": "通过",
        "partial": "部分通过",
        "fail": "未通过",
        "excluded": "未计入",
        "legend_pass": "三项均通过",
        "legend_partial": "可信度介于0与1之间",
        "legend_fail": "可信度为0",
        "legend_excluded": "未计分（无法核验，或属于提问中的引用）",
        "not_checked": "未核验",
        "in_question": "位于提问中，不计分",
        "schema": "格式版本",
        "mean_trust": "平均可信度",
        "all_pass_after": "修订后全部通过",
        "drafts": "份文稿",
        "governed": "已处理",
        "failed": "失败",
        "filter": "筛选",
        "filter_hint": "文件名或路径",
        "only_open": "只看未全部通过或失败的文稿",
        "trust_before": "修订前可信度",
        "trust_final": "修订后可信度",
        "mean_sup": "平均支持度",
        "sup": "支持度（修订前→后）",
        "cov": "覆盖度（以原稿为参照）",
        "kept_removed": "保留/删除的引用",
        "orphan_claims": "失去引用的主张",
        "annotations": "注释",
        "stop": "结束原因",
        "failed_row": "失败",
        "run": "{inputs} 的引用核验与修订（策略 {strategy}，{n} 份文稿）",
    },
}
"""Page words by language (``round`` in Chinese takes ``{n}``)."""

LABELS: dict[str, str] = {
    "exists": "存在",
    "partial": "款/项不存在",
    "repealed": "已废止",
    "not_found": "不存在",
    "unverifiable": "无法核验",
    "faithful": "表述准确",
    "partially_faithful": "表述不完整",
    "misdescribed": "表述有误",
    "not_assessed": "未评估",
    "supports": "支持主张",
    "partially_supports": "部分支持",
    "overextended": "超出适用范围",
    "contradicts": "与主张相悖",
    "irrelevant": "与主张无关",
    "skipped": "未评估",
    "unknown": "判定失败",
}
"""Chinese words for the E/F/A label codes (SPEC §3)."""

OPS: dict[str, str] = {
    "remove_citation": "删除引用",
    "renumber": "更正条号",
    "fix_granularity": "更正款/项",
    "restore_proviso": "补回但书",
    "fix_number": "更正数字/期限",
    "replace_repealed": "替换为现行条文",
    "reanchor": "改引更贴切的条文",
    "mark_unsupported": "标注缺乏依据",
    "rewrite_description": "按条文改写表述",
    "mark_stale": "标注已废止",
    "mark_overreach": "标注超出适用范围",
    "mark_misdescribed": "标注表述有误",
    "revert": "撤销修改",
    "llm_rewrite": "模型改写",
    "regenerate": "重新生成",
}
"""Chinese names of the edit operations (:data:`governor.core.models.EditOp`)."""


TAXONOMY_ZH: dict[str, str] = {
    "L1.1.1": "来源虚构（所引依据不存在）",
    "L1.1.2": "引用与内容错配（依据真实，但内容或用法有误）",
    "L1.1.3": "位阶错误（混淆了依据的效力层级、地域或部门）",
    "L1.1.4": "粒度错误（法律和条文正确，款/项有误）",
    "L1.2.2": "要素错误（数字、金额或情态词有误）",
    "L1.2.3": "遗漏例外（漏掉了决定性的但书）",
    "L1.3.2": "期限错误（期间或时效有误）",
    "L2.1.5": "断章取义的引用",
    "STALE": "将已废止或被取代的依据当作现行有效引用",
}
"""Chinese meanings of the taxonomy codes (LexAgentHallu; English in
:data:`verifiers.taxonomy.MEANING`)."""


def op_name(op: str, lang: str) -> str:
    """The reader's name of an edit operation (the code in English pages)."""
    return OPS.get(op, op) if lang == "zh" else op


_MEASURES = re.compile(
    r"""
      [ ]?\((?:match[ ]|overlap[ ]|confidence[ ])?[0-9]\.[0-9]{2}\)       # (0.35) / (match 0.62)
    | ,[ ](?:list[ ])?overlap[ ][0-9]\.[0-9]{2}                         # , overlap 0.04
    | [ ]\((?=rank)[^()]*?,[ ]overlap[ ][0-9]\.[0-9]{2}\)               # (rank 3 in …, overlap 0.4)
    """,
    re.VERBOSE,
)


_T = r"《[^》]+》"
_ZH_RATIONALES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), template)
    for pattern, template in (
        (r"^not judged: no source text available$", "未评估：权威库中没有该条文的文本"),
        (r"^not judged: existence failed$", "未评估：所引条文不存在"),
        (
            rf"^(?P<t>{_T}\S*) exists but was repealed on (?P<d>[0-9-]{{10}}) \((?P<src>[^()]*)\)"
            r"(?:; successor: (?P<succ>.+))?$",
            "{t}已于{d}废止（{src}）{succ}",
        ),
        (
            rf"^(?P<t>{_T}) was repealed on (?P<d>[0-9-]{{10}}) \((?P<src>[^()]*)\)"
            r"(?:; successor: (?P<succ>.+))?$",
            "{t}已于{d}废止（{src}）{succ}",
        ),
        (rf"^(?P<x>{_T}\S*) exists$", "{x}存在"),
        (rf"^(?P<x>{_T}) exists \(no article cited\)$", "{x}存在（未引具体条文）"),
        (
            r"^the description matches (?P<o>.+?) better than the cited provision$",
            "报告的表述与{o}更吻合，而非所引条文",
        ),
        (
            r"^the provision is on topic but not among the best for the claim$",
            "该条文与主题相关，但不是最能支持该主张的条文",
        ),
        (r"^the provision fits the claim$", "该条文支持该主张"),
        (
            r"^the description shares little with the provision's text$",
            "报告的表述与条文内容关联很少",
        ),
        (r"^the provision does not address the claim$", "该条文未涉及该主张"),
        (
            r"^the claim's point 「(?P<x>[^」]+)」 is not in the provision, which is about "
            r"「(?P<y>[^」]+)」; (?P<o>.+?) states it$",
            "该主张的要点「{x}」不在所引条文中，该条文规定的是「{y}」；{o}规定了这一点",
        ),
        (
            r"^the claim's point 「(?P<x>[^」]+)」 is not in the provision, which is about "
            r"「(?P<y>[^」]+)」; (?P<o>.+?) holds its words$",
            "该主张的要点「{x}」不在所引条文中，该条文规定的是「{y}」；{o}含有这些用语",
        ),
        (
            r"^the provision does not support the claim \(the provision does not address the "
            r"claim\); no better one found$",
            "该条文不支持该主张，也未找到更合适的条文",
        ),
        (r"^description consistent with the provision$", "表述与条文一致"),
        (
            r"^the claim states the rule of (?P<o>.+?), not of the cited provision$",
            "该主张陈述的是{o}的规则，而非所引条文",
        ),
        (
            r"^the description is the text of (?P<o>.+?), not of (?P<p>.+)$",
            "报告的表述是{o}的内容，而非{p}",
        ),
        (
            rf"^no instrument named (?P<t>{_T}) in the store \(fabricated or misnamed\)$",
            "权威库中没有名为{t}的文件（可能为虚构或名称有误）",
        ),
        (
            rf"^(?P<t>{_T}) has no (?P<p>\S+) \(the version in force has (?P<n>[0-9]+) articles\)$",
            "{t}没有{p}（现行版本共{n}条）",
        ),
        (
            rf"^(?P<t>{_T}) is foreign law: the store holds PRC law only$",
            "{t}为外国法：权威库仅收录中国法律",
        ),
        (
            rf"^(?P<t>{_T}) is outside the store's coverage \(a local, departmental or technical "
            r"document\)$",
            "{t}不在权威库收录范围内（地方性、部门或技术文件）",
        ),
        (r"^(?P<n>\S+): well-formed 案号, not in the store$", "{n}：案号格式正确，但不在权威库中"),
        (
            r"^the report says (?P<a>[^;]+); the provision says (?P<b>.+)$",
            "报告称「{a}」，条文规定为「{b}」",
        ),
        (r"^the provision says (?P<b>.+?), not (?P<a>.+)$", "条文规定为「{b}」，而非「{a}」"),
        (
            r"^modality flipped: the report says (?P<a>.+?), the provision says (?P<b>.+)$",
            "情态词有误：报告称「{a}」，条文规定为「{b}」",
        ),
        (
            r"^the report says (?P<a>.+?) where the provision says (?P<b>.+?) \((?P<k>[^)]*)\): "
            r"the opposite rule$",
            "报告称「{a}」，而条文规定为「{b}」：规则正好相反",
        ),
        (
            r"^the report states the rule but drops its 但书: 「(?P<p>.+)」$",
            "报告陈述了规则，但遗漏了但书：「{p}」",
        ),
        (
            r"^the report states the rule universally \((?P<u>[^)]*)\) and omits its limit 「(?P<s>.+)」$",
            "报告把规则说成普遍适用（{u}），遗漏了适用范围「{s}」",
        ),
        (
            r"^the report restates 「(?P<c>.+?)」 but omits its condition 「(?P<cond>.+)」$",
            "报告复述了「{c}」，但遗漏了其条件「{cond}」",
        ),
        (r"^the provision's 但书 was omitted: 「(?P<p>.+)」$", "遗漏了条文的但书：「{p}」"),
        (r"^the report states nothing about the provision's content$", "报告未陈述该条文的内容"),
        (r"^the description matches this provision$", "报告的表述与该条文吻合"),
        (r"^the quoted text is in this provision$", "引文出自该条文"),
        (r"^the claim is this provision's rule$", "该主张陈述的正是该条文的规则"),
        (r"^fits the claim better$", "更能支持该主张"),
        (r"^the article is in this lower-rank instrument$", "该条出自这一位阶较低的文件"),
        (rf"^successor provision in (?P<t>{_T})$", "{t}中的后继条文"),
        (
            rf"^the wrong law for the point: no article of (?P<t>{_T})"
            r"(?: \(its 第1条: 「(?P<s>[^」]*)」\))? uses 「(?P<w>[^」]*)」; (?P<o>.+?) holds the "
            r"point better than any article of the cited law$",
            "{t}的条文均未使用「{w}」（其第一条：「{s}」），{o}的规定更符合所述事项",
        ),
    )
)
"""Chinese wording of the most frequent rationales (measured on the bundled example drafts);
a rationale without a pattern here stays in English."""

_ARABIC_PIN = re.compile(
    r"第([0-9]+)条(之[一二三四五六七八九十]+)?(?:第([0-9]+)款)?(?:第([0-9]+)项)?"
)


def _law_pins(text: str) -> str:
    """Pin cites with Arabic numerals (第104条之一第2款) written as the law writes them."""

    def sub(m: re.Match[str]) -> str:
        key = m[1] + (m[2] or "")
        return pin_label(key, int(m[3]) if m[3] else None, int(m[4]) if m[4] else None)

    return _ARABIC_PIN.sub(sub, text)


def _zh_date(iso: str) -> str:
    y, m, d = iso.split("-")
    return f"{int(y)}年{int(m)}月{int(d)}日"


def zh_rationale(text: str) -> str:
    """A rationale (measures already removed) in Chinese when its pattern is known, with pin
    cites written as the law writes them; otherwise the text with only its pins rewritten."""
    for pattern, template in _ZH_RATIONALES:
        m = pattern.match(text)
        if m is None:
            continue
        parts = {k: (v or "") for k, v in m.groupdict().items()}
        if "d" in parts:  # the group named d is always an ISO date
            parts["d"] = _zh_date(parts["d"])
        if parts.get("succ"):
            succ = parts["succ"]
            parts["succ"] = "；后继法：" + (succ if succ.startswith("《") else f"《{succ}》")
        return _law_pins(template.format(**parts))
    return _law_pins(text)


def label(code: str, lang: str) -> str:
    """The reader's word for a label code (the code itself in English)."""
    return LABELS.get(code, code) if lang == "zh" else code.replace("_", " ")


def readable(rationale: str, *, details: bool = False, lang: str = "en") -> str:
    """A rationale for a reader: without its raw measures (``(0.35)``, ``overlap 0.04``)
    unless ``details``; in Chinese pages worded in Chinese where the pattern is known
    (:func:`zh_rationale`)."""
    out = rationale if details else _MEASURES.sub("", rationale)
    return zh_rationale(out) if lang == "zh" else out


def stop_words(reason: str | None, lang: str) -> str:
    """Why the revision stopped, in the page's language (see
    :func:`governor.core.labels.stop_phrase`)."""
    return stop_phrase(reason, lang=lang)
