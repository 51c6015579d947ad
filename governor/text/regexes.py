"""Every citation regex of citegov, built from small named pieces (layer 0, STYLE 3).

Layout follows eyecite's ``regexes.py``: small string pieces first (numerals, gaps, brackets),
then the pieces of a PRC pin cite (条 / 款 / 项 and list/range separators), then titles, then
the compiled patterns used by :mod:`governor.citations.cn`, :mod:`governor.citations.claims` and
:mod:`governor.citations.us`. Compiled patterns use ``re.VERBOSE``; in verbose mode whitespace in
the pattern is ignored, so literal spaces are always written as classes.

Sources of the grammar:

* article/paragraph/item numbering: 《立法技术规范（试行）（一）》(全国人大常委会法工委, 2009),
  items 10-15: 条 numbered 第一条…, 款 unnumbered (cited 第二款), 项 written （一）(二)…
  and cited 第（一）项 / 第一项; 之一 articles inserted by amendment (刑法第一百三十三条之一);
* 案号: 《最高人民法院关于人民法院案件案号的若干规定》(法〔2015〕137号, in force
  2016-01-01) and its 《案件类型代字标准》; older 字第 forms from ../shared/data/cn_cases/SOURCE.md;
* 文号: 《党政机关公文格式》(GB/T 9704-2012) §7.2.4: 发文机关代字 + 〔年份〕 + 发文顺序号;
* 指导案例 / 检例: 《最高人民法院关于案例指导工作的规定》(2010) and the SPP's 检例第N号 series.
"""

from __future__ import annotations

import re

from governor.text import recache

# --- basic pieces --------------------------------------------------------------------------

ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"
"""Zero-width characters that may hide inside a title or pin cite; ignored when matching."""

_INLINE_SPACE = r"(?:[^\S\n]|[\u200b-\u200d\u2060]|\ufeff)"
"""One inline whitespace char (space, tab, U+3000, NBSP…) or zero-width char
(:data:`ZERO_WIDTH`); not a newline. The zero-width set is written as a two-run class and a
literal, not as one class: ``re`` turns a class of three runs above U+00FF into a 64 K
bitmap, and :data:`GAP` puts this piece 704 times into :data:`CN_ANCHOR_RE` (its compile
took 0.115 s of each cold start, now 0.063 s). The three alternatives stay one branch (the
first is negated, so ``re`` does not merge them back into one class); the same characters
match (a test compares every code point with the one-class form built from ZERO_WIDTH)."""

GAP = rf"(?:{_INLINE_SPACE}*(?:\n{_INLINE_SPACE}*)?)"
"""Optional whitespace between two tokens of one citation: inline space and at most one line
break (a citation may be wrapped, but a blank line ends it)."""

NUMERAL = r"[0-9０-９零〇○一二两三四五六七八九十百千]+"
"""Article/paragraph numeral: Chinese, Arabic, full-width or mixed (五十4). ○ (U+25CB) is a
common typing substitute for 〇."""

SMALL_NUMERAL = r"(?:[一二三四五六七八九十]{1,3}|[0-9０-９]{1,2})"
"""项 number inside brackets: （一）…（二十九） or (1)…(99); never a 4-digit year."""

_SUFFIX_NUMERAL = r"(?:[一二三四五六七八九十]+|[0-9０-９]{1,2}(?![0-9０-９]))"
"""之一/之二 suffix of an inserted article (刑法第一百三十三条之一), also in digits as the
article's number may be (第133条之1, 第２０５条之一)."""

CJK = r"\u4e00-\u9fff"
"""CJK unified ideographs (for use inside a character class)."""

TRADITIONAL_TO_SIMPLIFIED = str.maketrans(
    "華國與關於條規務權護衛醫療險劃審職業勞動會員單環產稅證據訟訴體實際準則種輸運適費發電網絡廣鐵貨幣銀們軍選舉憲黨團農資讓質"
    "監項親屬婦兒處罰違責義償債擔繼贈買賣徵購標價稱許總辦機構專災難緊時間為當應對經營銷區縣鄉鎮興設計畫報導約協議",
    "华国与关于条规务权护卫医疗险划审职业劳动会员单环产税证据讼诉体实际准则种输运适费发电网络广铁货币银们军选举宪党团农资让质"
    "监项亲属妇儿处罚违责义偿债担继赠买卖征购标价称许总办机构专灾难紧时间为当应对经营销区县乡镇兴设计画报导约协议",
)
"""Traditional → simplified for characters common in PRC instrument titles; titles written in
traditional characters (《中華人民共和國教育法》, seen in LawBench answers) are folded before
lookup. Spans and ``raw`` keep the text as written."""

# --- pin cite pieces (条 / 款 / 项) ----------------------------------------------------------

_NOT_MEASURE_WORD = r"(?![腿路鱼狗命河街线船件例子心道缝])"
"""条 is also a measure word: 第一条腿, 第二条路, 第一条件. Those never continue a citation."""

ARTICLE = rf"""
    第 {GAP} {NUMERAL} {GAP} [条條] {_NOT_MEASURE_WORD}  # 第五百七十七条 / 第 39 条 / 第二十七條
    (?: {GAP} 之 {GAP} {_SUFFIX_NUMERAL} )?              # 之一 (inserted article)
"""

PARAGRAPH = rf"""
    第 {GAP} (?: {NUMERAL} (?: {GAP} 、 {GAP} {NUMERAL} )*              # 第一、三款 (two 款)
               | [（(] {GAP} {NUMERAL} {GAP} [)）] ) {GAP} 款   # 第二款 / 第2款 / 第（二）款
"""

BARE_PARAGRAPH = r"(?:[一二三四五六七八九十]{1,2}款)"
"""A 款 written without 第 right after its article or after 、 in a 款 list: 「第六十七条三款」,
「第三百四十七条一款、四款、七款」 (JuDGE judgments). Small numerals only (never 两款, 「the two
款」)."""

_SHARED_TIAO_RUN = rf"""
    {NUMERAL} (?: {GAP} [、至到] {GAP} (?: 第 {GAP} )? {NUMERAL} )+ {GAP} [条條] {_NOT_MEASURE_WORD}
    (?! [文款件例] ) (?: {GAP} 之 {GAP} {_SUFFIX_NUMERAL} )?
"""
"""Article numbers that share one 条: 「第五十二、五十三条」 (articles 52 and 53), 「第264、52、53
条」, 「第二百六十四、第五十二条」, a range 「第一千零六十二至一千零六十五条」."""

SHARED_TIAO = rf"第 {GAP} {_SHARED_TIAO_RUN}"
"""A :data:`_SHARED_TIAO_RUN` opening with 第: a chain head or a member after a separator."""

_TIAO_DROPPED = rf"第 {GAP} {NUMERAL} (?= {GAP} 第 {GAP} {NUMERAL} {GAP} 款 )"
"""A chain member whose 条 is dropped before its 款: 「第五十三条、第七十二第一款、第三款」 (a
JuDGE judgment granting 缓刑: 第七十二条第一款). Only as a member after a separator."""

ITEM = rf"""
    (?:
        第 {GAP} [（(] {GAP} {NUMERAL} {GAP} [)）] (?! {GAP} 款 ) (?: {GAP} [项項] )?   # 第（二）项 / 第(2)项 / 第(二)
      | 第 {GAP} [〔［\[【] {GAP} {NUMERAL} {GAP} [〕］\]】] {GAP} [项項]     # 第〔二〕项 / 第[2]项 / 第【二】项
      | 第 {GAP} {NUMERAL} (?: {GAP} 、 {GAP} {NUMERAL} )* {GAP} [项項]   # 第二项 / 第一、二项
      | [（(] {GAP} {SMALL_NUMERAL} {GAP} [)）] (?: {GAP} [项項] )?  # （二）项 / (2)
    )
"""

LIST_SEPARATOR = r"(?:、|，|,|以及|和|及|与|或者|或)"
"""Joins two pin cites of one list: 第十条、第十一条; 第十条和第十一条."""

RANGE_SEPARATOR = r"(?:至|到|～|~|—|–|－|-)"
"""Joins the two endpoints of a range: 第十条至第十二条 (only the endpoints are extracted)."""

BARE_MEMBER_SEPARATOR = r"(?:、|以及|和|及|与|至|到|～|~|—|–|－)"
"""Separators after which a chain member may drop its 第: 第一千二百三十六条及一千二百三十七条,
第一千零六十二条至一千零六十五条, 第十条、十一条 (never after a comma or 或: 「第十条，三条…」
is running text more often than a list)."""

BARE_ARTICLE = rf"""
    {NUMERAL} {GAP} [条條] {_NOT_MEASURE_WORD} (?! [文款件例] )    # 一千二百三十七条 (not 条文/条款)
    (?: {GAP} 之 {GAP} {_SUFFIX_NUMERAL} )?
"""
"""A chain member written without 第, only after :data:`BARE_MEMBER_SEPARATOR`."""

_SUB_PIN = rf"(?: {GAP} (?: {PARAGRAPH} | {ITEM} ) | {BARE_PARAGRAPH} )*"
"""款/项 refinements after an article: 第三十九条第一款第（二）项."""

_CHAIN_MEMBERS = rf"""
    (?:                                                   # list or range members
        {GAP} (?: {LIST_SEPARATOR} | {RANGE_SEPARATOR} ) {GAP}
        (?: {ARTICLE} | {SHARED_TIAO} | {_TIAO_DROPPED} | {PARAGRAPH} | {ITEM} ) {_SUB_PIN}
      | {GAP} {BARE_MEMBER_SEPARATOR} {GAP} (?: {BARE_ARTICLE} | {_SHARED_TIAO_RUN} ) {_SUB_PIN}
      | {GAP} 、 {GAP} {BARE_PARAGRAPH} {_SUB_PIN}                      # 一款、四款
    )*
"""

PIN_CHAIN = rf"""
    (?: {ARTICLE} | {SHARED_TIAO} ) {_SUB_PIN}            # first article(s) (+款/项)
    {_CHAIN_MEMBERS}
"""
"""A run of pin cites that share one instrument, starting with an article."""

TITLED_BARE_CHAIN = rf"""
    (?= [0-9０-９]{{2}} | [零〇一二两三四五六七八九十百千]{{2}} )      # 三百零七条, not 三条
    {BARE_ARTICLE} {_SUB_PIN}
    {_CHAIN_MEMBERS}
"""
"""A chain whose first article drops its 第, right after a 《title》 (「《中华人民共和国刑法》
三百零七条之一、第二十五条」, a JuDGE judgment): at least two numeral characters, so that
「《刑法》三条规定…」 (three articles) is not read as 第三条."""

PIN_ELEMENT_RE = recache.compile(
    rf"""
      (?P<article> (?: 第 {GAP} )? (?P<article_num>{NUMERAL}) {GAP} [条條]      # 第 may drop
                   (?: {GAP} 之 {GAP} (?P<article_sfx>{_SUFFIX_NUMERAL}) )?    # (bare members)
                 | 第 {GAP} (?P<article_num2>{NUMERAL}) (?= {GAP} 第 {GAP} {NUMERAL} {GAP} 款 )
                 | (?: 第 {GAP} )? (?P<article_num3>{NUMERAL})                # 第五十二、五十三条
                   (?= (?: {GAP} [、至到] {GAP} (?: 第 {GAP} )? {NUMERAL} )+ {GAP} [条條] ) )
    | (?P<paragraph> 第 {GAP} (?: (?P<paragraph_num>{NUMERAL})
                                | [（(] {GAP} (?P<paragraph_num2>{NUMERAL}) {GAP} [)）] ) {GAP} 款
                   | 第 {GAP} (?P<paragraph_num3>{NUMERAL})                 # 第一、三款: 第一 …
                     (?= (?: {GAP} 、 {GAP} {NUMERAL} )+ {GAP} 款 )
                   | (?P<paragraph_num4>[一二三四五六七八九十]{{1,2}}) 款          # … 三款 / 一款
                   | (?P<paragraph_num5>{NUMERAL}) (?= (?: {GAP} 、 {GAP} {NUMERAL} )* {GAP} 款 ) )
    | (?P<item> (?: 第 {GAP} [（(] {GAP} (?P<item_num1>{NUMERAL}) {GAP} [)）] (?: {GAP} [项項] )?
              | 第 {GAP} [〔［\[【] {GAP} (?P<item_num4>{NUMERAL}) {GAP} [〕］\]】] {GAP} [项項]
              | 第 {GAP} (?P<item_num2>{NUMERAL}) {GAP} [项項]
              | 第 {GAP} (?P<item_num5>{NUMERAL})                         # 第一、二项: 第一 …
                (?= (?: {GAP} 、 {GAP} {NUMERAL} )+ {GAP} [项項] )
              | (?P<item_num6>{NUMERAL})                                  # … 五项 / … 二、
                (?: {GAP} [项項] | (?= (?: {GAP} 、 {GAP} {NUMERAL} )+ {GAP} [项項] ) )
              | [（(] {GAP} (?P<item_num3>{SMALL_NUMERAL}) {GAP} [)）] (?: {GAP} [项項] )? ) )
    | (?P<range> {RANGE_SEPARATOR} )
    | (?P<list> {LIST_SEPARATOR} )
    """,
    re.VERBOSE,
)
"""Tokenises a matched :data:`PIN_CHAIN` (or a back-reference's 款/项 tail) into elements."""

_PLACEHOLDER_NUM = r"(?: [XxＸｘNnＮｎ×＊*?？]{1,3} | 某 | _{1,4} | …{1,2} | \.{3} )"

PLACEHOLDER_PIN = rf"""
    第 {GAP} {_PLACEHOLDER_NUM} {GAP} [条條] (?! [件例] ) {_SUB_PIN}
    (?: {GAP} {RANGE_SEPARATOR} {GAP}                      # 第X条至第Y条: one placeholder
        第 {GAP} (?: {_PLACEHOLDER_NUM} | [YyＹｙMmＭｍ]{{1,2}} ) {GAP} [条條] (?! [件例] ) {_SUB_PIN} )?
"""
"""A pin written as a placeholder instead of a number, after a 《title》 or a known title:
《劳动合同法》第X条, 劳动合同法第N条, 第×条, 第某条, 第__条, 第……条, a range of them
(第X条至第Y条: one citation, the whole range its placeholder). Never an article: the
citation names none."""

PIN_TAIL_RE = recache.compile(rf"{_SUB_PIN}", re.VERBOSE)
"""款/项 refinements after an article back-reference (同条第二款)."""

# --- titles ---------------------------------------------------------------------------------

_TITLE_CHAR = r"[^《》<>〈〉＜＞\n。；！？]"
"""A character of a title: anything but brackets, a line break or a sentence end."""

_NESTED_TITLE = r"(?:《[^《》\n]{1,60}》|〈[^〈〉\n]{1,60}〉|<[^<>《》\n]{1,60}>)"
"""A title quoted inside a title: 《最高人民法院关于适用〈中华人民共和国民法典〉…的解释》 (also
written with 《》 or ASCII <> inside)."""

TITLE = rf"""
    (?:
        《 (?P<title_cn> (?: {_TITLE_CHAR} | \n | {_NESTED_TITLE} ){{1,80}} ) 》   # 《民法典》
      | << (?P<title_ascii2> [^<>《》\n]{{1,80}} ) >>                                # <<民法典>>
      | <  (?![!/?]) (?P<title_ascii1> [^<>《》\n]{{1,80}} ) >                      # <民法典>
      | 〈 (?P<title_angle> [^〈〉\n]{{1,80}} ) 〉                                   # 〈民法典〉
      | ＜ (?P<title_fw> [^＜＞\n]{{1,80}} ) ＞                                     # ＜民法典＞
    )
"""
"""An instrument title in book-title brackets, full-width, ASCII or angle forms. ASCII forms
never hold 《》 and never open like markup (``<!--``, ``</``, ``<?``): ``<!-- 根据《民法典》… -->``
or ``<span title="《民法典》">`` must not swallow the real title inside."""

TITLE_GROUPS = ("title_cn", "title_ascii2", "title_ascii1", "title_angle", "title_fw")
"""Named groups of :data:`TITLE`; exactly one is set on a match."""

VERSION_NOTE = rf"""
    {GAP} [（(] {GAP}
    (?P<version>
        (?: [0-9０-９]{{4}} | [〇○零一二三四五六七八九]{{4}} )   # 2018 / 二〇一八
        [^（）()\n]{{0,16}}?                                     # 年修正 / 年修订 / 年1月1日起施行
    )
    {GAP} [)）]
"""
"""Version note right after a title: 《公司法》（2018年修正）→ version_hint ``2018年修正``."""

_TITLE_TO_PIN = (
    rf"{GAP} (?: 中的 | 中 | 的 | 之 )? (?: (?: 相关 | 有关 )? (?: 法律 )? (?: 条文 | 法条 ) )?"
    rf" (?: 中的 | 中 | 的 | 之 )? {GAP}"
)

PIN_JOINER_TAIL_RE = recache.compile(
    r"(?:(?:中的|的|中|之)?(?:相关|有关)?(?:法律)?(?:条文|法条))?(?:中的|的|中|之)?$"
)
"""Words between an instrument and its pin cite, stripped before the title is looked up
backwards from a bare 第N条: 民法典的第…, 刑法中的第…, 刑法条文第… (「依据刑法条文第一百一十四条」),
刑法的条文中的第…; in a 《》 title's tail the same words are bridged (《刑法》条文第…), also the
heading of a judgment's appendix of the provisions applied (「附：《中华人民共和国刑法》相关法律
条文 第一百七十六条…」, 「《…》相关条文 第二十五条…」, JuDGE judgments)."""

TITLE_NOTE = rf"{GAP} [（(] [^（）()《》\n]{{1,24}} [)）]"
"""Any other short parenthetical between a title and its pin cite: 《…规定》（公安部令第139号）
第十三条, 《…规范》（GB17485-2021）第六十五条. Bridged, not kept."""

_STRUCTURE_UNIT = rf"""
    第 {GAP} {NUMERAL} {GAP} (?: 分编 | 编 | 章 | 节 )
    (?: {_INLINE_SPACE}* [{CJK}、]{{1,12}}? {_INLINE_SPACE}+ )?     # heading name: 第二章 车辆和驾驶人 第十一条
    {GAP}
"""

STRUCTURE = rf"(?: {_STRUCTURE_UNIT} )+"
"""编/章/节 written between an instrument and its article: 《劳动法》第四章第四十二条,
劳动合同法第四章第三节第四十四条. Articles are numbered through the whole instrument, so the
path is kept in the span but does not change the article."""

STRUCTURE_TAIL_RE = recache.compile(rf"{STRUCTURE}$", re.VERBOSE)
"""A 编/章/节 path ending right before a bare pin cite (stripped before the title lookup)."""
"""Words allowed between a title and its pin cite: 《民法典》的第五百七十七条."""

# --- article back-references ----------------------------------------------------------------

ARTICLE_BACKREF = r"""
    (?: 上述条款 | 上述法条 | 该法条 | 该条款 | 同条 | 该条 | 本条 | 前条 | 前款 | 本款 | 此条 )
    (?![例款件文目])                     # not 本条例 / 该条款项… / 前条件
"""
"""Words that cite the article (and 款) of the nearest preceding citation (SPEC §2 antecedent)."""

INSTRUMENT_BACKREF_RE = recache.compile(
    r"""
    (?: 上述法律 | 前述法律 | 上述法规 | 该法律 | 同一法律 | 该部法律 | 这部法律
      | 同法 | 该法 | 本法 | 此法 | 前法
      | 本条例 | 该条例 | 同条例 | 此条例
      | 本解释 | 该解释 | 同解释 | 本规定 | 该规定 | 本办法 | 该办法
      | 上述条例 | 前述条例 | 上述解释 | 前述解释 | 上述司法解释 | 该司法解释 | 本司法解释
      | 上述办法 | 前述办法 )
    $
    """,
    re.VERBOSE,
)
"""Words right before 第N条 that cite the instrument of the nearest preceding citation.
Searched (anchored at the end) in the text just before a bare pin cite."""

# --- 指导案例 / 检例 / 案号 / 文号 -----------------------------------------------------------

GUIDING_CASE = rf"""
    指导性? 案例 {GAP} (?: 第 {GAP} )? (?P<guiding_num>{NUMERAL}) {GAP} 号   # 指导案例24号 / 指导性案例第24号
"""

GUIDING_CASE_NUMBER_FIRST = rf"""
    第 {GAP} (?P<guiding_num2>{NUMERAL}) {GAP} 号 {GAP} 指导性? 案例     # 第24号指导案例
"""

SPP_CASE = rf"""
    检例 {GAP} (?: 第 {GAP} )? (?P<spp_num>{NUMERAL}) {GAP} 号          # 检例第39号 (SPP)
"""

COURT_PREFIX_RE = recache.compile(
    r"(?P<court>最高人民法院|最高人民检察院|最高法院|最高检察院|最高法|最高检)"
    r"(?:发布的?|颁布的?|的)?(?:第[0-9一二三四五六七八九十]+批)?$"
)
"""Issuing court written right before a guiding case (最高人民法院指导案例24号); searched
anchored at the end of the text just before the match."""

YEAR_BRACKET = rf"[〔\[［【(（] {GAP} (?P<year>(?:19|20)[0-9]{{2}}) {GAP} [〕\]］】)）]"
"""A bracketed year: the anchor of both 案号 (（2016）鲁15刑初33号) and 文号 (法释〔2020〕17号)."""

CASE_NUMBER_TAIL_RE = recache.compile(
    rf"""
    (?P<body>
        (?: [{CJK}] | [0-9０-９] | [（(] [{CJK}]{{1,4}} [)）] ){{1,24}}?   # court + type: 沪二中民二（民）终
    )
    {GAP} (?: 字 {GAP} )? (?: 第 {GAP} )?                                # old 字第 forms
    (?P<serial>[0-9０-９]{{1,7}}) {GAP}
    (?: 之 [一二三四五六七八九十]+ {GAP} )?                              # 第1508号之一
    号
    """,
    re.VERBOSE,
)
"""What follows the bracketed year of a 案号: court abbreviation, case-type characters,
serial and 号. Deliberately loose: anything shaped like a 案号 is extracted, and
:func:`governor.citations.cn.case_number_is_well_formed` judges it."""

DOCUMENT_NUMBER_TAIL_RE = recache.compile(
    rf"{GAP} (?P<serial>[0-9０-９]{{1,5}}) {GAP} 号", re.VERBOSE
)
"""Serial and 号 after the bracketed year of a 文号: 〔2020〕17号."""

DOCUMENT_ISSUER_RE = recache.compile(
    rf"(?P<issuer>[{CJK}]{{1,8}})$",
)
"""Issuer code right before the bracketed year of a 文号 (法释, 国办发, 人社部发); searched
anchored at the end of the text before the bracket, then trimmed of lead-in verbs."""

DOCUMENT_ISSUER_SHAPE_RE = recache.compile(r"(?:释|发|函|办|字|令|通|规|法|电|复)$")
"""Last character of a 发文机关代字 (GB/T 9704-2012 §7.2.4): 法释, 国发, 法办, 国函…"""

CASE_NUMBER_WELL_FORMED_RE = recache.compile(
    rf"""
    ^（ (?P<year>(?:19|20)[0-9]{{2}}) ）
    (?:
        # new style (from 2016, 法〔2015〕137号): 法院代字 + 类型代字 + 序号 + 号
        (?P<new_court> 最高法 | [京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼兵] [0-9]{{0,4}} )
        (?P<new_type> [{CJK}]{{1,5}} )
        (?P<new_serial> [1-9][0-9]{{0,6}} )
        号
      |
        # old style (before 2016): 法院简称 + 类型字 + 字第 + 序号 + 号
        (?P<old_court> [{CJK}0-9]{{1,8}}? )
        (?P<old_type> [{CJK}]{{1,4}} (?: （ [{CJK}]{{1,2}} ） [{CJK}]? )? )
        字第
        (?P<old_serial> [0-9]{{1,7}} )
        号
    )
    $
    """,
    re.VERBOSE,
)
"""Shape of a well-formed 案号 after normalisation (full-width brackets, ASCII digits)."""

CASE_TYPE_CODES = tuple(
    """
    民初 民终 民再 民申 民抗 民监 民提 民辖 民辖终 民特 民催 民督 民破 民算 刑初 刑终 刑再 刑申 刑抗 刑监 刑提 刑更 刑核 刑辖 行初 行终
    行再 行申 行抗 行监 行审 行辖 执 执恢 执异 执复 执监 执协 执保 执他 破 破申 破终 赔 委赔 法赔 司救 知民初 知民终 知行初 知行终 商初
    商终 民商 刑赔 民他 刑他 行他 财保 行保 认台 认港 认澳 请台送 协外认
    """.split()
)
"""案件类型代字 (from 《人民法院案件类型及其代字标准》, 2015, and 2018/2023 revisions);
a new-style 案号's type must end with one of these (court-specific prefixes like 知, 商, 环
may stand before them)."""

OLD_CASE_DOMAIN_CHARS = "民刑行执商知经赔破海环"
"""Domain characters of an old-style (字第) case type: 民, 刑, 行, 商, 执…"""

OLD_CASE_STAGE_CHARS = "初终再监申提复抗更特督催执破赔他"
"""Last character of an old-style case type: 民初字, 商终字, 刑监字, 执复字…"""

# --- instrument shape (bare and unknown titles) ---------------------------------------------

INSTRUMENT_SUFFIXES = tuple(
    """
    法典 修正案 法 条例 规定 办法 细则 规则 解释 决定 批复 答复 纪要 意见 通知 规程 章程 准则 标准
    """.split()
)
"""Title endings of PRC instruments (立法法 and 司法解释工作规定 name forms)."""

TITLE_FORM_RE = recache.compile(
    r"""
    (?: 暂行 )?                                   # 暂行规定, 暂行办法
    (?: 法典 | 法 | 条例 | 规定 | 办法 | 细则 | 规则 )
    $
    """,
    re.VERBOSE,
)
"""The form word ending a title (法, 条例, 暂行规定 …): stripped, what is left is the subject
(医疗保险法 → 医疗保险)."""

BARE_TITLE_TAIL_RE = recache.compile(
    rf"""
    (?P<title>
        (?: [{CJK}] | [（(] [{CJK}0-9]{{1,10}} [)）] ){{2,40}}
        (?: 法典 | 法案 | 修正案 (?: [（(] [{CJK}]{{1,4}} [)）] )? | 法 | 条例 | 规定 | 办法 | 细则
          | 规则 | 解释 | 决定 | 批复 | 答复 )
        (?: [（(] (?: 试行 | 暂行 | 修正 | 修订 ) [)）] )?
    )
    $
    """,
    re.VERBOSE,
)
"""An instrument-shaped run of characters ending right before 第N条 (…法 / 条例 / 规定 /
办法 / 解释 …), searched anchored at the end of the text before a bare pin cite."""

QUOTED_TITLE_TAIL_RE = recache.compile(
    r"""
    (?P<open> ["“「『] )                       # ASCII, curly or corner quotes instead of 《》
    (?P<title> [^"“”「」『』《》\n。；！？，,]{2,40} )
    (?P<close> ["”」』] )
    $
    """,
    re.VERBOSE,
)
"""A title written in quotes instead of 《》 right before 第N条 (「"中华人民共和国刑法"第十七条」,
「“劳动合同法”第三十九条」; 9 of 500 LawBench answers in one set), searched anchored at the
end of the text before a bare pin cite. The quotes must pair (:data:`QUOTE_OPEN_CLOSE`) and
the title must resolve or be instrument-shaped (checked by the grammar)."""

LEAD_IN_RE = recache.compile(
    r"""
    (?: 根据 | 依据 | 依照 | 按照 | 参照 | 遵照 | 对照 | 适用 | 违反 | 违背 | 符合 | 援引 | 引用
      | 参见 | 详见 | 参考 | 结合 | 依 | 据 | 按 | 见 | 如 | 即 | 是 | 为 | 了 | 在 | 由 | 对
      | 和 | 及 | 与 | 或 | 的 | 中 | 与 | 而 | 则 | 也 | 还 )
    """,
    re.VERBOSE,
)
"""Words that introduce an instrument in running text; an unknown bare title starts after the
last of them (依据消费者权益保障法第… → 消费者权益保障法)."""

TITLE_LEAD_PREFIX_RE = recache.compile(r"^(?:我国|中国|国家|现行|新|旧|原)+")
"""Qualifiers written before a title but not part of it: 我国刑法, 新公司法."""

GENERIC_TITLE_RE = recache.compile(
    r"""
    ^(?: (?: 相关 | 有关 | 上述 | 前述 | 以下 | 以上 | 下列 | 此 | 该 | 本 | 其 | 各 | 这些 | 这 | 那 | 上
           | 具体 | 法律 | 地方 | 现行 | 新 | 旧 ) .{0,3}
       | 方法 | 办法 | 依法 | 立法 | 司法 | 执法 | 守法 | 违法 | 合法 | 非法 | 用法 | 做法 | 说法
       | 看法 | 想法 | 写法 | 手法 | 算法 | 语法 | 国法 | 家法 | 无法 | 设法 | 宪法解释 )$
    """,
    re.VERBOSE,
)
"""Bare titles that are ordinary words or vague references (相关规定, 上述办法, 方法), never
an unknown instrument."""

CONTINUATION_BOUNDARY_RE = recache.compile(
    r"""
    (?: ^ | [。，、；：:;,.!?！？（()）【\[\]】“”"‘’'「」『』\n]
      | 以及 | 和 | 及 | 与 | 或者 | 或 | 还有 | 另外 | 同时 | 并且 | 并 | 且 | 而 | 即 | 其中
      | 根据 | 依据 | 依照 | 按照 | 参照 | 适用 | 违反 | 参见 | 详见 | 见 | 结合 | 包括 | 以及
      | [0-9０-９]+ [.．、)）] )
    $
    """,
    re.VERBOSE,
)
"""What may stand right before a bare 第N条 that continues the previous citation's
instrument: a boundary (punctuation, line start, list number) or a connective word. Anything
else (合同第三条, 章程第十条, 他的第一条腿) is not a citation of a law."""

BARE_INSTRUMENT_LEAD = rf"""
    (?: 根据 | 依据 | 依照 | 按照 )
    (?=                                               # look ahead only: consume just the verb,
        (?: 我国 | 中国 | 现行 )?                     # so 根据前款 / 根据第N条 still match
        (?P<bare_title> (?: (?!第) [{CJK}（()）] ){{2,40}}? )   # never across a pin cite
        (?: (?: 的 | 之 | 中的? )? (?: 相关 | 有关 )? 规定 | [，,] )
    )
"""
"""A bare title between a lead-in and 规定 or a comma (根据劳动合同法的相关规定 / 根据劳动法，):
a whole-instrument citation when the title is a known alias; nothing otherwise."""

FOREIGN_TITLE_RE = recache.compile(
    r"""
    ^(?: 美国 | 美利坚合众国 | 英国 | 大不列颠 | 日本 | 德国 | 德意志 | 法国 | 法兰西 | 俄罗斯 | 俄联邦
       | 韩国 | 大韩民国 | 朝鲜 | 加拿大 | 澳大利亚 | 新西兰 | 新加坡 | 印度 | 意大利 | 西班牙
       | 葡萄牙 | 荷兰 | 比利时 | 瑞士 | 瑞典 | 挪威 | 丹麦 | 芬兰 | 奥地利 | 波兰 | 巴西 | 阿根廷
       | 墨西哥 | 南非 | 泰国 | 越南 | 马来西亚 | 印度尼西亚 | 菲律宾 | 以色列 | 土耳其 | 欧盟
       | 欧洲联盟 | 欧洲 )
    """,
    re.VERBOSE,
)
"""A title of another country's (or the EU's) law: 《美国法典》, 《德国民法典》, 《日本刑法》. The
store holds PRC law only, so such a citation is ``unverifiable`` (a coverage gap), never a
fabricated PRC instrument (L1.1.1)."""


# --- the combined anchor scan ---------------------------------------------------------------

CN_ANCHOR_RE = recache.compile(
    rf"""
      (?P<titled>                                         # 《X》（2018年修正）第N条… or bare 《X》
          {TITLE}
          (?: {VERSION_NOTE} )?
          (?: (?: {TITLE_NOTE} )? {_TITLE_TO_PIN} (?: {STRUCTURE} )?
              (?: (?P<titled_chain> {PIN_CHAIN} ) | (?P<titled_placeholder> {PLACEHOLDER_PIN} ) )
            | {GAP} (?P<titled_bare> {TITLED_BARE_CHAIN} ) )?
      )
    | (?P<chain> {PIN_CHAIN} )                            # 第N条… (title looked up backwards)
    | (?P<placeholder_pin> {PLACEHOLDER_PIN} )            # 劳动合同法第X条 (likewise)
    | (?P<guiding> {GUIDING_CASE} )                       # 指导案例24号
    | (?P<guiding_first> {GUIDING_CASE_NUMBER_FIRST} )    # 第24号指导案例
    | (?P<spp> {SPP_CASE} )                               # 检例第39号
    | (?P<article_ref> {ARTICLE_BACKREF} )                # 同条 / 该条 / 前款 …
      (?P<article_ref_tail> {_SUB_PIN} )
    | (?P<year_bracket> {YEAR_BRACKET} )                  # （2016）… 案号 / 法释〔2020〕 文号
    | (?P<bare_lead> {BARE_INSTRUMENT_LEAD} )             # 根据劳动合同法的规定 (known titles only)
    """,
    re.VERBOSE,
)
"""One scan over the report finds every Chinese citation anchor; branches are tried in order
at each position. Titles come first so that 《X》第N条 is one match. Its engine code is kept on
disk (:func:`governor.text.recache.compile`): compiling it was ≈ 0.15 s of each cold start."""

CN_ANCHOR_START_RE = recache.compile(
    r"""
      《 | < | 〈 | ＜                                      # titled
    | 第                                                  # chain, guiding_first
    | 指导 | 检例                                          # guiding, spp
    | 上述 | 该法条 | 该条 | 同条 | 本条 | 前条 | 前款 | 本款 | 此条   # article_ref
    | 〔 | \[ | ［ | 【 | \( | （                          # year_bracket
    | 根据 | 依据 | 依照 | 按照                              # bare_lead
    """,
    re.VERBOSE,
)
"""What every :data:`CN_ANCHOR_RE` match starts with: its first character, and for the
branches that open with a word, that word's first two characters. The scanner jumps between
these and tries :data:`CN_ANCHOR_RE` only there — three times faster than ``finditer`` over a
pattern whose branches start with groups; the two-character words skip the common characters
that only start a citation in one word (同 of 合同, 此, 上, 本, 前, 该, 根, 依, 按: 60 % of
one-character candidates in LawBench answers). Every alternative opens with a literal, so
``re`` still skips to candidates with a charset prefix. Keep in sync when a branch is added
(a test checks that jumping finds what ``finditer`` finds)."""

# --- sentences, carriers, descriptions, claims -----------------------------------------------

SENTENCE_END_RE = recache.compile(r"[。！？!?\n]")
"""Hard sentence boundaries used for claims and descriptions."""

CLAUSE_BOUNDARY_RE = recache.compile(r"[，,；;：:]")
"""Clause boundaries inside a sentence."""

LEAD_IN_BEFORE_RE = recache.compile(
    r"""
    (?: 根据 | 依据 | 依照 | 按照 | 参照 | 遵照 | 依 | 据 | 按 )
    (?: 我国 | 中国 | 现行 | 新 | 修订后的? | 修正后的? )?
    (?: 的 )?
    {GAP}
    $
    """.replace("{GAP}", GAP),
    re.VERBOSE,
)
"""Carrier phrase before a citation: 根据《X》第N条规定，P (SPEC §5 carrier phrases)."""

CARRIER_AFTER_RE = recache.compile(
    rf"""
    {GAP}
    (?: 等 )?
    (?: 也 | 亦 | 还 | 同样 | 均 | 都 )?
    (?P<of> 的 | 之 | 中的? )?
    (?: 相关 | 有关 | 明确 )?
    (?P<verb> 规定 | 明确规定 | 指出 | 明确 | 载明 | 写明 | 表明 | 提到 | 要求 | 称 | 认为 | 确立 | 阐明 )?
    (?: 了 )?
    (?: 的内容 | 内容 )?
    (?: 可知 | 来看 | 而言 | 看 )?
    {GAP}
    (?P<punct> [，,：:] )?
    {GAP}
    """,
    re.VERBOSE,
)
"""What may follow a citation before the content it is said to state: 规定： / 的规定， /
明确指出 / 也明确规定， / 第N条：… (an adverb 也/亦/还/同样 before the verb: 「同时，《婚姻法》第一千零七十一条也
明确规定，…」, dev chatglm2-6b 3-8 215, whose removal once left 「同时，规定，」)."""

QUOTE_RE = recache.compile(
    r"""
      “ (?P<q1>[^“”]{1,2000}) ”          # curly double quotes
    | 「 (?P<q2>[^「」]{1,2000}) 」        # corner brackets
    | 『 (?P<q3>[^『』]{1,2000}) 』        # white corner brackets
    | " (?P<q4>[^"\n]{1,2000}) "          # ASCII double quotes (one line)
    | ‘ (?P<q5>[^‘’]{1,2000}) ’          # curly single quotes
    """,
    re.VERBOSE,
)
"""Quoted spans inside a description (curly, corner and ASCII quotes)."""

QUOTE_OPEN_RE = recache.compile(r"[“「『\"‘]")
"""An opening quotation mark (the keys of :data:`QUOTE_OPEN_CLOSE`)."""

QUOTE_OPEN_CLOSE = {"“": "”", "「": "」", "『": "』", '"': '"', "‘": "’"}
"""Opening quote → closing quote, for a quotation that starts a description."""

# --- list-form recitations (claims.py descriptions) --------------------------------------

SENTENCE_OPEN_RE = recache.compile(r"[。！？!?；;][ \t\u3000]*(?:\*\*)?$")
"""A citation opening a sentence in the middle of a line (``答：可以。《X法》第N条 <text>``)."""
RULING_RE = recache.compile(r"(?:判决|裁定|决定|判处|处理)如下")
"""The operative part of a judgment after its legal basis (「依照《刑法》第二百六十四条之规定，
判决如下：」, every JuDGE judgment): what the court decides, never what the provision says."""
PROVISION_LINE_RE = recache.compile(rf"[{CJK}](?![^\n：:]{{0,9}}[：:])")
"""A line that may be the text of the provision cited alone on the line before it."""
ITEM_MARK = r"[（(]\s*(?:[一二三四五六七八九十]{1,3}|[0-9]{1,2})\s*[)）]|(?<![0-9.])[0-9]{1,2}[.．、](?![0-9])"
"""The pattern (a string, to compose) of an enumerated item's mark in a report or a statute:
（一）, (1), 1. / 1、 (PRC drafting uses （一）…; model answers write （1） or 1.)."""
ITEM_LINE_RE = recache.compile(r"[ \t\u3000]*[（(][一二三四五六七八九十]{1,3}[)）]")
"""A line opening with a 项 number （一）: an item of the provision just recited."""

LEGAL_BASIS_RE = recache.compile(
    r"(?:法律依[据據]|法条依据|相关法条|相关法律规定|相关规定|参考法条|法律条文|依据法条|相关法律条文)"
    r"[为是]?[ \t]*[：:\n]"
)
"""Heading of a 法律依据 list (LawBench 3-8 answers; lawyer answers in its ``refr``)."""

CONCLUSION_RE = recache.compile(
    r"(?:^|\n)[ \t#*]*(?:回答|答案|答复|结论|律师解答|简要回答|答)[ \t]*[：:]"
)
"""Marker of an answer's main conclusion (回答： / 答案： / 结论：). Every alternative holds 答
or 结论: :mod:`governor.citations.claims` skips the scan of texts holding neither (a test
checks it)."""

CONCLUSION_FALLBACK_RE = recache.compile(
    r"(?:^|[。！？\n])[ \t]*(?:综上所述|综上|因此|所以|总之)[，, ]?"
)
"""Fallback marker of a conclusion sentence when no 回答： marker exists."""

LIST_NUMBER_RE = recache.compile(
    r"^[ \t]*(?:[0-9０-９]{1,2}[.．、)）]|[（(][0-9一二三四五六七八九十]{1,3}[)）]|[-*•·])?[ \t]*"
)
"""Leading list numbering of a line (1. / 2、 / （一） / - )."""

# --- US (eyecite) ---------------------------------------------------------------------------

US_HINT_RE = recache.compile(
    r"""
      [0-9]{1,4} [ ] [A-Z][A-Za-z.]{0,12} (?: [ ] ?[0-9A-Za-z.]{1,8} ){0,4} [ ] [0-9]   # 531 U.S. 98
    | §                                                              # 42 U.S.C. § 1983
    | \b [Ii]d\.                                                     # Id.
    | \b supra \b
    """,
    re.VERBOSE,
)
"""Cheap gate: only texts with reporter- or statute-shaped ASCII run through eyecite."""

US_REPORTER_HINT_RE = recache.compile(
    r"\b[0-9]{1,4} [A-Z][A-Za-z.]{0,12}(?: ?[0-9A-Za-z.]{1,8}){0,3} [0-9]{1,5}\b"
)
"""A reporter-shaped citation (``925 F.3d 1339``), counted when eyecite is not installed."""

US_CODE_RE = recache.compile(
    r"""
    (?<![0-9A-Za-z])
    (?P<title> [0-9]{1,2} ) \s+                        # title: 18
    U\.?[ ]?S\.?[ ]?C\.? (?: [ ]?A\.? )? \s+          # U.S.C. / USC / U.S.C.A.
    (?: (?P<app> app(?:\.|endix) ) \s+ )?              # 50 U.S.C. app. § 5: the title's appendix
    §§? \s*
    (?P<section> [0-9]+ [A-Za-z]{0,3} (?: -[0-9]+[A-Za-z]{0,3} )? )   # 1983 / 1028A / 78j-1
    (?P<pin> (?: \( [A-Za-z0-9]{1,4} \) ){0,6} )         # subsections: (b)(1)(A)
    (?: [ ]+ (?P<note> note ) (?![A-Za-z]) )?            # 42 U.S.C. § 1983 note
    """,
    re.VERBOSE,
)
"""A United States Code citation: title, optional ``app.``, section, subsection pin and a
``note`` (each part kept apart: ``50 U.S.C. app. § 5(b)`` ≠ ``50 U.S.C. § 5``; Bluebook
R12.9). eyecite misses sections with a letter (``18 U.S.C. § 1028A``) and the appendix."""


# --- citegov's own notes (inserted by repairs; never part of a claim) -------------------------

CITEGOV_NOTE = recache.compile(
    r"""
    （注：(?:[^（）\n]|（[^（）\n]{0,30}）){0,160}?请核实）
    # 「（注：……请核实）」 appended by mark_unsupported / mark_stale / annotations; one level
    # of brackets inside (「可能应为《X》第N条（置信度0.70）」)
    | （注：该说法见《[^《》（）\n]{1,40}》第[零〇一二两三四五六七八九十百千]+条(?:之[一二三四五六七八九十]+)?）
    # 「（注：该说法见《X》第N条）」: the pin of a law cited whole (issue 21, policy.pin_note)
    """,
    re.VERBOSE,
)

# --- corpus parsing (authorities) ---
# Patterns for the LawRefBook markdown corpus (``cn_laws/SOURCE.md``, "File format" and
# "Quirks"). Used only by ``governor.authorities``; report text never goes through them.

_CORPUS_CN_NUM = r"[零〇一二三四五六七八九十百千]+"

CORPUS_ARTICLE = recache.compile(
    rf"""
    ^[第笫]                          # 第; 笫 is a typo in 农民专业合作社法(2017) 第五十四条
    \s*(?P<num>{_CORPUS_CN_NUM})     # Chinese numeral of the article
    \s*条                            # misplaced space: 第一百二十八 条 (刑事诉讼法 2018 …)
    (?P<suffix>之{_CORPUS_CN_NUM})?  # 第一百三十三条之一
    (?:[\s\u3000]+|(?=\S)|$)         # one ASCII space normally; none or U+3000 in quirky files
    (?P<text>.*)$                    # the first 款
    """,
    re.VERBOSE,
)
"""An article line: ``第十七条之一 已满七十五周岁的人…`` → num, suffix, text."""

CORPUS_ITEM = recache.compile(
    rf"""
    ^[（(](?P<num>{_CORPUS_CN_NUM})[）)]   # （一） full-width normally, (一) tolerated
    [\s\u3000]*(?P<text>.*)$
    """,
    re.VERBOSE,
)
"""A 项 line: ``（一）管制；`` → num, text."""

CORPUS_HEADING_RANK = recache.compile(
    rf"""
    ^(?:
        第{_CORPUS_CN_NUM}(?P<bian>编)          # 第一编 总则
      | 第{_CORPUS_CN_NUM}(?P<fenbian>分编)     # 第一分编 通则 (民法典)
      | 第{_CORPUS_CN_NUM}(?P<zhang>章)         # 第一章 基本规定
      | 第{_CORPUS_CN_NUM}(?P<jie>节)           # 第一节 …
      | (?P<dun>{_CORPUS_CN_NUM})、             # 司法解释: 一、一般规定 (章 rank)
      | [（(](?P<paren>{_CORPUS_CN_NUM})[）)]   # 司法解释: （一）… (节 rank)
    )
    """,
    re.VERBOSE,
)
"""Rank of a structural heading by its text (编 < 分编 < 章 < 节), never by its ``#`` count."""

CORPUS_META_DATE = recache.compile(
    r"""
    ^[\s\u3000]*[（(]?[\s\u3000]*
    (?P<y>\d{4})年(?P<m>\d{1,2})月(?P<d>\d{1,2})日   # 2020年5月28日 (no zero padding)
    [\s\u3000]*(?P<event>.*?)[\s\u3000]*$             # 第十三届…会议通过 / 施行
    """,
    re.VERBOSE,
)
"""A metadata event line ``YYYY年M月D日 <event>``."""

CORPUS_IN_FORCE = recache.compile(
    r"""
    自(?P<y>\d{4})年(?P<m>\d{1,2})月(?P<d>\d{1,2})日起施行   # 本法自2024年7月1日起施行
    """,
    re.VERBOSE,
)
"""An explicit in-force clause in metadata or in an article (``自2024年7月1日起施行``)."""

CORPUS_SPILL = recache.compile(
    r"""
    ^(?:
        第\d+次会议                              # 第1815次会议通过，自2021年1月1日起施行）
      | 会议通过                                 # 会议通过）
      | [（(][^）)]{0,20}(?:审判委员会|检察委员会|会议)   # （最高人民法院审判委员会第1421次会议通过 …）
    )
    [^。]{0,120}[）)]\s*$                       # ends at the closing bracket of the passage note
    """,
    re.VERBOSE,
)
"""A passage note that spilled from the metadata block into the body (SOURCE "Metadata spill")."""

CORPUS_DOCNO = recache.compile(
    r"""
    (?P<prefix>[\u4e00-\u9fff]{1,10})          # 法释 / 法发 / 高检发释字 / 劳部发 …
    [〔\[［(（]\s*(?P<year>\d{4})\s*[〕\]］)）]   # bracket variants: 〔〕 [] ［］ () （）
    \s*第?\s*(?P<num>\d+)\s*号                   # serial number
    """,
    re.VERBOSE,
)
"""A document number (文号) such as ``法释〔2020〕17号``; brackets normalised by the store."""

CORPUS_TITLED_DOCNO = recache.compile(
    r"""
    《(?P<title>[^《》]{4,120})》                  # 《最高人民法院关于…的解释》
    [（(](?P<docno>[\u4e00-\u9fff]{1,10}[〔\[［(（]\d{4}[〕\]］)）]\d+号)   # （法释〔2012〕21号
    """,
    re.VERBOSE,
)
"""A title immediately followed by its 文号 in brackets, as later instruments cite earlier ones."""

CORPUS_REPEAL_CLAUSE = recache.compile(
    r"""
    (?P<clause>[^。；]*?)        # the sentence up to … (no sentence boundary inside)
    同时废止                     # … "are repealed at the same time"
    """,
    re.VERBOSE,
)
"""A ``…《A》、《B》…同时废止`` clause (民法典 第一千二百六十条 and many 司法解释)."""

CORPUS_BOOK_TITLE = recache.compile(
    r"""
    (?P<issuer>最高人民法院(?:、最高人民检察院)?)?   # issuer written before the marks
    《(?P<title>[^《》]+)》                          # 《…》; inner titles use 〈〉
    """,
    re.VERBOSE,
)
"""A title in book-title marks, with the issuer when it is written just before them."""

CORPUS_JI_TITLE = recache.compile(
    r"""
    ^最高人民法院关于适用
    《(?:中华人民共和国)?(?P<law>[^《》]+)》     # 《中华人民共和国民法典》
    (?P<part>[^《》]*?)                         # 合同编通则 / 有关担保制度 / 婚姻家庭编
    (?:若干问题)?的(?:若干)?
    (?P<kind>解释|规定)                          # 的解释 / 的若干规定
    (?P<seq>（[一二三四五六七八九十]+）)?$        # （一）
    """,
    re.VERBOSE,
)
"""Title pattern ``最高人民法院关于适用《X》Y的解释/规定（N）`` used to derive short names."""

CORPUS_JI_CASES_TITLE = recache.compile(
    r"""
    ^最高人民法院(?:、最高人民检察院)?关于
    (?:审理|办理)(?P<subject>.+?)               # 民间借贷 / 劳动争议 / 盗窃刑事
    案件
    (?:具体)?(?:适用|应用)法律(?:若干|有关)?问题的
    (?P<kind>解释|规定)
    (?P<seq>（[一二三四五六七八九十]+）)?$
    """,
    re.VERBOSE,
)
"""Title pattern ``最高人民法院关于审理X案件适用法律若干问题的解释/规定（N）``."""

CORPUS_APPENDIX = recache.compile(
    r"""
    ^附(?:件|表|录)?                       # 附件 / 附表 / 附录 / 附：
    [一二三四五六七八九十0-9０-９]*         # 附件一 / 附件1
    (?:[：:]|\s|$)                          # then a colon, a space or nothing
    [^。；]{0,40}$                          # a short caption, never a sentence
    """,
    re.VERBOSE,
)
"""The start of an appendix after the last article (附件一：…的产生办法); not article text."""

# --- provision structure (governor.authorities.structure) -----------------------------------
# Drafting conventions: 《立法技术规范（试行）（一）》(全国人大常委会法工委, 2009) items 16-22 (「……的」
# conditions, 下列情形 lists, 但书 with 但是/但, 本法第N条 / 前款 / 前条 cross-references).

STRUCTURE_REFERENCE_RE = recache.compile(
    rf"""
    (?:依照|按照|依据|根据|适用|违反|参照|有|属于)?       # the verb before the reference
    (?P<scope>本法|本条例|本规定|本解释|本办法|本条)?    # the instrument itself (本法) or 本条
    第(?P<num>{NUMERAL})条(?P<suffix>之[一二三四五六七八九十]+)?  # 第N条 / 第N条之一
    (?:第(?P<para>{SMALL_NUMERAL})款)?                   # 第M款
    (?:第[（(]?(?P<item>{SMALL_NUMERAL})[)）]?项)?         # 第（K）项
    """,
    re.VERBOSE,
)
"""An explicit outgoing reference inside an article's text (本法第四十六条, 第三十九条第一款)."""

STRUCTURE_RELATIVE_RE = recache.compile(r"(?P<rel>前两款|前款|前条|前两条|本条|上述)(?:规定)?")
"""A relative reference (前款, 前条, 前两款, 本条)."""

STRUCTURE_PROVISO_RE = recache.compile(r"(?:但是|但)(?!书)[^。；\n]{2,120}(?:[。；\n]|$)")
"""A 但书 (但是…除外 / 但…的除外 / 但…不在此限), up to the end of its sentence."""

STRUCTURE_CONDITION_RE = recache.compile(
    r"(?:^|[。；：\n，])(?P<cond>[^。；：\n，]{2,60}?的)(?=，)"
)
"""A leading 「……的，」 condition clause (the trigger of the sentence's consequence)."""

STRUCTURE_LIST_LEAD_RE = recache.compile(
    r"(?:有|具有|存在|符合)?下列(?:情形|行为|条件|情况|事项)(?:之一)?"
)
"""The lead of an enumerated list of conditions (有下列情形之一的)."""

STRUCTURE_SCOPE_RE = recache.compile(
    r"仅(?:限)?|限于|只(?:有|能|限)|另有规定|另有约定|不在此限|除外|以外|以上|以下|不超过|最高|最低"
)
"""Scope words that limit a provision (仅/限于/除外/不超过 …)."""

STRUCTURE_DEFINITION_RE = recache.compile(
    r"""
    (?:的，|的,)是(?P<term1>[^，。；\n]{2,12}?)(?:[，。；]|$)   # ……的，是自首。 / 是累犯，
    | 本(?:法|条|条例|规定|解释)所称(?P<term3>[^，。；\n]{2,16}?)，?是指  # 本法所称X，是指
    | (?<![所称])(?P<term2>[^，。；：\n]{2,12}?)是指                # 共同犯罪是指……
    | (?:的，|的,)为(?P<term4>[^，。；\n]{2,8}?)(?:[，。；]|$)    # ……的，为累犯
    """,
    re.VERBOSE,
)
"""A definition: 「……的，是自首」, 「共同犯罪是指……」, 「本法所称X是指……」."""

STRUCTURE_MODAL_RE = recache.compile(r"应当|必须|可以|有权|不得|禁止|无权")
"""A duty/right modal (the provision grants or imposes something)."""

STRUCTURE_PENALTY_RE = recache.compile(
    r"处[^。；，]{0,20}?(?:有期徒刑|拘役|管制|罚金|死刑|无期徒刑|罚款|警告|拘留)|没收|吊销|责令停产停业"
)
"""A penalty (criminal or administrative)."""

STRUCTURE_AMOUNT_RE = recache.compile(
    r"按[^。；，]{0,30}?(?:标准|计算|支付|确定)|计算|最高不(?:超过|得超过)|不得低于|不超过[^。；，]{0,12}?(?:倍|年|个月|%|％)|每满一年|的标准"
)
"""An amount/standard rule (how much, how computed, ceilings): 按…标准支付, 最高不超过."""

STRUCTURE_PROCEDURE_RE = recache.compile(
    r"(?:提起|申请|提出|送达|受理|登记|备案|审查|听证|公告|期限|之日起[^。；，]{0,6}?日内)"
)
"""Procedural vocabulary (申请, 受理, 送达, time limits)."""

SANCTION_CLAIM_RE = recache.compile(
    r"罚款|罚金|责令|吊销|没收|拘留|警告|处分|有期徒刑|拘役|管制|行政处罚|刑事责任|法律责任"
    r"|处罚|惩罚|处以|收缴|法律后果|承担(?:什么|哪些|何种)(?:法律)?责任"
)
"""Words of a sanction or liability in what a report (or the question it answers) says or asks
(「由…责令改正，处…罚款」, 「会受到什么处罚」, 「承担什么责任」): such a claim rests on a penalty
or liability article (a 法律责任 chapter's), a claim without them on the rule that grants the
right or imposes the duty (issue 22: 劳动合同法第三十六条 cited for the parties' agreement had
been renumbered to 第八十五条, a penalty article). 收缴 (of forged papers, 道路交通安全法第九十六条) is
such a measure: without it 「…的，由公安机关交通管理部门予以收缴」 ruled out the article imposing it."""

LIABILITY_CLAIM_RE = recache.compile(r"(?:承担|负)[^，。；：]{0,10}?责任|赔偿")
"""Words of a civil or other liability a claim states (「犯罪分子应当承担民事赔偿责任」,
「应当赔偿损失」): such a claim rests on a liability provision as much as one naming a sanction
(:data:`SANCTION_CLAIM_RE`), so a liability article is no mismatch for it
(:func:`verifiers.suggest.sanction_mismatch`; dev 3-2 GPT-3.5 289: 刑法第三十六条 for 「应当承担
民事赔偿责任」 had been ruled out as a penalty article for a claim of a duty)."""

SANCTION_IMPOSED_RE = recache.compile(
    r"罚款|罚金|责令(?:改正|停止|限期|停产)|吊销|没收|拘留|有期徒刑|拘役|追究刑事责任|给予[^，。；]{0,8}处分"
)
"""A sanction a claim says is imposed (「由…责令改正，处…罚款」, 「处三年以下有期徒刑」): such a claim
rests on a provision imposing one. Narrower than :data:`SANCTION_CLAIM_RE`: a sentencing rule
(「可以从轻、减轻或者免除处罚」, 刑法第十九条) or the procedure after a penalty (「简易程序处罚后
应当当场制作决定书」) speaks of 处罚 without imposing one (dev 3-2 GPT-3.5 284, 299)."""

# --- report structure -------------------------------------------------------------------------

REPORT_HEADING_RE = recache.compile(
    r"""
    ^[ \t]*(?:
        \#{1,6}[ \t]*(?P<md>.+)                                   # Markdown: ## 二、法律分析
      | (?P<cn>[一二三四五六七八九十]{1,3}、.+)                     # 一、案情概述
      | (?P<paren>[（(][一二三四五六七八九十]{1,3}[)）].{0,40})     # （一）违约责任 (short line)
      | \*\*(?P<bold>[^*\n]{1,60})\*\*[ \t]*                      # **争议焦点**
    )$
    """,
    re.MULTILINE | re.VERBOSE,
)
"""A heading line of a report (the section boundaries of the coverage/support judges,
:mod:`verifiers.coverage`); the heading's words are the one named group that matched."""

PARTY_DOCUMENT_RE = recache.compile(r"^(?:中国共产党|中共中央|中共)")
"""A title of a Party regulation (《中国共产党纪律处分条例》, 《中共中央关于…的决定》): 党内法规 are
not state law (Regulations on the Formulation of Party Regulations, 2019, art. 3), and the
store holds state law only, so such a title is outside its coverage, never fabricated."""

GENERIC_BRACKETED_RE = recache.compile(
    r"^(?:条例|实施条例|实施细则|细则|解释|司法解释|规定|办法|法|法律|法规)$"
)
"""A bracketed title that names only a kind (《条例》, 《解释》): a back-reference to the nearest
preceding instrument of that kind, not a title."""

DEFINED_NAME_AFTER_RE = recache.compile(
    r"""
    \s* [（(] \s* (?: 以下简称为 | 以下简称 | 以下称 | 下称 | 简称 ) \s* [:：]? \s*
    [《“"「]? (?P<short> [^《》“”"「」（）()，。；\n]{2,20}? ) [》”"」]? \s* [）)]
    """,
    re.VERBOSE,
)
"""A short name defined right after a citation, for the rest of the report:
《中华人民共和国政府信息公开条例》（以下简称《公开条例》）, （下称“劳动合同法”）."""

# --- kinds of instrument the authority store covers (verifiers.existence, issue 24 item 5) ----
# Sources: 立法法 (2023) 第六十五、七十二条 and 行政法规制定程序条例 第五条 (法律 are named …法;
# 行政法规 …条例, also 规定/办法); 规章制定程序条例 第七条 (规章 may not be named 条例);
# 最高人民法院关于司法解释工作的规定 (2021) 第六条 and 最高人民检察院司法解释工作规定 第六条
# (司法解释 are issued by the SPC/SPP alone, in the forms 解释、规定、规则、批复、决定). The store
# holds ~200 解释 and ~190 规定 but only a handful of 批复 and 决定, so only 解释/规定/规则 are
# taken as covered, and 意见 only in the pre-2007 interpretation shape 关于审理…案件…意见 (not
# 指导意见/实施意见): measured on JuDGE judgments, SPC 法发 意见 (自首立功意见, 2010) and documents
# issued jointly with 公安部 are real and not in the store.

COVERED_STATUTE_RE = recache.compile(r"(?:(?<!办)法|法典)$")
"""A 法律's name: …法 (not …办法) or …法典."""

COVERED_SPC_RE = recache.compile(
    r"""
    ^ (?: 最高人民法院 | 最高人民检察院 | 最高人民法院、最高人民检察院 ) 关于 .*?
    (?: 解释 | 规定 | 规则
      | 审理 .* 案件 .* (?<!指导)(?<!实施)(?<!工作) 意见 )
    (?: [（(] [^）)]{1,6} [）)] )? $
    """,
    re.VERBOSE,
)
"""An SPC/SPP 司法解释's name (SPC/SPP alone as issuer; a trailing （一）/（试行） allowed)."""

COVERED_PRC_RULE_RE = recache.compile(r"^中华人民共和国(?!海关)[^《》]{2,}(?:办法|规定|细则)$")
"""A national-level rule written with the state's name (中华人民共和国发票管理办法): a 行政法规
by naming convention; 海关 rules are the one family of 部门规章 named this way."""

IMPLEMENTING_RE = recache.compile(r"^(?P<parent>.{2,}?)(?:实施细则|实施办法|实施规定)$")
"""The implementing rules of ``parent`` (居民身份证法实施细则)."""

TITLE_QUALIFIER_RE = recache.compile(r"(?:暂行|试行|[（(](?:试行|暂行)[）)])")
"""暂行/试行 in a title: not part of its subject."""

YEAR_IN_NAME_RE = recache.compile(r"((?:19|20)\d{2})\s*年")
"""A year in a title or version note (（2025年修订）)."""

SPC_DOCNO_YEAR_RE = recache.compile(r"法释\s*[〔\[（(［【]\s*(\d{4})")
"""The year of a 法释〔YYYY〕N号 number."""

SPC_CASE_TYPE_RE = recache.compile(r"关于(?:人民法院)?审理(?P<subject>[^《》]+?)案件")
"""The case type an SPC title is about: 关于审理建设工程施工合同纠纷案件… → 建设工程施工合同纠纷."""

HEADING_NUMBER_RE = recache.compile(r"^第[一二三四五六七八九十百零〇\d]+[编章节]\s*")
"""The number of a 编/章/节 heading (第五章 特别规定 → 特别规定)."""

# --- credentials in text the service passes on ------------------------------------------------

CREDENTIAL_RE = recache.compile(
    r"""
      (?P<scheme>\b(?:Bearer|Basic|Token)[ \t]+)[A-Za-z0-9._~+/=\-]{6,}   # Authorization values
    | \b(?:sk|pk|rk|ak)-[A-Za-z0-9_\-]{8,}                                # sk-… / sk-proj-… keys
    | (?P<field>(?:api[_-]?key|x-api-key|access[_-]?token|authorization|secret)
         ["']?[ \t]*[:=][ \t]*["']?(?:(?:Bearer|Basic|Token)[ \t]+)?)     # "api_key": "…",
         [^"'\s,;}&]{4,}                                                  # Authorization: Bearer …
    """,
    re.IGNORECASE | re.VERBOSE,
)
"""A credential an upstream may echo in an error body (issue 23: an upstream that echoes the
``Authorization`` header leaked the proxy's upstream key to the client): a bearer/basic/token
value, an OpenAI-style ``sk-`` key, or a key-named field's value. The named groups keep the
scheme or field name; only the value is replaced."""

MODAL_WORD_RE = recache.compile(r"可以|应当|不得|必须|有权|无权|应|可")
"""A modal verb opening a consequence phrase (「可以从轻或者减轻处罚」): a fix of a term inside
the phrase replaces the phrase from its modal to the clause's end
(``governor.revision.strategies``)."""

ARTICLE_MARK_RE = recache.compile(rf"第{NUMERAL}条")
"""An article pin (「第二十五条」, 「第25条」) anywhere in a span of words: a rewrite whose span
holds one would change another citation's words (``governor.revision.policy``)."""


LEGAL_BRANCH_RE = recache.compile(
    r"^(?:中华人民共和国)?(?:宪法相关法|民法商法|民法|商法|行政法|经济法|社会法|"
    r"诉讼与非诉讼程序法|非诉讼程序法|诉讼法|程序法|实体法)$"
)
"""A branch of law (法律部门), not an instrument: the seven branches of the PRC legal system
(宪法相关法、民法商法、行政法、经济法、社会法、刑法、诉讼与非诉讼程序法 — State Council
Information Office, 《中国特色社会主义法律体系》白皮书, 2011) and their halves. 刑法 is also a
law's name, so it is left out. A report citing 《中华人民共和国社会法》 cites no law, old or new
(54 of the dev LawBench answers' missing names are 社会法)."""

# --- assertions (issue 21: what a citation's words assert, read once per citation) -------------

ASIDE_RE = recache.compile(r"[（(](?P<body>[^（）()《》〈〉\n]{1,300}?)[）)]")
"""A bracketed aside candidate: a bracket with no nested bracket and no title in it. It is an
aside (skipped by the assertion reader, :mod:`governor.citations.assertion`) when its body holds
a sentence end (「（见下文。）」, 「（系统提示：忽略以上全部规则…。）」) or opens with
:data:`ASIDE_HEAD_RE`, and holds no citation."""

ASIDE_HEAD_RE = recache.compile(
    r"^\s*(?:见下文|见上文|见前文|见后文|详见下文|详见后文|下同|同上|系统提示|系统消息|系统指令|提示词|"
    r"(?i:system|assistant|ignore|note to))"
)
"""Words that open an aside or an injected instruction, not part of the claim."""

ASIDE_END_RE = recache.compile(r"[。！？!?]")
"""A sentence end inside a bracket: the bracket is a sentence of its own (an aside)."""

ASSERTION_LINK_RE = recache.compile(
    r"[ \t\u3000]*(?:该条|该款|该项|该规定|上述规定|上述条文|上述条款|此条|此款|此规定|这一规定|这条规定|该法条)"
)
"""A following sentence that continues the citation's assertion (issue 21: 该条/上述/此)."""

ASSERTION_CONTINUATION_STOP_RE = recache.compile(
    r"^(?:因此|所以|综上|总之|据此|故|由此|可见|此外|另外|同时|回答|答[:：]|法律依据|建议|"
    r"如果您|如果你|若您|若你)|[您你我]|本案"
)
"""A sentence that is no more the provision restated: the report's conclusion, its turn to
another point, or the case (您/你/本案)."""

JUDGMENT_FOLLOWS_RE = recache.compile(
    r"[^，。；：\n]{0,4}?(?:的|之)?规定[，,：:\s]*(?:判决|裁定|决定|处理|判处)(?:如下)?|"
    r"[，,：:\s]*(?:判决|裁定|决定)如下"
)
"""After a 依照…之规定 citation: the court's decision follows (判决如下：…), nothing is said
about the provision — the citation is a reference (JuDGE judgment form)."""

CONVICTION_RE = recache.compile(
    r"构成[^，。；、\n罪]{1,16}?罪|(?<!侵)犯[^，。；、\n有罪]{1,16}?罪|以[^，。；、\n罪]{1,16}?罪(?:追究|定罪|论处|处罚)"
)
"""A conviction sentence: 构成X罪 / 犯X罪 / 以X罪追究刑事责任 (an application of the article)."""

PARTY_RE = recache.compile(
    r"本案|该案|此案|你|您|当事人[甲乙]|"
    r"小[王李张刘陈杨赵黄周吴徐孙马朱胡郭何林高罗郑梁谢宋唐许韩冯邓曹彭曾明红刚华丽芳强军美]|"
    r"[王李张刘陈杨赵黄周吴徐孙马朱胡郭何林高罗郑梁谢宋唐许韩冯邓曹彭曾安][某]{1,2}|"
    r"[甲乙丙丁](?:方|公司|某|先生|女士)"
)
"""Named parties (小王, 安某, 甲公司), the reader (你/您) or the case at hand (本案): words
applying the provision to facts (role ``application``), not stating it. Role nouns (被告人,
原告, 申请人) are left out: rules use them too (「被告应当在…十五日内提出答辩状」)."""

ASSERTION_DEFINITION_RE = recache.compile(
    r"是指|所称[^，。；]{1,16}?是|的，是[^，。；]{2,12}?(?:[。；]|$)"
)
"""A definition (共同犯罪是指…, 本法所称X是…, ……的，是自首)."""

ASSERTION_PROCEDURE_RE = recache.compile(
    r"(?:向|在)[^，。；]{0,15}?(?:申请|起诉|上诉|申诉|提起|提出|复议|登记|备案)|"
    r"之日起[^，。；]{0,8}?日内|办理[^，。；]{0,6}?手续"
)
"""A procedural step (where/when to apply, file, register)."""

ASSERTION_MODAL_RE = recache.compile(
    r"不应当|不可以|不得|无权|禁止|严禁|不能|应当|必须|可以|有权|须|应|可"
)
"""Modal words, longest first (the modality of an assertion)."""

WHOLE_RULE_RE = recache.compile(
    r"""
    应当 | 有权 | 不得 | 必须 | 无权 | 禁止 | 严禁 | 享有
    | 可以 [^，。；：\n]{1,30}? 的                         # a case the law allows
    | 条件 | 包括                                         # a list of its conditions
    | 由 [^，。；：\n]{1,15}? (?: 支付 | 承担 | 负担 | 缴纳 | 发放 | 赔偿 | 补偿 )   # who pays
    | 自 [^，。；：\n]{1,15}? 之?日起                      # from when a rule runs
    """,
    re.VERBOSE,
)
"""Words citing a law as a whole that state a rule of it (「根据《劳动法》，劳动者有权获得工伤赔偿」,
「《土地管理法》规定宅基地的申请条件包括…」): a modal of duty or right, 可以…的 (a case the law
allows), a list of its conditions, who pays (「由失业保险基金支付其基本医疗保险费」) or from when a
rule runs (「用人单位自用工之日起即与劳动者建立劳动关系」) — role ``whole_instrument`` even with no
number (issue 21; fresh review 45: such rules under 《社会保险法》/《劳动合同法》 cited whole were read
as references and passed unchecked)."""

WHOLE_CLAIM_RE = recache.compile(
    r"可以|可能|应当|应该|应|需要|需|必须|有权|无权|不得|不能|不应|禁止|享有|负有|承担|构成|"
    r"赔偿|补偿|违法|合法|无效|属于|分为|视为|认定|不予|不需|是指|权利|义务"
)
"""Words citing a law as a whole that state a rule or a conclusion, of the law or drawn from it
(「根据《劳动合同法》，员工可以享受带薪年假」, 「根据《劳动法》，…否则需要支付赔偿金」, 「…也构成了劳动关系」,
「专利分为实用新型专利和外观专利」, 「老年人有享受基本生活保障的权利」, 「船舶碰撞是指…」): a modal, a
conclusion verb (构成/属于/视为/认定/违法/无效), a remedy (赔偿/补偿), a right or duty, a definition.
Wider than :data:`WHOLE_RULE_RE` (which routes to the pin search): it only decides that a numberless citation whose content nobody checked is named in the report
(:func:`governor.core.gaps.unchecked_claim`), never a note or a flag (issue 21, review 3)."""

WHOLE_NO_CLAIM_RE = recache.compile(
    r"什么|如何|怎样|怎么|多长|多久|多少|哪些|是否|[？?]|查阅|了解|参考|详见|规定进行"
)
"""A numberless citation's words that assert nothing of the law: a question restated
(「交通警察…处罚后需要做什么」, 「原发证机关应当在多长时间内…」) or a pointer to read it
(「如果您想进一步了解…，可以查阅」)."""

WHOLE_PIN_ARTICLE_RE = recache.compile(r"第(?P<art>[0-9]+)(?:之(?P<sfx>[0-9]+))?条")
"""The article of a whole-law pin in an applicability rationale (「…第62条 (…)」, written by
``verifiers.roles``)."""

WHOLE_ADVICE_RE = recache.compile(
    r"以下|如下|措施|建议|步骤|途径|咨询|律师|(?:向|到|去)[^，。；：\n]{0,15}?(?:申请|起诉|投诉|举报|反映|求助|维权)"
)
"""Advice to the reader under a law cited whole (「您可以采取以下措施」, 「可以向劳动仲裁委员会
申请仲裁」): steps to take, not a rule of the law to resolve to an article — role ``reference``."""

READER_RE = recache.compile(r"你|您")
"""The reader addressed (你/您): a rule told to the reader (「您有权获得工伤赔偿」) is still a rule of
the law cited whole; named parties (:data:`PARTY_RE` without these) apply it to facts."""

ASSERTION_NEGATION_RE = recache.compile(
    r"不得|无权|禁止|严禁|不能|不应当?|不可以?|(?:不|未|无|没有|无需|非)(?:予|应|能|得|需|须|可|是|属于|构成|承担|支付|享有|适用|影响|受|计入|包括)"
)
"""Negation of an assertion's consequence (polarity ``negative``): a prohibitive modal or 不/未/无
before a verb of consequence (不予保护, 无需承担, 不属于) — not the 不 of 不动产."""

ASSERTION_CONDITION_RE = recache.compile(
    r"(?:^|(?<=[，,；;。：:]))(?P<cond>[^，,；;。：:\n]{2,60}?的)(?=[，,])|"
    r"(?:如果|若|只要|假如|一旦)(?P<cond2>[^，,；;。\n]{2,40}?)(?:时|的话|的)?(?=[，,])"
)
"""A condition of an assertion: a 「……的，」 clause or 如果/若/只要…，."""

ASSERTION_MAY_CONDITION_RE = recache.compile(r"的[，,]|如果|若|只要|假如|一旦")
"""A cheap test before :data:`ASSERTION_CONDITION_RE` (most words state no condition)."""

ASSERTION_ACTOR_RE = recache.compile(
    r"(?:由|从)(?P<actor>[^，,；;。由从\n]{2,15}?)(?:按[^，,；;。\n]{0,10}?)?"
    r"(?P<verb>支付|承担|负担|发放|缴纳|赔偿|补偿|给付|偿还|负责)(?P<obj>[^，,；;。\n]{0,20})"
)
"""The one who pays or bears (由X支付…, 从X…支付…): ``actor``, ``verb``, the object after the
verb (``obj``, may be empty: 「O由X支付」 names it before 由)."""

ASSERTION_NUMBER_RE = recache.compile(
    r"(?:百分之|千分之|万分之)[零〇一二两三四五六七八九十百千0-9０-９.]+|"
    r"[0-9０-９]+(?:\.[0-9]+)?\s*[%％]|"
    r"[0-9０-９]+(?:\.[0-9]+)?(?:个工作日|工作日|个月|周岁|小时|万元|亿元|年|月|日|天|周|岁|倍|元)|"
    r"[零〇一二两三四五六七八九十百千万]+(?:个工作日|工作日|个月|周岁|小时|万元|亿元|年|月|日|天|周|岁|倍|元)"
)
"""A number with its unit as written (amounts, periods, rates, ages); compared by the judges
through :func:`verifiers.facts.quantities`."""

UNLIMITED_RE = recache.compile(
    r"(?:无论|不论|不管)[^，,。；;]{0,20}?(?:多少|多久|多长|几|长短|大小|高低|何时)"
    r"(?:个月|年|月|天|日|钱|元|时间)?"
)
"""A claim that no limit applies (无论已过多少年…, 不论金额大小…): contradicts a limit the
provision sets."""

CONSEQUENCE_STOP_RE = recache.compile(r"[；;。\n]")
"""Where the consequence of a 「……的，」 condition ends in a provision's text."""

LIMIT_WORDS_RE = recache.compile(
    r"超过|以内|之内|届满|不予保护|不得超过|最长|最高|不超过|日内|年内|月内"
)
"""Words that make a number a limit (超过二十年的…不予保护, 三年内)."""

PERIOD_DIMENSION_RE = recache.compile(r"年|月|日|天|久|长|何时|时间|期限")
"""A 无论… phrase about time (无论已过多少年): the denied limit is a period."""

CONSEQUENCE_CONNECTOR_RE = recache.compile(r"因此|所以|故而|据此|由此可见|可见|因而")
"""Where a report turns from what the provision says to what follows for the case
(「…，未经登记，不发生效力，因此甲某尚未取得房屋所有权」): the words before it are a
paraphrase, the application comes after."""

JUDGMENT_IN_RE = recache.compile(
    r"(?:之|的)?规定[，,：:\s]*(?:判决|裁定|决定)如下|^[，,：:\s]*(?:判决|裁定|决定)如下"
)
"""The court's decision after the basis list, anywhere later in the citation's sentence
(「依照…第六十一条，…《关于…的意见》第一条…之规定，判决如下」)."""

APPLICATION_STUB_RE = recache.compile(
    r"(?:本案|该案|此案|对此|上述行为|该行为)?(?:应当|应|可以|可)?(?:适用|依照|依据|参照|按照)(?:于本案)?"
)
"""Words that only say the provision applies (「本案应当适用《X》第N条的规定」): the proposition
is the facts of the question, not these words (use with ``fullmatch``)."""

FACTS_EVIDENCE_CLAUSE_RE = recache.compile(
    r"(?:提供|出示|举示|提交|宣读)[^，,。；;]*证据|证据[^，,。；;]*证实|予以证实|足以认定|提请本院"
)
"""A clause of a judgment's fact statement that lists the evidence or the prosecution's request,
not the facts (「对上述指控，公诉机关提供了被害人陈述、证人证言…等证据予以证实」, 「提请本院依法判处」):
its words (证人, 鉴定, 证据) would match the articles on evidence offences
(:func:`verifiers.offence_fit.facts_proper`)."""

SENTENCE_PENALTY_RE = recache.compile(
    r"[，,]?(?:处|对单位判处)[^。；]*?(?:有期徒刑|拘役|管制|罚金|死刑|无期徒刑|罚款)"
)
"""Where a 款's penalty starts (「…数额较大的，处三年以下有期徒刑…」): the words before it are the
conduct the facts must meet (:func:`verifiers.applicability.facts_cover`)."""

MAIN_CLAUSE_STOP_RE = recache.compile(r"[：:；;。\n]")
"""Where the main clause of a consequence ends (before a 下列情形 list or the next sentence): its
polarity is that clause's, not its items' (「…可以解除劳动合同：（一）…不能从事原工作…」)."""


AMENDING_ACT_TITLE_RE = recache.compile(r"(?:修正案(?:[（(][^）)]{1,8}[)）])?|关于修改.+的决定)$")
"""The title of an amending act (「中华人民共和国刑法修正案（十一）」, 「中华人民共和国宪法修正案（2018年）」,
「国务院关于修改和废止部分行政法规的决定」, 「最高人民法院关于修改《…》的决定」; not 「…关于《刑法修正案（九）》
时间效力问题的解释」 nor 「关于修改后的民事诉讼法施行时…的规定」). Its articles are instructions already merged
into the consolidated text, which is what a lawyer cites (宪法修正案第五十一条 is 宪法第一百零七条 as
amended), so such an act is never a suggested provision (:mod:`verifiers.suggest`; fresh reviews
39 and 42: 《宪法修正案（2018年）》第五十一条 named for a 城乡规划法 citation)."""


SENTENCE_PERSON_SUBJECT_RE = recache.compile(
    r"^(?P<who>[^，,；;。\n]{2,24}?的(?:人|精神病人|未成年人))"
)
"""A provision's sentence that opens with the persons it is limited to (「已满七十五周岁的人故意犯罪的，
…；过失犯罪的，…」, 「不满十八周岁的人犯罪，…」): every clause of it, past a 「；」 too, is about them."""


AMENDMENT_ACT_BASE_RE = recache.compile(r"^(?P<base>.+?)修正案(?:（[一二三四五六七八九十]+）)?$")
"""A numbered 修正案's title, with the title of the law it amends as ``base``
(「中华人民共和国刑法修正案（十一）」 → 「中华人民共和国刑法」): used at build time to merge an act's
dates into its law (:mod:`governor.authorities.amendments`, :mod:`governor.authorities.rebuild`)."""


AMENDMENT_IN_FORCE_RE = recache.compile(r"本修正案自(\d{4})年(\d{1,2})月(\d{1,2})日起施行")
"""The in-force clause of a 修正案 (「本修正案自2024年3月1日起施行」): year, month, day.
Read by :mod:`governor.authorities.amendments` and :mod:`governor.authorities.rebuild`."""
