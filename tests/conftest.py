import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
TESTS = os.path.dirname(os.path.abspath(__file__))
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: the heaviest tests; the full run (python -m pytest, CI) runs them, "
                                       "the quick loop deselects them with -m 'not slow'")
    # checks run from the command line use the incremental cache: the tests get an empty one of
    # their own (inherited by the processes they start), never the user's
    import tempfile
    config._verifier_cache = tempfile.TemporaryDirectory(prefix="verifier-cache-")
    os.environ["VERIFIER_CACHE"] = config._verifier_cache.name


def pytest_unconfigure(config):
    cache = getattr(config, "_verifier_cache", None)
    if cache is not None:
        cache.cleanup()


# A test that runs long says so on the terminal, so a quiet row of dots is not a hang.
STILL_RUNNING_AFTER = float(os.environ.get("VERIFIER_TEST_NOTICE", "20"))


def pytest_runtest_call(item):
    import threading
    import time
    start = time.monotonic()
    done = threading.Event()

    def notice():
        while not done.wait(STILL_RUNNING_AFTER):
            sys.__stderr__.write(f"\n  … 仍在运行 {item.nodeid}（{time.monotonic() - start:.0f} s）\n")
            sys.__stderr__.flush()
    threading.Thread(target=notice, daemon=True).start()
    item._still_running = done


def pytest_runtest_teardown(item):
    done = getattr(item, "_still_running", None)
    if done is not None:
        done.set()
