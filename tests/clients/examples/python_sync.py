from chsr.client import GatewayClient, InvalidArgumentError
from chsr.documents import Doc

# target and token default to CHSR_GATEWAY (127.0.0.1:50051) and CHSR_INGEST_TOKEN
with GatewayClient(timeout=5) as client:
    resp = client.search("acceleration of a car, grade 10 physics", k=3, pipeline="E",
                         hints={"level": "grade_10"})
    for r in resp.results:
        print(r.rank, r.doc_id, round(r.score, 3), r.metadata.paper)

    try:
        client.search("acceleration", k=0)
    except InvalidArgumentError as exc:
        print(exc.code().name, exc.field, exc.details())  # INVALID_ARGUMENT k k: must be in 1..100, got 0

    docs = [Doc(id=f"readme-sync-{i}", text=f"Momentum note {i}.", metadata={"subject": "physics"})
            for i in range(3)]
    for ack in client.ingest_progress(docs, batch_size=2):  # one acknowledgement per stored batch,
        if ack.HasField("summary"):                          # then one with the summary
            print("indexed", ack.summary.indexed, "of", ack.summary.received)
        else:
            print("stored", ack.batches, "batches,", ack.received, "documents")
    print("deleted", client.delete([d.id for d in docs]).deleted)
