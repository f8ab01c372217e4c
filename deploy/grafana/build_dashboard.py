"""Generate the Grafana dashboard ``chsr-mesh.json`` from code.

Why code: the panels and their PromQL live in one reviewed place, and the
checked-in JSON is a build artefact that ``tests/ops`` compares with a fresh
generation (``--check``). The builder library is Grafana Labs' maintained
``grafana-foundation-sdk`` (types generated for Grafana 11.6).

Metric names follow docs/ARCHITECTURE.md / chsr/metrics.py. The latency
target lines (40 ms, 80 ms) are the p95 targets for pipelines C/D and E.

    .venv/bin/python deploy/grafana/build_dashboard.py           # rewrite chsr-mesh.json
    .venv/bin/python deploy/grafana/build_dashboard.py --check   # exit 1 if it is stale
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from grafana_foundation_sdk.builders import bargauge, dashboard, prometheus, stat, timeseries
from grafana_foundation_sdk.builders.common import (GraphThresholdsStyleConfig, ReduceDataOptions, StackingConfig,
                                                   VizLegendOptions)
from grafana_foundation_sdk.cog.encoder import JSONEncoder
from grafana_foundation_sdk.models import common
from grafana_foundation_sdk.models.dashboard import (DashboardCursorSync, DataSourceRef, Threshold,
                                                     ThresholdsMode, VariableOption, VariableRefresh,
                                                     VariableSort)

OUTPUT = Path(__file__).with_name("chsr-mesh.json")
#: The retrieval legs (chsr/stages.py KNOWN_LEGS; a test checks the two agree): one panel each.
LEGS = ("sparse", "dense", "tfidf", "ppmi", "graph")
UID = "chsr-mesh"
DS = DataSourceRef(type_val="prometheus", uid="${datasource}")
PIPE = 'pipeline=~"$pipeline"'
RATE = "[$__rate_interval]"
# Latency SLO targets: C/D p95 <= 40 ms, E p95 <= 80 ms.
TARGETS_S = (0.04, 0.08)


def q(expr: str, legend: str, ref: str = "A") -> prometheus.Dataquery:
    return prometheus.Dataquery().expr(expr).legend_format(legend).ref_id(ref).datasource(DS)


def quantile(phi: float, metric: str, by: str, selector: str) -> str:
    """``histogram_quantile`` over ``metric`` grouped by ``le`` and the label ``by`` (none when empty)."""
    group = f"le, {by}" if by else "le"
    series = f"{metric}_bucket{{{selector}}}" if selector else f"{metric}_bucket"
    return f"histogram_quantile({phi}, sum by ({group}) (rate({series}{RATE})))"


def ts(title: str, description: str, unit: str, queries: list[prometheus.Dataquery], *,
       width: int = 12, stacked: bool = False, target_lines: bool = False) -> timeseries.Panel:
    panel = (timeseries.Panel().title(title).description(description).unit(unit).datasource(DS)
             .span(width).height(8).min(0).fill_opacity(10 if not stacked else 60)
             .legend(VizLegendOptions().show_legend(True).display_mode(common.LegendDisplayMode.TABLE)
                     .placement(common.LegendPlacement.BOTTOM).calcs(["mean", "max", "lastNotNull"])))
    if stacked:
        panel = panel.stacking(StackingConfig().mode(common.StackingMode.NORMAL))
    if target_lines:
        panel = (panel.thresholds_style(GraphThresholdsStyleConfig().mode(
            common.GraphThresholdsStyleMode.DASHED))
            .thresholds(dashboard.ThresholdsConfig().mode(ThresholdsMode.ABSOLUTE).steps([
                Threshold(value=None, color="green"), Threshold(value=TARGETS_S[0], color="yellow"),
                Threshold(value=TARGETS_S[1], color="red")])))
    for i, query in enumerate(queries):
        panel = panel.with_target(query.ref_id(chr(ord("A") + i)))
    return panel


def single(title: str, description: str, unit: str, expr: str, steps: list[Threshold]) -> stat.Panel:
    return (stat.Panel().title(title).description(description).unit(unit).datasource(DS).span(4).height(4)
            .graph_mode(common.BigValueGraphMode.AREA).color_mode(common.BigValueColorMode.BACKGROUND)
            .reduce_options(ReduceDataOptions().calcs(["lastNotNull"]))
            .thresholds(dashboard.ThresholdsConfig().mode(ThresholdsMode.ABSOLUTE).steps(steps))
            .with_target(q(expr, title)))


def green_red(limit: float, green_high: bool = False) -> list[Threshold]:
    low, high = ("red", "green") if green_high else ("green", "red")
    return [Threshold(value=None, color=low), Threshold(value=limit, color=high)]


QPS = f"sum(rate(chsr_requests_total{{{PIPE}}}{RATE}))"
ERROR_RATIO = (f'sum(rate(chsr_requests_total{{code!="OK", {PIPE}}}{RATE}))'
               f" / sum(rate(chsr_requests_total{{{PIPE}}}{RATE}))")
CACHE_HIT_RATIO = (f'sum(rate(chsr_cache_events_total{{event="hit"}}{RATE}))'
                   f" / sum(rate(chsr_cache_events_total{RATE}))")
DEGRADED_RATIO = f"sum(rate(chsr_degraded_answers_total{RATE})) / sum(rate(chsr_requests_total{{{PIPE}}}{RATE}))"
TOTAL = f'stage="total", {PIPE}'
STAGES = f'stage!="total", {PIPE}'


Section = tuple[str, list]  # (row title, panels shown under it)


def overview() -> Section:
    return "Overview", [
        single("Searches/s", "Gateway searches per second, all codes.", "reqps", QPS,
               [Threshold(value=None, color="blue")]),
        single("Error ratio", "Share of searches that ended with a non-OK gRPC code.", "percentunit",
               ERROR_RATIO, green_red(0.01)),
        single("Cache hit ratio", "Result-cache hits over all cache events (hit, miss, bypass).", "percentunit",
               CACHE_HIT_RATIO, green_red(0.2, green_high=True)),
        single("End-to-end p95", "p95 of uncached searches (stage=total).", "s",
               quantile(0.95, "chsr_stage_latency_seconds", "", TOTAL), green_red(TARGETS_S[1])),
        single("Degraded ratio", "Degraded answers per search (a search can carry several reasons).",
               "percentunit", DEGRADED_RATIO, green_red(0.05)),
        single("Targets up", "Share of mesh /metrics endpoints Prometheus scrapes successfully.", "percentunit",
               'sum(up{job=~"$job"}) / count(up{job=~"$job"})', green_red(1, green_high=True)),
    ]


def latency() -> Section:
    metric = "chsr_stage_latency_seconds"
    e2e = [q(quantile(phi, metric, "", TOTAL), f"p{round(phi * 100)}") for phi in (0.5, 0.95, 0.99)]
    panels = [
        ts("End-to-end latency p50 / p95 / p99", "Uncached searches, gateway stage=total, all selected "
           "pipelines. Dashed lines: p95 targets (40 ms C/D, 80 ms E).", "s", e2e, target_lines=True),
        ts("End-to-end p95 by pipeline", "p95 of stage=total per pipeline.", "s",
           [q(quantile(0.95, metric, "pipeline", TOTAL), "{{pipeline}}")], target_lines=True),
    ]
    panels += [ts(f"Per-stage latency p{round(phi * 100)}",
                  f"p{round(phi * 100)} of each stage (gate, each leg, fusion, fetch, rerank, cache) as timed "
                  "by the gateway.", "s", [q(quantile(phi, metric, "stage", STAGES), "{{stage}}")], width=8)
               for phi in (0.5, 0.95, 0.99)]
    panels.append(ts("Server-side handling p95 by service", "gRPC handler time inside each service "
                     "(excludes network and queueing in the caller).", "s",
                     [q(quantile(0.95, "chsr_grpc_server_handling_seconds", "service", ""), "{{service}}")],
                     width=24))
    return "Latency", panels


def legs() -> Section:
    """One panel per retrieval leg: its stage latency as the gateway times it, its failures and the
    answers degraded because of it (``<leg>_unavailable``)."""
    metric = "chsr_stage_latency_seconds"
    panels = []
    for leg in LEGS:
        sel = f'stage="{leg}", {PIPE}'
        panels.append(ts(f"Leg {leg}: latency and failures",
                         f"Leg '{leg}': p50 / p95 of its retrieval call as timed by the gateway (left), failed calls "
                         f"and answers degraded with {leg}_unavailable per second.", "s",
                         [q(quantile(0.5, metric, "", sel), "p50"), q(quantile(0.95, metric, "", sel), "p95", "B"),
                          q(f'sum(rate(chsr_backend_errors_total{{backend="{leg}"}}{RATE}))', "failures/s", "C"),
                          q(f'sum(rate(chsr_degraded_answers_total{{reason="{leg}_unavailable"}}{RATE}))',
                            "degraded/s", "D")], width=8))
    return "Retrieval legs", panels


def traffic() -> Section:
    return "Traffic and errors", [
        ts("Searches/s by pipeline", "Gateway Search calls per second.", "reqps",
           [q(f"sum by (pipeline) (rate(chsr_requests_total{{{PIPE}}}{RATE}))", "{{pipeline}}")]),
        ts("Error ratio by code", "Non-OK searches over all searches, split by gRPC code.", "percentunit",
           [q(f'sum by (code) (rate(chsr_requests_total{{code!="OK", {PIPE}}}{RATE}))'
              f" / ignoring(code) group_left sum(rate(chsr_requests_total{{{PIPE}}}{RATE}))", "{{code}}")]),
        ts("Cache hit ratio", "Hits over all result-cache events; bypass = cache unavailable.", "percentunit",
           [q(CACHE_HIT_RATIO, "hit ratio")]),
        ts("Cache events/s", "Result-cache hits, misses and bypasses per second.", "ops",
           [q(f"sum by (event) (rate(chsr_cache_events_total{RATE}))", "{{event}}")], stacked=True),
        ts("In-flight requests by service", "gRPC requests being handled right now.", "none",
           [q("sum by (service) (chsr_inflight_requests)", "{{service}}")], width=24),
    ]


def ladder() -> Section:
    share = (f"sum by (step) (increase(chsr_results_total{{{PIPE}}}[$__range]))"
             f" / ignoring(step) group_left sum(increase(chsr_results_total{{{PIPE}}}[$__range]))")
    steps = (bargauge.Panel().title("Results by ladder step").datasource(DS).span(8).height(8)
             .description("Share of returned results per relaxation step (W0 exact scope ... W3 widest) "
                          "over the dashboard time range.").unit("percentunit").min(0).max(1)
             .orientation(common.VizOrientation.HORIZONTAL).display_mode(common.BarGaugeDisplayMode.GRADIENT)
             .reduce_options(ReduceDataOptions().calcs(["lastNotNull"]))
             .with_target(q(share, "{{step}}").instant()))
    return "Curriculum gate and relaxation ladder", [
        ts("Relaxation steps attempted/s", "Ladder rungs the gateway tried, by step; rungs past W0 mean the "
           "exact scope had too few on-topic results.", "ops",
           [q(f"sum by (step) (rate(chsr_relaxation_steps_total{{{PIPE}}}{RATE}))", "{{step}}")],
           width=8, stacked=True),
        steps,
        ts("Leakage-flagged results/s", "Returned results outside the W0 scope (flagged; expected only from "
           "relaxed steps).", "ops",
           [q(f"sum by (pipeline) (rate(chsr_leakage_flagged_results_total{{{PIPE}}}{RATE}))", "{{pipeline}}")],
           width=8),
    ]


def health() -> Section:
    return "Health and degradation", [
        ts("Degraded answers/s by reason", "Answers served in a degraded mode (e.g. dense_unavailable, "
           "cache_unavailable).", "ops",
           [q(f"sum by (reason) (rate(chsr_degraded_answers_total{RATE}))", "{{reason}}")], stacked=True),
        ts("Backend errors/s", "Errors talking to a backend or stage, by backend and reason.", "ops",
           [q(f"sum by (backend, reason) (rate(chsr_backend_errors_total{RATE}))", "{{backend}} {{reason}}")]),
        ts("Backend health", "1 = up. chsr_backend_up: last health probe of each backend; up: Prometheus "
           "scrape of each mesh service.", "none",
           [q("max by (backend) (chsr_backend_up)", "backend {{backend}}"),
            q('max by (service) (up{job=~"$job"})', "scrape {{service}}")]),
        ts("Ingest documents/s", "Documents processed by ingest per backend and outcome.", "ops",
           [q(f"sum by (backend, outcome) (rate(chsr_ingest_documents_total{RATE}))", "{{backend}} {{outcome}}")]),
    ]


def variables() -> list:
    return [
        dashboard.DatasourceVariable("datasource").label("Data source").type("prometheus"),
        dashboard.TextBoxVariable("job").label("Scrape job (regex)").default_value("chsr"),
        (dashboard.QueryVariable("pipeline").label("Pipeline").datasource(DS)
         .query("label_values(chsr_requests_total, pipeline)").refresh(VariableRefresh.ON_TIME_RANGE_CHANGED)
         .sort(VariableSort.ALPHABETICAL_ASC).multi(True).include_all(True).all_value(".*")
         .current(VariableOption(text="All", value="$__all", selected=True))),
    ]


def build_dashboard() -> dashboard.Dashboard:
    board = (dashboard.Dashboard("CHSR retrieval mesh").uid(UID).tags(["chsr", "grpc", "retrieval"])
             .description("Curriculum-gated hybrid retrieval mesh: latency per stage, traffic, errors, cache, "
                          "relaxation ladder, degradation and backend health. Generated by "
                          "deploy/grafana/build_dashboard.py; do not edit the JSON by hand.")
             .editable().refresh("30s").time("now-1h", "now").timezone("browser")
             .tooltip(DashboardCursorSync.CROSSHAIR).variables(variables()))
    for title, panels in (overview(), latency(), legs(), traffic(), ladder(), health()):
        board = board.with_row(dashboard.Row(title).collapsed(False))  # expanded: panels follow the row
        for panel in panels:
            board = board.with_panel(panel)
    return board


def render() -> str:
    model = json.loads(json.dumps(build_dashboard().build(), cls=JSONEncoder))
    next_id = 1
    for panel in model["panels"]:  # stable ids, in layout order
        panel["id"] = next_id
        next_id += 1
    return json.dumps(model, indent=2, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the checked-in JSON is stale")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = args.output.read_text() if args.output.exists() else ""
        if current != text:
            sys.stderr.write(f"{args.output} is stale: run deploy/grafana/build_dashboard.py\n")
            return 1
        return 0
    args.output.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
