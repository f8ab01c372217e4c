"""The query embeddings one request has made, so its dense calls encode each query text once.

The evidence probe asks every leg for the query's vector (``RetrieveRequest.return_query_vector``); a
dense leg returns the one it searched with, and the ladder's calls for the same leg and the same query
text send it back (``RetrieveRequest.query_vector``) instead of having the leg encode the query again.
An expanded query (pipeline E) is another text: its first call returns its own vector for the rest of
the ladder. One object per request, filled only from the thread that collects the legs' answers.
"""

from __future__ import annotations

from collections.abc import Sequence

from chsr.v1 import retriever_pb2


class QueryVectors:
    def __init__(self) -> None:
        self._by_call: dict[tuple[str, str], Sequence[float]] = {}

    def prepare(self, leg: str, request: retriever_pb2.RetrieveRequest) -> None:
        """Carry a known vector into ``request``, else ask the leg to return the one it makes."""
        vector = self._by_call.get((leg, request.query))
        if vector is not None:
            request.query_vector.extend(vector)
        else:
            request.return_query_vector = True

    def learn(self, leg: str, query: str, response: retriever_pb2.RetrieveResponse) -> None:
        if response.query_vector:
            self._by_call.setdefault((leg, query), list(response.query_vector))
