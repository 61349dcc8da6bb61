"""Workflow support: config checks, rule inputs, run sheets, cluster planning.

Used by the Snakefile and the rule files; the rest of the library never
imports it, and nothing here receives Snakemake objects (``debug_job`` builds
one, to run a rule's script alone).
"""
