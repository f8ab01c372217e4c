"""Project tooling that sits above the services (document generator, benchmarks)."""
