"""Scope extraction, admissibility filter and relaxation ladder (issue 5)."""
