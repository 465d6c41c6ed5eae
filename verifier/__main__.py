import os
import sys

if os.environ.get("PYTHONHASHSEED") != "0":
    # the same answers on every run: start again with one string-hash seed (verifier.engine)
    os.execve(sys.executable, [sys.executable, "-m", "verifier", *sys.argv[1:]], {**os.environ, "PYTHONHASHSEED": "0"})

from .cli import main  # noqa: E402

try:
    code = main()
    sys.stdout.flush()
except BrokenPipeError:  # the reader went away (e.g. `| head`): not an error of ours
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    code = 0
raise SystemExit(code)
