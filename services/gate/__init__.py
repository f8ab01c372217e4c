"""Scope extraction, admissibility filter and relaxation ladder."""
