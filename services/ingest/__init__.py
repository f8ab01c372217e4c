"""Ingest service: files (PDF, DOCX, Markdown, HTML, text) -> curriculum-aware chunks (issue 11)."""
