"""The runs behind the comparison of two identification readings: their folders, their scoring,
their time basis, and their publication as evidence.

A reading's run is a working directory of the workflow (its ``results/``), or the published copy of
what the comparison reads from one (``resources/readings/<reading>/``: the same files with
``results/`` left off the path, and a ``MANIFEST.json``; :func:`publish`).  The comparison's
protocol (``config/readings_protocol.yaml``) is long: each part of it may run in its own session and
be published into the same folder, and the comparison reads the folder.

Publish a finished run (its files are added; a file already there with other content is refused,
naming it, before anything is copied)::

    python -m tensegrity_id.workflow.readings_runs RUN_DIR resources/readings/READING \\
        --command "snakemake ..." [--wall-s S]
"""

from __future__ import annotations

import argparse
import csv
import datetime as _dt
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from ..results.provenance import file_sha256

__all__ = [
    "MANIFEST",
    "PUBLISHED",
    "SERIES",
    "results_root",
    "results_file",
    "score_run",
    "held_out_share",
    "reading_settings",
    "run_settings",
    "basis_rows",
    "fisher_evidence",
    "published_files",
    "publish",
    "verify",
]

MANIFEST = "MANIFEST.json"
PUBLISHED = (
    "tables/*.csv",
    "values/*.json",
    "fisher/*/*/*.json",
    "sensors/*/*/*.npz",
    "identify/pinn_*/*/*/*_seed*_steps*.json",
    "identify/pinn_*/*/*/*_series.npz",
)
"""What :func:`publish` copies of a run's ``results/``: the tables and values the claims read, the
Fisher analyses (the bounds beside the identified errors), the sensor files and each training run's
result and series (the basis check); not the records, histories, logs or figures."""
NEGLIGIBLE = 1e-3
"""A share of the true power above the band below which the share reproduced is not reported."""
SERIES = re.compile(r"(?P<protocol>.+)_seed(?P<seed>\d+)_steps(?P<steps>\d+)_series\.npz")
"""A physics-informed run's series file with the reading's own settings (no settings suffix)."""


def results_root(run) -> Path:
    """The folder standing for ``results/`` in a reading's run: ``run/results`` of a working
    directory, or ``run`` itself when it is a published copy (it holds :data:`MANIFEST`)."""
    run = Path(run)
    if (run / "results").is_dir():
        return run / "results"
    if (run / MANIFEST).is_file():
        return run
    raise FileNotFoundError(f"no results folder in {run} (neither results/ nor a published {MANIFEST})")


def _published_manifest(run) -> dict | None:
    """The :data:`MANIFEST` of a published copy; ``None`` for a working directory (it holds
    ``results/``) or a folder without one."""
    run = Path(run)
    if (run / "results").is_dir() or not (run / MANIFEST).is_file():
        return None
    return json.loads((run / MANIFEST).read_text())


def results_file(run, path: str) -> Path:
    """A results path as the workflow names it (``results/tables/table3.csv``) in a run's folder."""
    return results_root(run) / str(path).removeprefix("results/")


def score_run(run, claims: list[dict], ids) -> list[dict]:
    """The scorecard rows (:func:`tensegrity_id.report.scorecard.scorecard`) of the claims ``ids``
    over the results files of the run ``run``, every value a string as in a scorecard file.

    For a run of the protocol's targets only, which has no scorecard of its own: every file in it
    was made by that run, so each claim reads its file where the run made it and is *not yet
    produced* where it did not.  ``source`` keeps the workflow's path (``results/...``).
    """
    from ..report.scorecard.score import scorecard

    wanted = set(ids)
    mine = []
    for c in claims:
        if c["id"] not in wanted:
            continue
        if "source" in c:
            c = {**c, "source": {**c["source"], "file": c["source"]["file"].removeprefix("results/")}}
        mine.append(c)
    df = scorecard(mine, root=results_root(run))
    rows = [{k: "" if v is None else str(v) for k, v in r.items()} for r in df.to_dict("records")]
    for r in rows:
        if r.get("source") and not r["source"].startswith("results/"):
            r["source"] = f"results/{r['source']}"
    return rows


def _float(x) -> float | None:
    try:
        v = float(str(x).strip())
    except ValueError:
        return None
    return v if v == v else None


def _table3_rows(run) -> list[dict]:
    """A run's Table 3 (``results/tables/table3.csv``) as rows of strings; none where it has none."""
    try:
        path = results_file(run, "results/tables/table3.csv")
    except FileNotFoundError:
        return []
    if not path.exists():
        return []
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def held_out_share(run, band: float) -> tuple[int, int]:
    """(inside the band, successful runs) over Table 3's identified or partial rows of a run."""
    from ..results.identification import KEY

    ok = [r for r in _table3_rows(run) if str(r.get(KEY.outcome, "")).strip() in ("identified", "partial")]
    ratios = [_float(r.get(KEY.held_out_ratio, "")) for r in ok]
    return sum(v is not None and v < band for v in ratios), len(ok)


SETTINGS_READ = ("n_fourier", "fourier", "t_ref", "init")
"""The network settings that make a reading (its time basis, and its trunk's initialisation)."""
BASE_CONFIGS = ("config/config.yaml", "config/paper.yaml")
"""The configs a reading's overlay goes over (the protocol's own overlay sets no network setting)."""


def reading_settings(overlay, base=BASE_CONFIGS, root=".") -> dict:
    """The network settings a reading runs with: ``identify.pinn.settings`` of the base configs with
    the reading's overlay over them (:data:`SETTINGS_READ`; the settings' own defaults where no file
    gives one), the files read under ``root`` (a run's working directory: its configs and library as
    they were at its commit)."""
    from ..identify.pinn.settings import PINNSettings

    defaults = PINNSettings()
    out = {k: getattr(defaults, k) for k in SETTINGS_READ}
    for path in dict.fromkeys((*base, overlay)):
        file = Path(root) / path
        if not file.is_file():
            raise FileNotFoundError(f"{file}: no such config; the reading's settings are read from it")
        doc = yaml.safe_load(file.read_text()) or {}
        given = ((doc.get("identify") or {}).get("pinn") or {}).get("settings") or {}
        out.update({k: given[k] for k in out if k in given})
    return out


def run_settings(run, overlay) -> dict:
    """The network settings of a run folder: those its published parts record (every part that
    records them must agree), else :func:`reading_settings` of ``overlay`` (a working directory, or
    a folder whose parts predate the record).  A published folder's settings are those it ran
    with, whatever the configs say today."""
    manifest = _published_manifest(run) or {}
    recorded = [p["settings"] for p in manifest.get("parts", []) if "settings" in p]
    if any(r != recorded[0] for r in recorded):
        raise ValueError(f"{Path(run) / MANIFEST}: its parts record different network settings: {recorded}")
    return dict(recorded[0]) if recorded else reading_settings(overlay)


def basis_rows(runs: dict, settings: dict[str, dict]) -> list[dict]:
    """Per reading and run group (treatment, structure, record, protocol, steps), the basis band's
    top against the record's response, and what the network reproduces above the band.

    Reads each run's ``identify/pinn_*/{structure}/{record}/{protocol}_seed*_steps*_series.npz``
    (runs with settings of their own, a suffix after ``steps``, are left out: their basis is not
    the reading's) and the record's sensor file ``sensors/{structure}/{record}/{protocol}.npz`` (its
    sample times give ``T_ref``, its noise-free channels ``f99``).  ``status``: *inside the band*
    where ``f99`` is at most the band's top; else *represented* where the median captured share
    above the top is at least :data:`~tensegrity_id.identify.pinn.basis_coverage.REPRESENTED`,
    *not represented* otherwise.  ``captured_above`` is left empty where the true power above the
    band is below :data:`NEGLIGIBLE` of the whole (nothing there to reproduce).
    """
    import numpy as np

    from ..identify.pinn.basis_coverage import (
        REPRESENTED,
        band_capture,
        basis_band_hz,
        dominant_frequencies_hz,
        time_scale_s,
    )

    rows = []
    for name, run in runs.items():
        s = settings[name]
        root = results_root(run)
        groups: dict[tuple, list[Path]] = {}
        for path in sorted((root / "identify").glob("pinn_*/*/*/*_series.npz")):
            m = SERIES.fullmatch(path.name)
            if m is None:
                continue
            treatment, structure, record = path.parts[-4][len("pinn_") :], path.parts[-3], path.parts[-2]
            key = (treatment, structure, record, m["protocol"], int(m["steps"]))
            groups.setdefault(key, []).append(path)
        for (treatment, structure, record, protocol, steps), paths in groups.items():
            sensors = root / "sensors" / structure / record / f"{protocol}.npz"
            t_rec, channels = None, None
            if sensors.exists():  # the response (the channels without their noise), once a group
                with np.load(sensors) as d:
                    t_rec = np.asarray(d["t"], float)
                    channels = np.asarray(d["clean" if "clean" in d.files else "noisy"], float)
            top, caps = None, []
            for path in paths:
                with np.load(path) as z:
                    if int(np.asarray(z["coord"]).ravel()[0]) < 0:
                        continue
                    t, true, net = z["t"], z["true"], z["network"]
                if top is None:
                    T = time_scale_s(np.asarray(t, float) if t_rec is None else t_rec, s["t_ref"])
                    top = float(basis_band_hz(s["n_fourier"], s["fourier"], T).max())
                caps.append(band_capture(t, true, net, top))
            if not caps:
                continue
            f99 = None if channels is None else dominant_frequencies_hz(t_rec, channels).quantile_hz[0.99]
            share = float(np.median([c.share_above for c in caps]))
            # a share the noise of the arithmetic can swamp is not judged (a ratio of two near-zeros)
            above = float(np.median([c.captured_above for c in caps])) if share >= NEGLIGIBLE else None
            if f99 is not None and f99 <= top:
                status = "inside the band"
            else:
                status = "represented" if above is not None and above >= REPRESENTED else "not represented"
            rows.append(
                {
                    "reading": name,
                    "treatment": treatment,
                    "structure": structure,
                    "record": record,
                    "protocol": protocol,
                    "steps": steps,
                    "seeds": len(caps),
                    "basis_top_hz": top,
                    "f99_hz": f99,
                    "share_above": share,
                    "captured_above": above,
                    "captured_below": float(np.median([c.captured_below for c in caps])),
                    "status": status,
                }
            )
    return rows


def fisher_evidence(run, claim_id: str) -> dict:
    """What the Fisher analysis says of a Table 3 row's record (for a failure claim
    ``table3.<row>.outcome``): the largest relative Cramér–Rao bound over the identifiable parameters
    (%, and which), the parameters left out for near-null directions and the condition number of
    the identifiable block, from ``fisher/{structure}/{record}/{protocol}.json`` of the run; and the
    row's identified worst cable error (%).  Empty where the claim is not a Table 3 row's or the run
    lacks the files."""
    from ..results.fisher import FISHER_KEY, FisherAnalysis
    from ..results.identification import KEY

    parts = claim_id.split(".")
    if len(parts) != 3 or parts[0] != "table3":
        return {}
    row = next((r for r in _table3_rows(run) if r.get("row") == parts[1]), None)
    if row is None:
        return {}
    out = {KEY.sigma_max_pct: _float(row.get(KEY.sigma_max_pct, ""))}
    where = [row.get(k) for k in ("structure", "record", "protocol")]
    path = results_root(run) / "fisher" / str(where[0]) / str(where[1]) / f"{where[2]}.json"
    if all(where) and path.exists():
        fa = FisherAnalysis.load(path)
        worst = fa.worst_crlb_parameter if fa.crlb_relative else None
        out.update(
            {
                FISHER_KEY.crlb_max_pct: None if worst is None else 100.0 * fa.crlb_relative[worst],
                FISHER_KEY.crlb_max_parameter: worst,
                FISHER_KEY.null_members: " ".join(fa.null_members),
                FISHER_KEY.condition_identifiable: fa.condition_identifiable,
            }
        )
    return out


def published_files(results: Path) -> list[Path]:
    """The files of a run's ``results/`` that :func:`publish` copies (:data:`PUBLISHED`), relative."""
    results = Path(results)
    return sorted(
        {p.relative_to(results) for pattern in PUBLISHED for p in results.glob(pattern) if p.is_file()}
    )


def _commit(folder: Path) -> str:
    try:
        out = subprocess.run(
            ["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(folder), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "not a git checkout"
    return f"{out}-dirty" if dirty else out


def publish(
    run,
    out,
    *,
    command: str,
    wall_s: float | None = None,
    date: str | None = None,
    overlay: str | None = None,
) -> dict:
    """Add a finished run's comparison files (:func:`published_files`) to the published folder
    ``out`` and record the run as a part in its :data:`MANIFEST` (commit, command, date, wall time,
    the files it added or found equal, and the network settings it ran with:
    :func:`reading_settings` of the reading's ``overlay``, ``None`` for none, read in the run's
    working directory).

    Nothing is lost: a file already in ``out`` with other content is refused, every such file
    named, before anything is copied; files equal to the run's are left as they are.  Returns the
    part recorded.
    """
    run, out = Path(run), Path(out)
    results = run / "results"
    if not results.is_dir():
        raise FileNotFoundError(f"{run} has no results/ folder: give the run's working directory")
    files = published_files(results)
    if not files:
        raise FileNotFoundError(
            f"{results} holds none of the files the comparison reads ({', '.join(PUBLISHED)})"
        )
    sums = {str(f): file_sha256(results / f) for f in files}
    clash = [f for f in sums if (out / f).exists() and file_sha256(out / f) != sums[f]]
    if clash:
        raise FileExistsError(
            f"{out} already holds other content at {len(clash)} path(s): {', '.join(clash[:10])}"
            f"{' ...' if len(clash) > 10 else ''}; publish into another folder or remove them yourself"
        )
    manifest_path = out / MANIFEST
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {"parts": [], "files": {}}
    settings = reading_settings(overlay or BASE_CONFIGS[0], root=run)
    known = [p["settings"] for p in manifest["parts"] if "settings" in p]
    if known and known[0] != settings:
        raise FileExistsError(
            f"{out} holds a reading run with {known[0]}; this run's settings are {settings}: "
            "publish each reading into its own folder"
        )
    added = [f for f in sums if not (out / f).exists()]
    for f in added:
        (out / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(results / f, out / f)
    part = {
        "commit": _commit(run),
        "command": command,
        "date": date or _dt.date.today().isoformat(),
        "wall_s": wall_s,
        "added": len(added),
        "equal": len(sums) - len(added),
        "settings": settings,
    }
    manifest["parts"].append(part)
    manifest["files"].update({f: sums[f] for f in sums})
    manifest["files"] = dict(sorted(manifest["files"].items()))
    tmp = manifest_path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(manifest, indent=1) + "\n")
    tmp.replace(manifest_path)
    return part


def verify(folder) -> list[str]:
    """The problems of a published folder against its :data:`MANIFEST`: each listed file missing or
    with another SHA-256 than recorded, named; empty for an intact folder or a working directory
    (which has no manifest)."""
    folder = Path(folder)
    path = folder / MANIFEST
    files = (_published_manifest(folder) or {}).get("files", {})
    problems = []
    for rel, sha in files.items():
        if not (folder / rel).is_file():
            problems.append(f"{folder / rel}: listed in {path} but missing")
        elif file_sha256(folder / rel) != sha:
            problems.append(f"{folder / rel}: changed since it was published (its SHA-256 differs)")
    return problems


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tensegrity_id.workflow.readings_runs", description=__doc__.split("\n")[0]
    )
    ap.add_argument("run", type=Path, help="the run's working directory (holding results/)")
    ap.add_argument("out", type=Path, help="the published folder, e.g. resources/readings/default")
    ap.add_argument("--command", required=True, help="the command that made the run, as run")
    ap.add_argument("--wall-s", type=float, default=None, help="the run's wall time (s)")
    ap.add_argument(
        "--overlay",
        default=None,
        help="the reading's config overlay the run used (under the run's directory); none: the default",
    )
    args = ap.parse_args(argv)
    try:
        part = publish(args.run, args.out, command=args.command, wall_s=args.wall_s, overlay=args.overlay)
    except (FileNotFoundError, FileExistsError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"{args.out}: {part['added']} file(s) added, {part['equal']} equal, from commit {part['commit']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
