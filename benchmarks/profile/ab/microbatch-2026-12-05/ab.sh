#!/bin/bash
# A/B: dense micro-batching on vs off, pipeline C at 1 and 8 clients, alternating
cd /work/main
export CHSR_ES_INDEX=chsr-load CHSR_WEAVIATE_COLLECTION=ChsrLoad CHSR_REDIS_URL=redis://127.0.0.1:16379/3 OMP_WAIT_POLICY=PASSIVE
for round in 1 2; do
for mb in true false; do
  pkill -f "chsr up --backend engines" ; sleep 2; pkill -f "services\.\|gateway\.server"; sleep 1
  CHSR_QUERY_MICROBATCH=$mb setsid .venv/bin/chsr up --backend engines --port 58051 --metrics-base 58059 > /tmp/esmesh.log 2>&1 &
  for i in $(seq 1 120); do grep -q "^chsr mesh up" /tmp/esmesh.log && break; sleep 1; done
  .venv/bin/chsr bench load --gateway 127.0.0.1:58051 --backend engines --pipelines C,E --concurrency 1,8 --duration 10 --queries mixed --no-cache-hit --out /tmp/mb/$mb-$round > /dev/null 2>&1
  echo "== mb=$mb round=$round"; grep -E "^\| (C|E) \| (1|8) \|" /tmp/mb/$mb-$round/README.md | head -4
done; done
pkill -f "chsr up --backend engines"
