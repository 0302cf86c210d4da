"""scripts/pg_test_cluster.sh refuses, by name, a folder that already holds a cluster."""

import shutil
import time
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


def _postmaster(folder: Path) -> int:
    return int((folder / "data" / "postmaster.pid").read_text().split()[0])


@pytest.mark.slow  # starts two PostgreSQL servers
@pytest.mark.skipif(not list(Path("/usr/lib/postgresql").glob("*/bin")) or shutil.which("bash") is None,
                    reason="Debian's postgresql package is not installed")
def test_a_cluster_whose_owner_was_killed_is_stopped_by_the_next_start():
    """.ci/run killed with SIGKILL never ran its trap: its PostgreSQL server ran on for ever. A cluster started
    with an owner pid records it; the next start next to it stops the server of an owner that is gone, and
    leaves alone one whose owner lives and one without an owner."""
    import os
    import signal
    import tempfile

    parent = Path(tempfile.mkdtemp(prefix="toolcall-pg-reap-"))
    os.chmod(parent, 0o755)  # as root the servers run as postgres, which must reach their folders
    owner = subprocess.Popen(["sleep", "600"])
    orphan, owned, ownerless, new = (parent / n for n in ("orphan", "owned", "ownerless", "new"))
    try:
        for folder, pid in ((orphan, owner.pid), (owned, os.getpid()), (ownerless, None)):
            start = subprocess.run(["bash", str(SCRIPT), "start", str(folder), *([str(pid)] if pid else [])],
                                   capture_output=True, text=True, timeout=120)
            assert start.returncode == 0, start.stderr
        server = _postmaster(orphan)
        owner.send_signal(signal.SIGKILL)  # the run is killed; its trap does not run
        owner.wait(10)
        start = subprocess.run(["bash", str(SCRIPT), "start", str(new)], capture_output=True, text=True, timeout=120)
        assert start.returncode == 0, start.stderr
        assert start.stderr == (f"pg_test_cluster: stopped the cluster in {orphan}, left running by process "
                                f"{owner.pid} (gone)\n")
        assert not orphan.exists()
        deadline = time.monotonic() + 10
        while _alive(server) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _alive(server)
        assert _alive(_postmaster(owned)) and _alive(_postmaster(ownerless))
    finally:
        owner.kill()
        for folder in (orphan, owned, ownerless, new):
            subprocess.run(["bash", str(SCRIPT), "stop", str(folder)], capture_output=True, timeout=60)
        shutil.rmtree(parent, ignore_errors=True)


def _alive(pid: int) -> bool:
    import psutil
    return psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
