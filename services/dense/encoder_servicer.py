"""``chsr.v1.EncoderService``: the dense server's encoder, for tools that need its vectors."""

from __future__ import annotations

from typing import Callable, Sequence

import grpc
import numpy as np

from chsr.errors import InvalidArgument
from chsr.v1 import encoder_pb2, encoder_pb2_grpc
from services.dense.encoder import Encoder

MAX_ENCODE_TEXTS = 256


class EncoderServicer(encoder_pb2_grpc.EncoderServiceServicer):
    def __init__(self, encoder: Encoder, encode_queries: Callable[[Sequence[str]], np.ndarray]) -> None:
        self.encoder = encoder
        self.encode_queries = encode_queries

    def Encode(self, request: encoder_pb2.EncodeRequest, context: grpc.ServicerContext) -> encoder_pb2.EncodeResponse:
        if not request.texts:
            raise InvalidArgument("texts", "must not be empty")
        if len(request.texts) > MAX_ENCODE_TEXTS:
            raise InvalidArgument("texts", f"at most {MAX_ENCODE_TEXTS} per call, got {len(request.texts)}")
        if request.is_query:
            vecs = self.encode_queries(list(request.texts))
        else:
            vecs, _ = self.encoder.encode_documents(list(request.texts))
        resp = encoder_pb2.EncodeResponse(model=self.encoder.model_id)
        for v in vecs:
            resp.vectors.add(values=v.tolist())
        return resp


def register_encoder(server: grpc.Server, servicer: EncoderServicer) -> str:
    encoder_pb2_grpc.add_EncoderServiceServicer_to_server(servicer, server)
    return encoder_pb2.DESCRIPTOR.services_by_name["EncoderService"].full_name
