"""deploy/serve_class.py and the signals an operator (or a script) sends: what stops the class, what only gets a
line in the log, and how a process a signal ended is named (break-it pass brk19ops)."""

import signal
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "deploy"))
import serve_class  # noqa: E402

#: A launcher whose set-up checks pass and whose Streamlit processes are replaced by ``STEP`` (Python run where
#: start_children would start them), in a process of its own: a signal that kills it kills only it.
_LAUNCHER = """
import os, signal, sys, tempfile, time
sys.path.insert(0, 'deploy')
import serve_class
if serve_class.find_nginx() is None:
    print('no nginx'); sys.exit(0)
tempfile.tempdir = sys.argv[1]
serve_class.bind_problem = lambda address, port: None
serve_class.sqlite_problem = lambda: None
serve_class.secrets_database_url = lambda path=None: ''
serve_class.everyone_can_enter = lambda folder: True
real_start = serve_class.start_children
def start_children(children):
    STEP
serve_class.start_children = start_children
sys.exit(serve_class.main(['--processes', '1', '--port', '18531', '--first-backend-port', '18631']))
"""


def _launcher(tmp_path: Path, step: str) -> subprocess.CompletedProcess:
    code = _LAUNCHER.replace("STEP", step)
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=REPO, capture_output=True, text=True,
                          timeout=120)
    if done.stdout == "no nginx\n":
        pytest.skip("nginx is not installed")
    return done


@pytest.mark.parametrize("sig", ["SIGUSR1", "SIGUSR2", "SIGALRM"])
def test_a_signal_that_is_no_stop_signal_is_logged_and_the_class_goes_on(tmp_path, sig):
    """SIGUSR1 (nginx's "reopen the logs") ended the launcher at once, without a line; its processes followed it
    (their death signal), and its run folder was left behind."""
    done = _launcher(tmp_path, f"os.kill(os.getpid(), signal.{sig}); os.kill(os.getpid(), signal.{sig}); "
                               "time.sleep(0.2); real_start([]); print('still serving', flush=True); "
                               "raise KeyboardInterrupt")
    assert done.returncode == 130, (done.returncode, done.stderr)
    assert done.stdout == "still serving\n"
    lines = [line.split("] ", 1)[-1] for line in done.stderr.splitlines()]
    assert lines[1:] == [f"{sig} received and ignored: it does not stop the class (Ctrl+C, SIGTERM, SIGHUP or "
                         "SIGQUIT do)",  # once for the two
                         "interrupted before the class started; every process it had started is stopped"]
    assert list(tmp_path.iterdir()) == []  # the run folder is removed


def test_ctrl_backslash_stops_the_class_as_ctrl_c_does(tmp_path):
    """SIGQUIT (Ctrl+\\) ended the launcher alone, with a core dump, leaving its run folder behind."""
    done = _launcher(tmp_path, "os.kill(os.getpid(), signal.SIGQUIT); time.sleep(5); print('not stopped')")
    assert done.returncode == 130, (done.returncode, done.stderr)
    assert done.stdout == ""
    assert done.stderr.splitlines()[1:] == [
        "interrupted before the class started; every process it had started is stopped"]
    assert list(tmp_path.iterdir()) == []


def test_a_second_stop_signal_during_the_stop_does_not_cut_it_short():
    """TERM twice fast: the second landed in the cleanup before it ignored stop signals, and ended it there (its
    processes left to their death signal, "nothing is running" printed while nginx ran)."""
    serve_class._stopping = False
    with pytest.raises(KeyboardInterrupt):
        serve_class._on_signal(signal.SIGTERM, None)
    assert serve_class._on_signal(signal.SIGTERM, None) is None  # the stop under way goes on
    assert serve_class._on_signal(signal.SIGINT, None) is None
    serve_class._stopping = False


def test_ctrl_c_is_handled_by_the_launcher_once_like_the_other_stop_signals(tmp_path):
    done = _launcher(tmp_path, "print(signal.getsignal(signal.SIGINT) is serve_class._on_signal, "
                               "sorted(s.name for s in serve_class.stop_signals()), flush=True); "
                               "raise KeyboardInterrupt")
    assert done.stdout == "True ['SIGHUP', 'SIGQUIT', 'SIGTERM']\n", done.stderr


@pytest.mark.parametrize("argv, words", [
    (["-c", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"], "was killed by SIGKILL"),
    (["-c", "import os, signal; os.kill(os.getpid(), signal.SIGHUP)"], "was killed by SIGHUP"),
    (["-c", "raise SystemExit(3)"], "exited (code 3)"),
])
def test_a_process_a_signal_ended_is_said_to_be_killed_by_it_not_to_exit_with_a_negative_code(capsys, argv, words):
    """"exited (code -9)" for the OOM killer's SIGKILL, "exited (code -1)" for a SIGHUP: Python's returncode,
    which no shell shows (a shell says 137)."""
    child = serve_class.Child("web 1", [sys.executable, *argv], "http://127.0.0.1:1/")
    child.start().wait(30)
    child.waiting_health = False  # it had served
    child.supervise(100.0)
    err = capsys.readouterr().err
    assert err.split("] ", 1)[1] == f"web 1 {words}; restarting it; the other processes keep serving\n"


def test_a_crash_loop_summary_names_the_killing_signal():
    assert serve_class._last(-9) == "killed by SIGKILL"
    assert serve_class._last(1) == "exit code 1"
    assert serve_class.ended(-15) == "was killed by SIGTERM"
    assert serve_class.ended(-200) == "was killed by signal 200"
    assert serve_class.ended(0) == "exited with code 0"
