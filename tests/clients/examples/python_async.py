import asyncio

from chsr.client import AsyncGatewayClient
from chsr.documents import Doc


async def main() -> None:
    async with AsyncGatewayClient(timeout=5) as client:
        resp, stats = await asyncio.gather(
            client.search("photosynthesis in plants", k=3, pipeline="rrf"), client.stats())
        print([r.doc_id for r in resp.results], [(b.backend, b.documents) for b in stats.backends])

        docs = [Doc(id=f"readme-async-{i}", text=f"Osmosis note {i}.") for i in range(2)]
        async for ack in client.ingest_progress(docs, batch_size=1):
            print("stored", ack.batches, "batches")
        print("deleted", (await client.delete([d.id for d in docs])).deleted)


asyncio.run(main())
