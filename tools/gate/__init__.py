"""Gate tooling (issue 14): generated scope queries, evidence-model calibration and offline evaluation."""
