"""scripts/pg_test_cluster.sh refuses, by name, a folder that already holds a cluster."""

import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "pg_test_cluster.sh"


@pytest.mark.skipif(not list(Path("/usr/lib/postgresql").glob("*/bin")) or shutil.which("bash") is None,
                    reason="Debian's postgresql package is not installed")
def test_start_on_a_folder_with_a_cluster_names_the_folder_and_the_way_out(tmp_path):
    (tmp_path / "data").mkdir()
    done = subprocess.run(["bash", str(SCRIPT), "start", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == (f"pg_test_cluster: {tmp_path} already holds a cluster; "
                           f"stop it first: scripts/pg_test_cluster.sh stop {tmp_path}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]
