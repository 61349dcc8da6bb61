# Rules generated from the study catalog (workflow/catalog.yaml): one per entry
# that names a `script` (tensegrity_id.workflow.study_catalog, Catalog.generated).
# Its inputs are the entry's `inputs` (explicit paths or path-provider templates,
# once or per run-sheet row), the script and its library files (lib), its outputs
# and report() entry come from catalog_outputs, as in the hand-written rules, and
# the script gets the entry's config section (params.config) and, for each input
# made per row, its rows (params.rows).  Adding a table: docs/adding-a-table.md.


def catalog_rows(name):
    """A run-sheet row list by the name a catalog input gives: a study's rows
    (SHEET.rows) or a list of the run sheet (records, sensors, pinn, ...)."""
    if name in ROWS:
        return ROWS[name]
    rows = getattr(SHEET, name, None)
    if not isinstance(rows, list):
        raise KeyError(f"the run sheet has no row list named '{name}'")
    return rows


def catalog_inputs(artefact):
    """A generated rule's inputs: the entry's paths, a shipped input (resources/...)
    found from the workflow's location."""
    return {
        name: [WF.own(p) for p in paths] if isinstance(paths, list) else WF.own(paths)
        for name, paths in artefact.input_paths(catalog_rows).items()
    }


for _artefact in CATALOG.generated:

    rule:
        name:
            _artefact.rule
        input:
            **catalog_inputs(_artefact),
            lib=lib(_artefact.script),
            # the script as an input: an edited script re-runs the job (its
            # path in the script directive below is a pattern, which
            # Snakemake's own check of the script's age does not follow)
            script=WF.script(_artefact.script),
        output:
            **catalog_outputs(_artefact.id),
        log:
            logs(f"{_artefact.rule}.log"),
        conda:
            "../../envs/core.yaml"
        threads: 1
        resources:
            **per_attempt(runtime=5, mem_mb=500),
        params:
            **canonical_params(
                config=entry(_artefact.config) if _artefact.config else {},
                rows=_artefact.input_rows(catalog_rows),
                # the script's name goes through params: the script directive
                # is evaluated again when the job runs, after the loop has
                # moved on (a literal path would name the last entry's script)
                script=_artefact.script,
            ),
        script:
            "../scripts/{params.script}.py"
