import subprocess
import sys
from pathlib import Path

import pytest
from tools.demo import DEMO_DIR

pytestmark = pytest.mark.unit
DEMO = DEMO_DIR


def test_demo_files_validate():
    proc = subprocess.run([sys.executable, str(DEMO / "validate.py")], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_validator_catches_a_dangling_qrel(tmp_path):
    for f in DEMO.iterdir():
        if f.is_file():
            (tmp_path / f.name).write_bytes(f.read_bytes())
    with (tmp_path / "qrels.tsv").open("a") as fh:
        fh.write("q-missing\tdemo:does_not_exist\t2\n")
    proc = subprocess.run([sys.executable, str(DEMO / "validate.py"), "--dir", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
