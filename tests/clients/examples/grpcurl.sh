# what the gateway serves, through server reflection
grpcurl -plaintext "$GATEWAY" list
grpcurl -plaintext "$GATEWAY" describe chsr.v1.SearchRequest

# search: no deadline needed (the server then spends at most CHSR_DEFAULT_DEADLINE_MS), or -max-time
grpcurl -plaintext -d '{"query":"acceleration of a car, grade 10 physics","k":3,"pipeline":"E"}' \
  "$GATEWAY" chsr.v1.GatewayService/Search
grpcurl -plaintext -max-time 5 -d '{"query":"photosynthesis","k":3,"hints":{"subject":["biology"]}}' \
  "$GATEWAY" chsr.v1.GatewayService/Search

# ingest: one JSON message per batch on stdin, one acknowledgement per stored batch; writes need the token
printf '%s\n' '{"documents":[{"id":"readme-1","text":"Momentum is mass times velocity."}]}' \
              '{"documents":[{"id":"readme-2","text":"Impulse changes momentum."}]}' |
  grpcurl -plaintext -expand-headers -H 'authorization: Bearer ${CHSR_INGEST_TOKEN}' -d @ \
    "$GATEWAY" chsr.v1.GatewayService/IngestWithProgress
grpcurl -plaintext -expand-headers -H 'authorization: Bearer ${CHSR_INGEST_TOKEN}' \
  -d '{"doc_ids":["readme-1","readme-2"]}' "$GATEWAY" chsr.v1.GatewayService/Delete

# a bad request: Code: InvalidArgument, Message: k: must be in 1..100, got 0 (-v shows chsr-field: k)
grpcurl -plaintext -v -d '{"query":"acceleration","k":0}' "$GATEWAY" chsr.v1.GatewayService/Search
