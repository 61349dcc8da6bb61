#!/usr/bin/env bash
# Draws the workflow's rule graph, docs/img/rulegraph.svg (the picture in README.md and
# docs/index.md), from the default config.  Needs Graphviz's `dot` (Debian: apt-get install
# graphviz).  Run it after adding, renaming or rewiring a rule:
#
#   bash docs/make_rulegraph.sh
#
# Two simplifications, so the picture shows the stages rather than the grid: the
# physics-informed identification has one rule per training job, generated from the config
# (identify_pinn_<treatment>_<structure>_<record>_<protocol>_steps<N>[_<variant>]_seed<s>),
# drawn as one node, identify_pinn_{group}; and the target rule `all`, which every final output feeds,
# is left out.  The graph runs left to right.
set -euo pipefail
cd "$(dirname "$0")/.."

simplify='
import re, sys
node = re.compile(r"^\s*(\d+)\[label = \"([^\"]+)\"(.*)$")
edge = re.compile(r"^\s*(\d+) -> (\d+)\s*$")
group = re.compile(r"^identify_pinn_(?!lm$)")
keep, alias, dropped, out, edges = None, {}, set(), [], []
for line in sys.stdin.read().splitlines():
    m, e = node.match(line), edge.match(line)
    if m and m.group(2) == "all":
        dropped.add(m.group(1))
    elif m and group.match(m.group(2)):
        if keep is None:
            keep = m.group(1)
            out.append(f"\t{keep}[label = \"identify_pinn_{{group}}\"{m.group(3)}")
        alias[m.group(1)] = keep
    elif e:
        a, b = (alias.get(x, x) for x in e.groups())
        if a != b and not {a, b} & dropped and (a, b) not in edges:
            edges.append((a, b))
    elif line.strip() != "}":
        out.append(line.replace("graph[bgcolor=white, margin=0];", "graph[bgcolor=white, margin=0, rankdir=LR];"))
print("\n".join(out + [f"\t{a} -> {b}" for a, b in edges] + ["}"]))
'
snakemake --rulegraph --configfile config/config.yaml \
  | python3 -c "$simplify" \
  | dot -Tsvg > docs/img/rulegraph.svg
echo "wrote docs/img/rulegraph.svg"
