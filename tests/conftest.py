import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
TESTS = os.path.dirname(os.path.abspath(__file__))
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: heavier variants (deselect with -m 'not slow')")
    # checks run from the command line use the incremental cache: the tests get an empty one of
    # their own (inherited by the processes they start), never the user's
    import tempfile
    config._verifier_cache = tempfile.TemporaryDirectory(prefix="verifier-cache-")
    os.environ["VERIFIER_CACHE"] = config._verifier_cache.name


def pytest_unconfigure(config):
    cache = getattr(config, "_verifier_cache", None)
    if cache is not None:
        cache.cleanup()
