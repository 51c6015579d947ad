"""Wrap a LangChain ``Runnable`` and use the governed writer as a ``Runnable`` itself.

The generator here is a LangChain chain ``prompt | chat model | parser``; a scripted
``FakeListChatModel`` stands in for any LangChain chat model (ChatOpenAI, ChatOllama...). The
chain's prompt has a ``{feedback}`` variable, so it can also regenerate from feedback.

The governed writer (``Governor.runnable``) is a LangChain ``Runnable``: ``invoke`` one task,
``batch`` several, ``stream`` the pipeline's node updates.

Run: ``python examples/wrap_runnable.py``
"""

from __future__ import annotations

from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate

from governor.api import Governor
from governor.core.config import load_config

REPORTS = [
    "依据合同法第一百零七条，当事人一方不履行合同义务或者履行合同义务不符合约定的，"
    "应当承担继续履行、采取补救措施或者赔偿损失等违约责任。\n",
    "《民法典》第一百五十三条规定，行为人与相对人恶意串通，损害他人合法权益的民事法律行为无效。\n",
]


def make_chain() -> object:
    prompt = ChatPromptTemplate.from_messages(
        [
            ("system", "你是法律研究助理，引用条文时注明《法律名称》第X条。"),
            ("user", "问题：{query}\n{subtopics_text}\n{feedback}"),
        ]
    )
    model = FakeListChatModel(responses=REPORTS * 4)
    return prompt | model | StrOutputParser()


def main() -> None:
    gov = Governor(load_config(overrides={"as_of": "2024-06-01"}), generator=make_chain())
    writer = gov.runnable("efa")

    result = writer.invoke({"id": "t1", "query": "对方违约应承担什么责任？"})
    print("invoke:", result.stop_reason, "|", result.text.strip())

    # one at a time, so the fake model's canned reports meet the questions they answer
    # (citegov judges a citation against the question too: an off-point answer is not renumbered)
    batch = writer.batch(
        [
            {"id": "t2", "query": "恶意串通订立的合同是否有效？"},
            {"id": "t3", "query": "违约责任？"},
        ],
        config={"max_concurrency": 1},
    )
    for r in batch:
        print("batch:", r.stop_reason, "|", [e.op for e in r.edits])

    for event in writer.stream({"id": "t4", "query": "恶意串通的合同效力如何？"}):
        if event.result is not None:
            print("stream: result", event.result.stop_reason)
        else:
            print("stream:", event.node, sorted(event.update))


if __name__ == "__main__":
    main()
