"""`hsim run NAME --jobs N` and `hsim docs --jobs N`: a scenario's variants and its sensitivity
re-runs spread over worker processes.

Every variant of every run (the run itself and each re-run of the sensitivity sweep) is an
independent cluster with its own seed, so each is one job (`_run_variant`, which the
in-process run calls too). A worker is a fresh interpreter (nothing inherited from the parent
process; see _context) that loads the scenario from its file and runs the variant exactly as
`--jobs 1` does; the parent puts the results
back in the jobs' order, so the report is the one `--jobs 1` writes, wall-clock timings apart.
Progress: workers send (job, fraction) through a queue and the parent shows the weighted sum,
naming the variants under way. The pool is the standard library's, as `hsim sweep --jobs`
uses. Code calling run_scenario(jobs=N) from a script needs multiprocessing's usual
`if __name__ == "__main__":` guard, as the workers import the main module.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import time
from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait
from dataclasses import dataclass, field

from hsim.errors import HsimError
from hsim.scenario.context import Run
from hsim.scenario.errors import ScenarioError, ScenarioFailed, UsageError
from hsim.scenario.results import VariantResult, jsonable
from hsim.scenario.summary import cluster_summary


def default_jobs() -> int:
    """--jobs when not given: the machine's cores."""
    return os.cpu_count() or 1


def check_jobs(jobs) -> int:
    try:
        n = int(jobs)
    except (TypeError, ValueError):
        raise UsageError(f"--jobs {jobs!r} is not a number") from None
    if n < 1:
        raise UsageError(f"--jobs must be at least 1: {n}")
    return n


@dataclass(frozen=True)
class VariantJob:
    """One variant of one run, as _run_variant takes it."""

    variant: str
    ops: int
    seed: int
    scale: float
    servers: int
    params: dict = field(hash=False)
    label: str = ""  # how progress names it: the variant, and the re-run's point if one

    @property
    def name(self) -> str:
        return f"{self.variant} ({self.label})" if self.label else self.variant


def _context():
    """Fresh interpreters, never a fork of this process (which may run threads, a progress
    bar's among them): on POSIX forked from one forkserver that imported the runner and the
    engine once, so a pool starts in a fraction of a second; elsewhere spawned."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["hsim.scenario.runner", "hsim.client.cluster",
                                "hsim.scenario.setup"])
    return ctx


class Workers:
    """A pool of `jobs` spawned processes, kept for several runs (`hsim docs` runs every
    scenario through one pool). Use as a context manager."""

    def __init__(self, jobs: int):
        ctx = _context()
        self.jobs = jobs
        self._queue = ctx.Queue()
        self._pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx,
                                         initializer=_init_worker, initargs=(self._queue,))
        self._runs = 0

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._queue.close()

    def run(self, path: str, jobs: list[VariantJob], cost_model, progress) -> list:
        """The VariantResults of `jobs`, in their order; the first job (in order) that failed
        raises its error here, and the jobs not started are cancelled."""
        self._runs += 1
        token = self._runs
        futures = [self._pool.submit(_run_job, token, i, path, job, cost_model)
                   for i, job in enumerate(jobs)]
        tracker = _Progress(jobs, progress)
        pending = set(futures)
        while pending:
            done, pending = wait(pending, timeout=0.2, return_when=FIRST_EXCEPTION)
            self._drain(token, tracker)
            for f in done:
                if f.exception() is None:
                    tracker.update(futures.index(f), 1.0)
            if any(f.exception() is not None for f in done):
                for f in pending:
                    f.cancel()
                break
        return [f.result() for f in futures]

    def _drain(self, token: int, tracker: _Progress) -> None:
        while True:
            try:
                run, i, fraction = self._queue.get_nowait()
            except queue.Empty:
                return
            if run == token:
                tracker.update(i, fraction)


class _Progress:
    """The weighted fraction of all jobs done (weight: a job's operations), and the names of
    the ones under way, for the runner's (description, fraction) callback."""

    def __init__(self, jobs: list[VariantJob], callback):
        self.jobs = jobs
        self.callback = callback
        self.done = [0.0] * len(jobs)
        self.total = sum(j.ops for j in jobs) or 1

    def update(self, i: int, fraction: float) -> None:
        if fraction <= self.done[i]:
            return
        self.done[i] = fraction
        if self.callback is None:
            return
        running = [j.name for j, d in zip(self.jobs, self.done) if 0.0 < d < 1.0]
        finished = sum(d >= 1.0 for d in self.done)
        what = ", ".join(running) or "starting"
        self.callback(f"{what} [{finished}/{len(self.jobs)} done]",
                      sum(d * j.ops for d, j in zip(self.done, self.jobs)) / self.total)


def run_jobs(scenario, jobs: list[VariantJob], cost_model, progress, workers: Workers | None,
             record=None) -> list:
    """The jobs' VariantResults in order: in this process when `workers` is None, else on them.
    `progress(description, fraction)` sees every job's share either way."""
    tracker = _Progress(jobs, progress)
    if workers is None:
        by_name = {v.name: v for v in scenario.variants}
        out = []
        for i, job in enumerate(jobs):
            def step(fraction, i=i):
                tracker.update(i, fraction)
            out.append(_run_variant(scenario, by_name[job.variant], job, step, cost_model,
                                    record))
        return out
    return workers.run(scenario.path, jobs, cost_model, progress)


# --- in a worker -------------------------------------------------------------------------------
_QUEUE = None
_SCENARIOS: dict = {}  # path -> Scenario, loaded once per worker


def _init_worker(q) -> None:
    global _QUEUE
    _QUEUE = q


def _run_job(token: int, i: int, path: str, job: VariantJob, cost_model):
    from hsim.scenario.loader import load_scenario
    scenario = _SCENARIOS.get(path)
    if scenario is None:
        scenario = _SCENARIOS[path] = load_scenario(path)
    variant = {v.name: v for v in scenario.variants}[job.variant]

    def step(fraction):
        if fraction < 1.0:  # the parent marks a job done when its result arrives
            _QUEUE.put((token, i, fraction))

    return _run_variant(scenario, variant, job, step, cost_model)


def _run_variant(scenario, variant, job: VariantJob, on_progress, cost_model,
                 record=None) -> VariantResult:
    """One variant on a fresh cluster; `on_progress(fraction)` as it goes."""
    def report_progress(fraction):
        if on_progress is not None:
            on_progress(fraction)

    try:
        ctx = Run(scenario, variant, ops=job.ops, seed=job.seed, scale=job.scale,
                  servers=job.servers, params=job.params, on_progress=report_progress,
                  cost_model=cost_model)
    except HsimError as e:  # a Config override the engine refuses
        raise ScenarioError(f"variant {variant.name!r}: {e}") from None
    if record is not None:
        ctx.requests = []
    report_progress(0.0)
    t0 = time.perf_counter()
    try:
        scenario.run_fn(ctx, variant)
        ctx.sample(after_run=True)
        summary = cluster_summary(ctx.cluster, ctx.cost_model, ctx.done, ctx.prepared()) \
            if ctx.has_cluster else None
    except ScenarioError:
        raise
    except Exception as e:  # the scenario's own code: one line, original kept for --debug
        raise ScenarioFailed(scenario.name, f"variant {variant.name!r}", e) from e
    report_progress(1.0)
    if record is not None:
        record[variant.name] = (ctx.requests, ctx.cluster if ctx.has_cluster else None)
    return VariantResult(variant.name, variant.description, dict(variant.config),
                         jsonable(variant.params), ctx.metrics, ctx.labels, ctx.units,
                         ctx.series, ctx.timeline, ctx.notes, summary,
                         time.perf_counter() - t0, ctx.priced,
                         sorted(ctx.params.read & set(scenario.params)))
