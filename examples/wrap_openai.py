"""Wrap an OpenAI-compatible chat model (OpenAI, vLLM, Ollama, DeepSeek...) with a prompt template.

Settings come from the environment (or a ``citegov.toml``):
``CITEGOV_LLM_BASE_URL`` (e.g. ``http://127.0.0.1:8000/v1``), ``CITEGOV_LLM_MODEL`` and the
API key in ``OPENAI_API_KEY`` (any value for a local server without auth). Replies are cached
under ``CITEGOV_CACHE_DIR`` so a rerun makes no calls. Citations are verified offline.

Run: ``CITEGOV_LLM_BASE_URL=... CITEGOV_LLM_MODEL=... python examples/wrap_openai.py``
"""

from __future__ import annotations

from governor.api import Governor
from governor.core.config import load_config
from governor.core.labels import report_score
from graphs.wrap import PromptTemplate, chat_generator_from_config

TEMPLATE = PromptTemplate(
    system="你是中国法律研究助理。请回答用户的问题，并在每个结论后注明所依据的法律条文（《法律名称》第X条）。",
    user="问题：{query}\n{subtopics_text}",
)


def main() -> None:
    config = load_config(overrides={"as_of": "2024-06-01"})
    generator = chat_generator_from_config(config, template=TEMPLATE)
    gov = Governor(config, generator=generator)
    result = gov.write(
        {"id": "q1", "query": "借款到期不还，出借人多久内必须起诉？"}, strategy="efa"
    )
    s0, s1 = report_score(result.initial_verdicts), report_score(result.final_verdicts)
    print(
        f"model {config.llm_model}: {s0.n_cite} citation(s), trust {s0.trust:.3f} -> {s1.trust:.3f}"
    )
    for e in result.edits:
        print(f"  {e.op}: {e.before!r} -> {e.after!r}")
    print(result.text.strip())


if __name__ == "__main__":
    main()
