"""Report: one plotting module per figure family, and the table writer.

``plot_structures`` (Figures 1, S1), ``plot_records`` (record figures, the
energy balance), ``plot_fisher`` (Figure 3), ``plot_pinn`` (Figures 4-5),
``plot_baselines``, ``plot_assessment`` (Figures S2-S3) and ``tables`` (CSV
plus Markdown).  This package imports none of them, so a figure rule depends
on its own plotting module only and an edit to one re-runs one figure family.
"""
