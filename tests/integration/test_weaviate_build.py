"""The local Weaviate build leaves out the cloud-SDK modules (deploy/local/weaviate.sh, wv_patch_trim_modules).

Run on the pinned upstream ``configure_api.go`` from the Go module cache (the engines' install downloaded it, so
this runs in the engines lane): every trimmed module's import is gone and its name survives only as a literal,
the other modules are untouched, and a source that no longer has a line the patch edits stops the build instead
of building something else.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.integration

WEAVIATE_SH = REPO_ROOT / "deploy" / "local" / "weaviate.sh"
CONFIGURE_API = Path("adapters/handlers/rest/configure_api.go")
TRIMMED = ("backup-azure", "backup-gcs", "generative-aws", "multi2vec-aws", "text2vec-aws", "usage-gcs", "usage-s3")


def _pinned_source() -> Path:
    if shutil.which("go") is None:
        pytest.skip("no Go toolchain on PATH (deploy/local builds Weaviate with it)")
    version = re.search(r'CHSR_WEAVIATE_VERSION:-(v[0-9.]+)', (REPO_ROOT / "deploy/local/versions.env").read_text())
    assert version, "versions.env has no CHSR_WEAVIATE_VERSION"
    done = subprocess.run(["go", "mod", "download", "-json", f"github.com/weaviate/weaviate@{version.group(1)}"],
                          capture_output=True, text=True, timeout=300, cwd="/")
    assert done.returncode == 0, done.stderr[-2000:]
    return Path(json.loads(done.stdout)["Dir"]) / CONFIGURE_API


def _trim(src_root: Path) -> subprocess.CompletedProcess[str]:
    script = f'. "{WEAVIATE_SH}"; WV_SRC="{src_root}"; wv_patch_trim_modules'
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)


def test_the_cloud_sdk_modules_are_left_out_and_named_only_as_literals(tmp_path: Path) -> None:
    upstream = _pinned_source()
    target = tmp_path / CONFIGURE_API
    target.parent.mkdir(parents=True)
    shutil.copy(upstream, target)
    target.chmod(0o644)
    done = _trim(tmp_path)
    assert done.returncode == 0, done.stderr
    before, after = upstream.read_text(), target.read_text()
    for name in TRIMMED:
        assert f'"github.com/weaviate/weaviate/modules/{name}"' in before
        assert f'"github.com/weaviate/weaviate/modules/{name}"' not in after, name
        assert f'WithField("module", "{name}").Warn(' in after, name  # its registration is a logged skip
    assert '"github.com/weaviate/weaviate/modules/backup-s3"' in after  # minio-based modules stay
    assert '"github.com/weaviate/weaviate/modules/offload-s3"' in after
    assert (tmp_path / ".chsr-trimmed").exists()


def test_a_source_without_the_edited_lines_stops_the_build(tmp_path: Path) -> None:
    upstream = _pinned_source()
    target = tmp_path / CONFIGURE_API
    target.parent.mkdir(parents=True)
    text = upstream.read_text().replace("appState.Modules.Register(modusages3.New())", "register(modusages3.New())")
    target.write_text(text)
    done = _trim(tmp_path)
    assert done.returncode != 0
    assert "registration of usage-s3 not found" in done.stderr
    assert not (tmp_path / ".chsr-trimmed").exists()
