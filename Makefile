PY ?= .venv/bin/python
PROTO_SRC := $(wildcard protos/chsr/v1/*.proto)

.PHONY: protos check-protos test unit fast lint images up lock

## Regenerate gRPC stubs from protos/ into chsr/v1/ (the one command).
protos:
	$(PY) -m grpc_tools.protoc -I protos --python_out=. --pyi_out=. --grpc_python_out=. $(PROTO_SRC)

## Fail when the checked-in stubs differ from a fresh generation.
check-protos:
	bash scripts/check_protos.sh

## Re-pin constraints.txt from the current .venv (after a deliberate upgrade; then make protos).
lock:
	{ sed -n '1,/^# Regenerate/p' constraints.txt; $(PY) -m pip freeze --exclude-editable | grep -v '^-e'; } > constraints.txt.new && mv constraints.txt.new constraints.txt

test:
	bash scripts/setup_and_test.sh

## The fast command: pure-logic unit tests, no servers, no engines (~1 min).
unit:
	$(PY) -m pytest -m unit -q

## The fast tier: unit + end-to-end on the embedded default, side by side (~2 min, no engines).
fast:
	bash scripts/fast_tests.sh

## Layering contracts (import-linter) and stub freshness.
lint: check-protos
	.venv/bin/lint-imports

## One image per server (needs a Docker engine; none runs on the development machines).
images:
	for s in gateway gate sparse dense fusion rerank ingest graph; do docker build --build-arg SERVICE=$$s -t chsr/$$s:0.2.0 . || exit 1; done

up:
	.venv/bin/chsr up
