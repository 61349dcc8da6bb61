"""``snakemake own_records`` makes a user's own records and nothing of the paper's study."""

import re
import subprocess
import sys


def test_own_records_target_schedules_only_the_measured_path(tmp_path, copy_workflow):
    root = copy_workflow(tmp_path / "wf")
    out = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "own_records", "--quiet", "rules"]
        + ["--configfile", "config/example_measured.yaml"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    table = out.split("total")[0]
    counts = dict(re.findall(r"(?m)^([a-z_0-9]+)\s+(\d+)$", table))
    assert counts == {
        "generate_structure": "1",  # my_frame, the one structure the example builds
        "import_measured_record": "2",
        "screen_measured_record": "2",
        "identify_baseline": "2",
        "assess_measured_record": "2",
        "make_measured_summary": "2",
        "plot_measured_fit": "2",
        "identify_measured_peaks": "1",
        "own_records": "1",
    }
