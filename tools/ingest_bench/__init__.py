"""Offline ingest benchmark: boundary P/R/F1, cover-page metadata accuracy, throughput (issue 11)."""
