"""Comparisons run from the page of `rulekit serve`: each in a worker thread of its own, owned by
one browser (the session cookie), bounded in size and in number. The work is the library's
`compare` run part after part in this process, so the result is the CLI's for the same seed and
options, and the rounds done after each part drive the page's progress bar."""

from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from rulekit import ir
from rulekit.errors import RulekitError, UsageError, did_you_mean
from rulekit.web.api import Refused, browser, guarded, new_browser, read_json, with_cookie
from rulekit.web.catalog import Catalog

STATIC = Path(__file__).resolve().parent / "static"
ROUNDS = (10, 20_000)  # rounds of each variant from the page; more: the CLI's `compare`
SEATS = (2, 8)
SEEDS = (0, 2**31 - 1)
BOTS = ("random", "greedy", "rulewise")  # the quick bots: a search bot would hold a worker long
DEFAULT_BOT = "rulewise"
RUNNING = 2  # comparisons running at once, over every browser
ALIVE = 4  # worker threads at once, cancelled ones still finishing their part included
KEPT = 3  # a browser's comparisons kept; the oldest finished are dropped beyond
BROWSERS = 64  # the least recently seen browser's comparisons are dropped beyond
TEXT_NAMES = {"a": "a-edited.rk", "b": "b-edited.rk"}  # rule text from the page, in messages
TIMINGS = ("seconds", "rounds_per_second")  # left out of the JSON, as `--no-timings` does
REPORT_POLICY = (  # the report is data: its own style, inline images, no fetching, no forms
    "sandbox allow-scripts; default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
    "script-src 'unsafe-inline'"
)

_DRAWING = threading.Lock()  # matplotlib's pyplot is not thread-safe; guards the reports made


class Cancelled(Exception):
    """Raised between two parts of a cancelled comparison, to end its worker."""


def _unknown() -> Refused:
    return Refused(404, "no such comparison in this browser")


# ---------------------------------------------------------------- what the page asks for
@dataclass(frozen=True)
class Ask:
    """A comparison the page asked for, checked: the variants loaded, the sizes bounded."""

    variants: tuple[ir.Ruleset, ...]
    names: tuple[str, ...]
    rounds: int
    seats: int
    bots: tuple[str, ...]
    seed: int

    def run(self, progress: Callable[[int, int], None]) -> dict[str, Any]:
        """The library's comparison, in this process, part after part (as `--jobs 1`)."""
        from rulekit.sim.compare import compare

        return compare(
            list(self.variants),
            list(self.names),
            rounds=self.rounds,
            seats=self.seats,
            bots=list(self.bots),
            seed=self.seed,
            progress=progress,
        )


def read_ask(catalog: Catalog, spec: dict[str, Any]) -> Ask:
    """The page's {"a", "b", "rounds", "seats", "bots", "seed"}, each checked; a UsageError
    (or the rule file's located errors) for the first thing wrong."""
    from rulekit.sim.compare import table_size

    rounds = _whole(spec, "rounds", 1000, *ROUNDS)
    seats = _whole(spec, "seats", None, *SEATS)
    seed = _whole(spec, "seed", 0, *SEEDS)
    bots = _bots(spec.get("bots", [DEFAULT_BOT]))
    loaded = [_variant(catalog, spec.get(key), key) for key in ("a", "b")]
    variants = tuple(v for v, _ in loaded)
    names = tuple(n for _, n in loaded)
    size = table_size(list(variants), list(names), seats)
    return Ask(variants, names, rounds or 0, size, bots, seed or 0)


def _whole(spec: dict[str, Any], key: str, default: int | None, lo: int, hi: int) -> int | None:
    value = spec.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        hint = "for more rounds, run `rulekit compare --rounds N`" if key == "rounds" else None
        raise UsageError(f"{key}: a whole number from {lo:,} to {hi:,}", hint=hint)
    return value


def _bots(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not 1 <= len(value) <= SEATS[1]:
        raise UsageError("bots: a list of one to eight bot names", hint=", ".join(BOTS))
    for name in value:
        if name not in BOTS:
            shown = str(name)[:40]
            if name in ("search", "strong"):
                hint = f"the search bots are too slow for the page: rulekit compare --bots {name}"
            else:
                hint = did_you_mean(shown, BOTS) or f"bots here: {', '.join(BOTS)}"
            raise UsageError(f"no bot named '{shown}' on this page", hint=hint)
    return tuple(value)


def _variant(catalog: Catalog, value: Any, key: str) -> tuple[ir.Ruleset, str]:
    """A variant and its name in the report: an offered rule file by name, or rule text from
    the page (its `extends` and `deck` read beside the offered file `beside`)."""
    form = f'{key}: {{"rules": NAME}} or {{"text": RULE TEXT, "beside": NAME}}'
    if not isinstance(value, dict) or ("rules" in value) == ("text" in value):
        raise UsageError(f"{form}, one of the two", hint="name a rule file offered here")
    if "rules" in value:
        name = value["rules"]
        if not isinstance(name, str) or len(name) > 200:
            raise UsageError(f"{key}.rules: a name, at most 200 characters")
        from rulekit.lang import load_rules

        return load_rules(catalog.ref(name)), name
    text, beside = value["text"], value.get("beside")
    if not isinstance(text, str) or not (beside is None or isinstance(beside, str)):
        raise UsageError(f"{form}: the text and the name are strings")
    return catalog.rules_of_text(text, TEXT_NAMES[key], beside), TEXT_NAMES[key]


# ---------------------------------------------------------------- one comparison
@dataclass
class Job:
    """A comparison running (or run) in a worker thread, and what the page reads of it."""

    id: str
    ask: Ask
    state: str = "running"  # running, done, failed, cancelled
    done: int = 0
    error: str | None = None
    result: dict[str, Any] | None = None
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    renders: dict[str, str] = field(default_factory=dict)

    @property
    def running(self) -> bool:
        return self.state == "running"

    def work(self) -> None:
        """The worker thread: the comparison, its end recorded (a cancel is never undone)."""
        try:
            result = self.ask.run(self._progress)
        except Cancelled:
            return
        except RulekitError as err:
            self._end("failed", error=err.render())
        except Exception as exc:  # a bug: said, never shown as a traceback
            self._end("failed", error=f"internal error: {type(exc).__name__}")
        else:
            self._end("done", result=result)
            self._draw_ahead()

    def _draw_ahead(self) -> None:
        """The HTML report made now, in this worker, so the page's frame shows it at once."""
        try:
            self.report("html")
        except Exception:  # made again, and said, when the page asks for it
            return

    def _progress(self, done: int, total: int) -> None:
        if self.stop.is_set():
            raise Cancelled
        self.done = done

    def _end(self, state: str, error: str | None = None, result: Any = None) -> None:
        with self.lock:
            if self.state == "running":
                self.error, self.result = error, result  # before the state: polls read no lock
                self.state = state
                if state == "done":
                    self.done = self.ask.rounds

    def cancel(self) -> None:
        with self.lock:
            if self.state == "running":
                self.state = "cancelled"
        self.stop.set()

    def status(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "job": self.id,
            "state": self.state,
            "done": self.done,
            "total": self.ask.rounds,
            "rules": list(self.ask.names),
        }
        if self.error is not None:
            out["error"] = self.error
        if self.result is not None:
            out["summary"] = summary(self.result)
        return out

    def report(self, fmt: str) -> str:
        """The report as `compare --report FILE.html` (or .md) writes it, made once."""
        from rulekit.sim.report import to_html, to_markdown

        if self.result is None:
            raise Refused(409, f"the comparison is {self.state}: it has no report")
        with _DRAWING:  # not the job's lock: a poll or a cancel never waits for a drawing
            if fmt not in self.renders:
                draw = to_html if fmt == "html" else to_markdown
                self.renders[fmt] = draw(self.result)
            return self.renders[fmt]


def summary(result: dict[str, Any]) -> dict[str, Any]:
    """The report's headline: its title, what was played, and the verdict in words."""
    from rulekit.sim.report import _heading, _title, verdict

    return {"title": _title(result), "heading": _heading(result), "verdict": verdict(result)}


# ---------------------------------------------------------------- every browser's comparisons
class Comparisons:
    """Comparisons by browser and id: another browser's are not found. At most one running per
    browser (a new one cancels it), RUNNING in all, a few kept per browser."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._by_browser: OrderedDict[str, OrderedDict[str, Job]] = OrderedDict()
        self._alive: set[threading.Thread] = set()
        self._lock = threading.Lock()

    def get(self, browser: str | None, job_id: str) -> Job:
        with self._lock:
            jobs = self._by_browser.get(browser or "")
            job = None if jobs is None else jobs.get(job_id)
            if job is not None:
                self._by_browser.move_to_end(browser or "")
        if job is None:
            raise _unknown()
        return job

    def start(self, browser: str, spec: dict[str, Any]) -> Job:
        """A new comparison for this browser, checked before it starts; this browser's running
        one is cancelled."""
        ask = read_ask(self.catalog, spec)
        job = Job(secrets.token_urlsafe(12), ask)
        thread = threading.Thread(target=self._work, args=(job,), daemon=True)
        with self._lock:
            self._check_room(browser)
            jobs = self._by_browser.setdefault(browser, OrderedDict())
            self._by_browser.move_to_end(browser)
            for old in jobs.values():
                old.cancel()
            jobs[job.id] = job
            self._forget(jobs)
            self._alive.add(thread)
        thread.start()
        return job

    def _check_room(self, browser: str) -> None:
        others = sum(
            job.running
            for who, jobs in self._by_browser.items()
            if who != browser
            for job in jobs.values()
        )
        if others >= RUNNING or len(self._alive) >= ALIVE:
            raise Refused(
                429,
                f"the server is already running {RUNNING} comparisons: try again when one"
                " has finished",
            )

    def _forget(self, jobs: OrderedDict[str, Job]) -> None:
        """Beyond KEPT comparisons in a browser, the oldest finished ones; beyond BROWSERS, the
        least recently seen browser's (cancelled)."""
        for job_id in [k for k, j in jobs.items() if not j.running][: max(0, len(jobs) - KEPT)]:
            del jobs[job_id]
        while len(self._by_browser) > BROWSERS:
            _, dropped = self._by_browser.popitem(last=False)
            for job in dropped.values():
                job.cancel()

    def _work(self, job: Job) -> None:
        try:
            job.work()
        finally:
            with self._lock:
                self._alive.discard(threading.current_thread())


# ---------------------------------------------------------------- the routes
def compare_routes(catalog: Catalog) -> list[Route]:
    """The compare page and its API, for create_app's routes."""
    comparisons = Comparisons(catalog)

    def job_of(request: Request) -> Job:
        return comparisons.get(browser(request), request.path_params["job"])

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "compare.html")

    async def options(request: Request) -> Response:
        return JSONResponse(
            {"rules": catalog.names, "bots": list(BOTS), "bot": DEFAULT_BOT, "rounds": ROUNDS}
        )

    async def start(request: Request) -> Response:
        spec = await read_json(request)
        cookie = browser(request) or new_browser()
        job = await run_in_threadpool(comparisons.start, cookie, spec)
        return with_cookie(JSONResponse({"job": job.id, "total": job.ask.rounds}), cookie)

    async def status(request: Request) -> Response:
        return JSONResponse(job_of(request).status())

    async def cancel(request: Request) -> Response:
        job = job_of(request)
        job.cancel()
        return JSONResponse(job.status())

    async def report(request: Request) -> Response:
        job = job_of(request)
        fmt = request.query_params.get("format", "html")
        if fmt not in ("html", "md", "json"):
            raise UsageError(f"format: html, md or json, not '{fmt[:20]}'")
        if fmt == "json":
            if job.result is None:
                raise Refused(409, f"the comparison is {job.state}: it has no result")
            kept = {k: v for k, v in job.result.items() if k not in TIMINGS}
            return Response(json.dumps(kept), media_type="application/json")
        text = await run_in_threadpool(job.report, "html" if fmt == "html" else "markdown")
        if fmt == "md":
            return Response(text, media_type="text/markdown; charset=utf-8")
        return HTMLResponse(text, headers={"Content-Security-Policy": REPORT_POLICY})

    api = "/api/compare"
    return [
        Route("/compare", page),
        Route(api, guarded(start), methods=["POST"]),
        Route(api + "/options", guarded(options)),
        Route(api + "/{job}", guarded(status)),
        Route(api + "/{job}", guarded(cancel), methods=["DELETE"]),
        Route(api + "/{job}/report", guarded(report)),
    ]
