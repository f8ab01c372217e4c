"""Knowledge-graph retrieval leg (seed 003 #14): entities and relations extracted at ingest, IDF-weighted activation, 1-hop, Louvain fallback."""
