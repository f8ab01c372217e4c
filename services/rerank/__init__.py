"""Rerank service: curriculum reranker, Jaccard dedup, MMR and a local cross-encoder.

Stages are plain functions over :class:`services.rerank.items.RerankItem` lists composed by
:func:`services.rerank.chain.rerank`; ``servicer`` is the gRPC adapter.
"""
