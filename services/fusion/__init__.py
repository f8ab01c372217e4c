"""Fusion service: rank and score fusion with calibration telemetry (seeds 002 and 003).

Logic lives in small numpy modules (``normalize``, ``rrf``, ``linear``, ``calibration``,
``entropy``) composed by :func:`services.fusion.modes.fuse`; ``servicer`` is the gRPC adapter.
"""
