# Physics-informed identification of tensegrity prestress across taut-slack
# transitions: the study as a Snakemake workflow.  See README.md.
#
# The workflow is workflow/Snakefile (where the Snakemake workflow catalog and
# `snakedeploy deploy-workflow` expect it); this file runs it from the clone's
# root: `snakemake --cores all [--configfile config/test.yaml]`.


include: "workflow/Snakefile"


# Snakemake takes the default target from the main Snakefile only (an included
# file's `default_target:` is reset after the include): the study's `rule all`.
workflow.default_target = rules.all.rule.name
