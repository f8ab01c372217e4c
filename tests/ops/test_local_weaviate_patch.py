"""The Weaviate listen-host patch (deploy/local/weaviate.sh) adds the "os" import once, whatever the import block.

A fresh machine's build once failed with `"os" redeclared in this block`: the check for an existing
"os" import piped sed into `grep -q`, whose early exit could SIGPIPE sed, and under `pipefail` the
pipeline then read as "no match". The fixture's import block is far larger than a pipe buffer with
"os" first, which made the old check fail every time.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.ops

ROOT = Path(__file__).resolve().parents[2]
PATCH_FILES = ["adapters/handlers/grpc/server.go", "adapters/handlers/rest/clusterapi/grpc/server.go",
               "adapters/handlers/rest/clusterapi/serve.go", "adapters/handlers/rest/configure_api.go"]


def _go_file(with_os: bool) -> str:
    padding = "".join(f'\t"example.com/pkg{i:05d}"\n' for i in range(5000))
    imports = ('\t"os"\n' if with_os else "") + '\t"fmt"\n' + padding
    return f'package x\n\nimport (\n{imports})\n\nfunc listen(port int) string {{ return fmt.Sprintf(":%d", port) }}\n'


def _patch(src: Path) -> subprocess.CompletedProcess:
    script = f'. "{ROOT}/deploy/local/weaviate.sh"; WV_SRC="$1"; wv_patch_listen_host'
    return subprocess.run(["bash", "-c", script, "_", str(src)], capture_output=True, text=True, timeout=60)


def test_patch_adds_the_os_import_exactly_once(tmp_path: Path) -> None:
    for i, rel in enumerate(PATCH_FILES):
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_go_file(with_os=i % 2 == 0))
    done = _patch(tmp_path)
    assert done.returncode == 0, done.stderr
    for rel in PATCH_FILES:
        text = (tmp_path / rel).read_text()
        count = text.count('\t"os"\n')
        assert count == 1, f"{rel}: the os import appears {count} times"
        assert 'fmt.Sprintf(os.Getenv("CHSR_LISTEN_HOST")+":%d"' in text, rel
    assert (tmp_path / ".chsr-patched").exists()
