"""What a long check is doing, on stderr: which analysis (by its Chinese name), how many of its
questions are done where it says, how many solver queries so far, and the elapsed time.

A live line (rich) on a terminal; nothing when stderr is not one, unless asked (force=True),
then plain lines a log keeps. The engine's hooks, all optional for a plain callable:
  progress(kind)       an analysis starts in this process
  progress.bind(cx)    a check context exists (Context calls it): queries are read from its solver
  progress.tick(d, n)  d of n questions of the current analysis are done (Context.tick)
  progress.elsewhere(names)  these analyses run in another process (shown as running, not counted)
  progress.group_done()      this process has run its analyses
"""
from __future__ import annotations

import sys
import threading
import time

from rich.console import Console
from rich.progress import BarColumn, Progress as RichProgress, ProgressColumn, SpinnerColumn, TextColumn, \
    TimeElapsedColumn
from rich.text import Text

from .reports.text_report import KIND_ZH

PLAIN_EVERY = 15.0   # a plain line at least this often while an analysis runs (a log is never silent long)


def kind_name(kind: str, lang: str = "zh") -> str:
    return kind if lang == "en" else KIND_ZH.get(kind, kind)


def _isatty(stream) -> bool:
    return hasattr(stream, "isatty") and stream.isatty()


class Progress:
    """Use as a context manager around check(); pass it as check(progress=...)."""

    def __init__(self, stream=None, force: bool = False, quiet: bool = False, lang: str = "zh",
                 title: str = "", detail: bool = True):
        """force: plain lines even when the stream is not a terminal; detail False: of those,
        only the first and the last (one pair per ruleset in `baseline`)."""
        self.stream = stream or sys.stderr
        self.lang = lang
        self.title = title
        self.live = not quiet and _isatty(self.stream)
        self.plain = not quiet and not self.live and force
        self.detail = detail
        self.finished = False
        self.t0 = time.monotonic()
        self.kind: str | None = None
        self.solver = None
        self.queries_before = 0       # queries of the solvers of finished contexts
        self.done = self.total = 0
        self.last_plain = 0.0
        self._rich: RichProgress | None = None
        self._task = self._other = None
        self._stop = threading.Event()
        self._beat: threading.Thread | None = None
        self.other = ""               # what runs in another process, if anything

    # -- context manager ----------------------------------------------------------------------
    def __enter__(self) -> "Progress":
        self.t0 = time.monotonic()
        if self.live:
            con = Console(file=self.stream, highlight=False, markup=False, emoji=False)
            self._rich = RichProgress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(bar_width=20),
                                      _Detail(self), TimeElapsedColumn(), console=con, transient=True,
                                      refresh_per_second=4)
            self._rich.start()
            self._task = self._rich.add_task(self._describe(), total=None)
        elif self.plain:
            self._say(self._describe(), always=True)
            if self.detail:
                self._beat = threading.Thread(target=self._heartbeat, daemon=True)
                self._beat.start()
        return self

    def _heartbeat(self) -> None:
        while not self._stop.wait(1.0):
            if time.monotonic() - self.last_plain >= PLAIN_EVERY:
                self._say(self._describe())

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._beat is not None:
            self._beat.join()
        if self._rich is not None:
            self._rich.stop()
            self._rich = None
        elif self.plain and exc[0] is None:
            self.finished = True
            self._say(self._describe(), always=True)

    # -- engine hooks -------------------------------------------------------------------------
    def __call__(self, kind: str) -> None:
        self.kind, self.done, self.total = kind, 0, 0
        self._update()
        if self.plain:
            self._say(self._describe())

    def bind(self, cx) -> None:
        if self.solver is not None:
            self.queries_before += self.solver.stats.queries
        self.solver = cx.solver

    def tick(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        self._update()

    def elsewhere(self, names) -> None:
        kinds = sorted({n.partition("@")[0] for n in names}, key=lambda k: list(KIND_ZH).index(k) if k in KIND_ZH else 99)
        what = "、".join(kind_name(k, self.lang) for k in kinds)
        self.other = f"in another process: {what}" if self.lang == "en" else f"另一进程：{what}"
        if self._rich is not None:
            self._other = self._rich.add_task(self.other, total=None)
        elif self.plain:
            self._say(self.other)

    def group_done(self) -> None:
        self.kind, self.done, self.total = None, 0, 0
        self._update()
        if self.plain and self.other:
            self._say(self._describe())

    # -- text ---------------------------------------------------------------------------------
    def queries(self) -> int:
        return self.queries_before + (self.solver.stats.queries if self.solver is not None else 0)

    def _describe(self) -> str:
        en = self.lang == "en"
        if self.finished:
            text = "done" if en else "完成"
        elif self.kind is not None:
            text = kind_name(self.kind, self.lang)
        elif self.solver is None:
            text = "building the model and derived invariants" if en else "建立模型、推导不变式"
        elif self.other:
            text = "waiting for the other process" if en else "等待另一进程"
        else:
            text = "writing the report" if en else "生成报告"
        if self.title:
            return f"{self.title}: {text}" if en else f"{self.title}：{text}"
        return text

    def counts(self) -> str:
        """问题 d/n（when the analysis says），查询 q 次"""
        en = self.lang == "en"
        parts = []
        if self.total:
            parts.append(f"{self.done}/{self.total} questions" if en else f"问题 {self.done}/{self.total}")
        parts.append(f"{self.queries()} queries" if en else f"查询 {self.queries()} 次")
        return ", ".join(parts) if en else "，".join(parts)

    def _update(self) -> None:
        if self._rich is not None and self._task is not None:
            self._rich.update(self._task, description=self._describe(), total=self.total or None,
                              completed=self.done)

    def _say(self, text: str, always: bool = False) -> None:
        if not (self.detail or always):
            return
        self.last_plain = time.monotonic()
        paren = ("  (", ")") if self.lang == "en" else ("（", "）")
        print(f"[{time.monotonic() - self.t0:6.1f} s] {text}{paren[0]}{self.counts()}{paren[1]}",
              file=self.stream, flush=True)


class _Detail(ProgressColumn):
    """Questions done (when the analysis says) and solver queries, read at each refresh."""

    def __init__(self, owner: Progress):
        super().__init__()
        self.owner = owner

    def render(self, task) -> Text:
        o = self.owner
        if task.id != o._task:
            return Text("")
        return Text(o.counts(), style="dim")
