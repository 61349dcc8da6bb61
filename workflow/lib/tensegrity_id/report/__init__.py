"""Report: one plotting module per figure family, and the table writer.

``plot_structures`` (Figures 1, S1), ``plot_records`` (record figures, the
energy balance), ``plot_fisher`` (Figure 3), ``plot_pinn`` (Figures 4-5),
``plot_baselines``, ``plot_assessment`` (Figures S2-S3), ``plot_studies``
(Figures 6-7), ``plot_series`` (the prestress series), ``plot_fig2``,
``axes`` (shared tick formatting), ``tables`` (CSV plus Markdown, and every table by
name, built in ``tables_*`` by the paper's stage),
``study_tables`` (Tables 1 and S2) and ``scorecard`` (the reproduction
scorecard).  This package imports none of them, so a figure rule depends
on its own plotting module only and an edit to one re-runs one figure family.
"""
