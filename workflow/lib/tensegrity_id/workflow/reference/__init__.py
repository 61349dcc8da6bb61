"""Reference results: publish a finished run's outputs, and compare a run with them.

Publish (after a finished run, e.g. the paper grid)::

    python -m tensegrity_id.workflow.reference publish --results results \\
        --out resources/reference/paper --config config/paper.yaml \\
        --command "snakemake --cores 2 --configfile config/paper.yaml" \\
        --wall-s 14400 --cpu-s 27000 --peak-rss-mb 3100

copies ``results/tables/*.{csv,md}``, ``results/values/**.json`` and
``results/figures/**.png`` under ``--out`` (the same relative paths), and
writes ``MANIFEST.json``: every file with its sha256, size and class, the
commit, date, cores and library versions, the wall and CPU time, peak memory,
the command and the configs, and the run's seed scatter.

Compare (after your own run, on a laptop or a cluster)::

    python -m tensegrity_id.workflow.reference compare results \\
        [--reference resources/reference/paper] [--json report.json]

first checks every reference file against the sha256 its manifest records
(a file changed or lost since publishing is named and fails the comparison),
then prints, per reference file found in ``results``: ``equal`` (to rounding),
``within scatter`` or ``different`` (with the first differing values), and
lists the reference files your run did not produce.  Exit status 0 when no
file is ``different``, the reference is intact and at least one file was
compared, 1 otherwise, 2 on a usage error.

Publishing never loses a reference: a run lacking files the previous manifest
lists is refused (naming them) unless ``--replace``, a manifest path leaving
its folder is refused before anything is touched, and the new reference is
built beside the old one and swapped in only when complete.

Classes.  A file is ``stochastic`` when the run produced it from an
identification result (a transitive input under ``results/identify/``, read
from Snakemake's own provenance records, ``.snakemake/metadata``): training
in float32 amplifies rounding differences between machines and libraries up to
the scatter over seeds.  Every other file is ``deterministic`` (structures, records,
Fisher and statics values) and must agree to ``RTOL``.  A stochastic number
is within scatter when ``|here - reference| <= SEED_K * s * |reference|``,
``s`` the run's pooled relative seed scatter (the median, over every seed
group of two or more seeds, of each metric's standard deviation over its
mean; recorded in the manifest), with ``SEED_K`` the scorecard's.  Labels
(outcomes, statuses) must be equal in either class.  Timing fields (wall
times, rates) are ignored.
"""

from ..._lazy import attach

_EXPORTS = {
    "RTOL": "manifest",
    "ATOL": "manifest",
    "PUBLISHED": "manifest",
    "classify": "manifest",
    "seed_scatter": "manifest",
    "listed_paths": "manifest",
    "publish": "publication",
    "SEED_K": "comparison",
    "compare": "comparison",
    "CompareReport": "comparison",
    "FileComparison": "comparison",
    "STATUSES": "comparison",
    "BROKEN": "comparison",
    "main": "cli",
}

__getattr__, __dir__, __all__ = attach(__name__, _EXPORTS)
