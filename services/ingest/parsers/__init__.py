"""One parser per format; :func:`services.ingest.parsers.dispatch.parse_bytes` picks one."""
