"""Prometheus metrics of one service process (``GET /metrics``, text exposition format).

Layer 8. One :class:`prometheus_client.CollectorRegistry` per app (not the global one), so
several apps in one process (tests) do not share counters. With ``--workers N`` each uvicorn
worker has its own registry: a scrape sees the worker that answered it (sum them in
Prometheus by instance, or run one worker per container).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily
from prometheus_client.registry import Collector

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
"""Histogram bucket bounds, seconds."""


class _JudgeCalls(Collector):
    """``citegov_llm_calls_total{source="judge"}`` read from the judges' own counters at scrape
    time (:class:`governor.clients.chat.ChatUsage`), so no call is double counted."""

    def __init__(self, judges: Callable[[], Iterable[Any]]) -> None:
        self._judges = judges

    def collect(self) -> Iterable[CounterMetricFamily]:
        calls = 0
        for judge in self._judges():
            usage = getattr(judge, "usage", None)
            calls += int(getattr(usage, "calls", 0) or 0)
        fam = CounterMetricFamily(
            "citegov_llm_calls", "Requests sent to an LLM endpoint", labels=["source"]
        )
        fam.add_metric(["judge"], calls)
        yield fam


class ServiceMetrics:
    """The service's counters and histograms.

    Args:
        judges: returns the judges in use (read at scrape time for LLM call counts).
    """

    def __init__(self, judges: Callable[[], Iterable[Any]] = tuple) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "citegov_requests",
            "HTTP requests answered, by route and status code",
            ["route", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "citegov_request_seconds",
            "Request latency in seconds, by route",
            ["route"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.citations = Counter(
            "citegov_citations_judged",
            "Citations judged (initial verdicts of each governed or verified draft)",
            registry=self.registry,
        )
        self.upstream = Counter(
            "citegov_upstream_calls",
            "Proxy requests forwarded to the upstream model, by outcome",
            ["outcome"],
            registry=self.registry,
        )
        self.in_flight = Gauge(
            "citegov_in_flight", "Requests being governed now", registry=self.registry
        )
        self.rejected = Counter(
            "citegov_rejected",
            "Requests refused before governing, by reason (auth, too_large, busy, llm_budget)",
            ["reason"],
            registry=self.registry,
        )
        self.llm_budget_remaining = Gauge(
            "citegov_llm_budget_remaining",
            "LLM calls left in this worker's budget window (-1: no LLM judge)",
            registry=self.registry,
        )
        self.llm_budget_exhausted = Gauge(
            "citegov_llm_budget_exhausted",
            "1 while this worker's LLM budget window is used up (requests get 429)",
            registry=self.registry,
        )
        self.llm_budget_remaining.set(-1)
        self.registry.register(_JudgeCalls(judges))

    def render(self) -> bytes:
        """The Prometheus text exposition of every metric."""
        return generate_latest(self.registry)
