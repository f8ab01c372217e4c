#!/usr/bin/env bash
# The load benchmark (benchmarks/load's command) on engines of our own, default configuration:
#   bash benchmarks/fast-defaults/run_load.sh single OUT [extra chsr bench load args]
#       single-node Elasticsearch + Weaviate (cluster "load1", ports shifted by 4000) and a Redis
#   bash benchmarks/fast-defaults/run_load.sh cluster OUT [...]
#       the 3-node clusters of deploy/local/clusters.sh (started if needed; left running)
# The mesh is started by the benchmark (--start-mesh) and ingests SciFact + the curriculum corpus
# (31.7k chunks, embeddings from the cache). Set CHSR_QUERY_ENCODER=torch for the "before" row.
set -euo pipefail
cd "$(dirname "$0")/../.."
MODE="${1:?single|cluster}"
OUT="${2:?output folder}"
shift 2
PY="${PY:-.venv/bin/python}"
DATA="${CHSR_SHARED_DATA:-../shared/data}"
case "$MODE" in
  single)
    export CHSR_CLUSTER_NAME=load1 CHSR_CLUSTER_NODES=1 CHSR_CLUSTER_PORT_SHIFT=4000 CHSR_CLUSTER_ES_HEAP=1g
    nice -n 10 deploy/local/clusters.sh start es weaviate redis
    env_lines=$(deploy/local/clusters.sh env | grep -v SENTINEL)   # one Redis, no Sentinel: the default shape
    redis_port=$(deploy/local/clusters.sh env | sed -n 's/^CHSR_REDIS_SENTINELS=127.0.0.1:\([0-9]*\),.*/\1/p')
    export CHSR_REDIS_URL="redis://127.0.0.1:$((redis_port - 100))/0" ;;
  cluster)
    nice -n 10 deploy/local/clusters.sh start all
    env_lines=$(deploy/local/clusters.sh env)
    export CHSR_REDIS_URL="redis://127.0.0.1:26379/0" ;;
  *) echo "mode: single|cluster" >&2; exit 2 ;;
esac
while read -r line; do export "${line?}"; done <<<"$env_lines"
export CHSR_ES_INDEX=chsr-load CHSR_WEAVIATE_COLLECTION=ChsrLoad OMP_WAIT_POLICY=PASSIVE
# no query-vector LRU: a "cache miss" run hits no cache (benchmarks/load/run.sh says why)
export CHSR_QUERY_VECTOR_CACHE="${CHSR_QUERY_VECTOR_CACHE:-0}"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
PYTHONPATH=. nice -n 10 "$PY" -m tools.cli.main bench load --start-mesh --backend engines \
  --corpus "$DATA/scifact/corpus.jsonl" --corpus "$DATA/curriculum/corpus.jsonl" \
  --pipelines C,D,E --concurrency 1,8 --duration 8 --queries mixed --out "$OUT" "$@"
