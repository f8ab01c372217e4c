"""Document-set generator for the ingest benchmark (issue 11, "Measure").

Builds exam papers with cover pages, their mark schemes, textbook chapters and worksheets
from the real exam material in ``../shared/data/curriculum/corpus.jsonl`` (read by path,
never copied), typeset as PDF with Typst and also written as DOCX, Markdown and HTML, with
ground truth (question boundaries, cover-page fields, source corpus ids) beside them.
"""
