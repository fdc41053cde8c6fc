"""`hsim run --jobs N`: variants and sensitivity re-runs in worker processes give the report
`--jobs 1` gives, wall-clock timings apart; errors from a worker are still one line."""

import pytest

from hsim.cli import main
from hsim.scenario import run_scenario
from hsim.scenario.parallel import VariantJob, _Progress

from .test_cli import BAD_FILES


# two variants each: the re-runs still fan out over the workers (5 seeds x 3 values each)
_VARIANTS = {"hotspotting": "timestamp_lead,salted", "presplit": "bytes_split,hex_string_split"}


def _report(capsys, tmp_path, name, jobs, fmt):
    out = tmp_path / f"{name}-{jobs}"
    code = main(["run", name, "--ops", "small", "--sensitivity", "full", "--no-plots",
                 "--variants", _VARIANTS[name],
                 "--no-progress", "--format", fmt, "--jobs", str(jobs), "--out", str(out)])
    printed, err = capsys.readouterr()
    assert code == 0, err
    return printed, (out / "report.md").read_text()


def _untimed(text: str) -> list[str]:
    return [line for line in text.splitlines()
            if '"elapsed_s"' not in line and not line.startswith("Elapsed:")]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["hotspotting", "presplit"])
def test_two_jobs_and_one_give_the_same_report(capsys, tmp_path, name):
    one_json, one_md = _report(capsys, tmp_path, name, 1, "json")
    two_json, two_md = _report(capsys, tmp_path, name, 2, "json")
    assert _untimed(one_json) == _untimed(two_json)
    assert _untimed(one_md) == _untimed(two_md)
    assert '"vary": "seed"' in one_json  # the re-runs ran and were judged
    assert len(_untimed(one_md)) == len(one_md.splitlines()) - 1  # only the Elapsed line went


@pytest.mark.parametrize("jobs", [1, 2])
def test_progress_counts_every_job_of_every_worker(jobs):
    seen = []
    run_scenario("presplit", ops=200, plots=False, sensitivity="full", jobs=jobs,
                 variants=["bytes_split", "hex_string_split", "book_hex_splits", "no_presplit"],
                 progress=lambda what, fraction: seen.append((what, fraction)))
    fractions = [f for _, f in seen]
    assert fractions == sorted(fractions) and fractions[-1] == pytest.approx(1.0)
    total = 4 * 15  # four variants, in the run and 14 re-runs (5 seeds x 3 value_bytes)
    assert seen[-1][0].endswith(f"[{total}/{total} done]")
    if jobs == 1:  # each job's own fractions, every re-run's variants named
        assert any(what.startswith("no_presplit (seed 3) ") for what, _ in seen)


def test_progress_weighs_jobs_by_their_operations():
    seen = []
    jobs = [VariantJob("a", 300, 1, 1.0, 1, {}), VariantJob("b", 100, 1, 1.0, 1, {}, "seed 2")]
    p = _Progress(jobs, lambda what, fraction: seen.append((what, fraction)))
    p.update(0, 0.5)
    p.update(1, 0.5)
    p.update(1, 0.25)  # late news of an earlier fraction changes nothing
    p.update(0, 1.0)
    assert seen == [("a [0/2 done]", 150 / 400), ("a, b (seed 2) [0/2 done]", 200 / 400),
                    ("b (seed 2) [1/2 done]", 350 / 400)]


def test_a_scenario_failing_in_a_worker_is_one_line(capsys, tmp_path):
    path = tmp_path / "fails.py"
    path.write_text(BAD_FILES["fails.py"][0])
    code = main(["run", str(path), "--ops", "20", "--out", str(tmp_path / "o"), "--no-plots",
                 "--jobs", "2"])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in out + err
    assert len(err.strip().splitlines()) == 1 and BAD_FILES["fails.py"][1] in err
    code = main(["run", str(path), "--ops", "20", "--out", str(tmp_path / "o"), "--no-plots",
                 "--jobs", "2", "--debug"])
    _, err = capsys.readouterr()
    assert code == 1 and "Traceback" in err and "ZeroDivisionError" in err


@pytest.mark.parametrize("argv", [["run", "presplit", "--jobs", "0"],
                                  ["docs", "--check", "--jobs", "0"]])
def test_jobs_below_one_is_refused(capsys, tmp_path, argv):
    code = main(argv)
    _, err = capsys.readouterr()
    assert code != 0 and "--jobs must be at least 1" in err and "Traceback" not in err
