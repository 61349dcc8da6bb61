"""Physics-informed identification of prestress, damping and (optionally) EA (the paper §3.1, §S1, §S2).

Unknowns
    Every cable force density ``sigma_k``, one damper coefficient ``c``
    shared by the cables and optionally one axial stiffness ``EA``, all
    trained in log form (multiplicative Adam steps), from the initial guesses
    of the problem (Table S2: 10 N/m, 0.3 N s/m; EA from ``EA0`` or the
    nominal value).  The exact parameters are never read here.

Loss (the paper's Eq. 7), every term divided by its natural scale::

    L = L_data + w_eom L_EOM + w_b L_bar  (+ w_ncp L_NCP, complementarity)

    L_data = mean (q''_net - a_meas)^2 / mean a_meas^2   (training samples, pooled channels)
    L_EOM  = mean r_EOM^2 / p^2                          (fresh collocation points, p the forcing amplitude)
    L_bar  = mean ((|b|^2 - Lbar^2) / Lbar^2)^2           (same points)

with ``r_EOM`` from :class:`tensegrity_id.identify.residual.Residual` (the simulator's
operators and cable law).  One Adam optimiser, two parameter groups
(network 2e-3, physical 1e-2), both cosine-annealed to zero over the run;
no clipping.

Transition treatments (same trunk, weights, normalisation, optimiser)
    ``smooth``  softplus cable law at beta = 800 with the sigmoid damper switch.
    ``fb``      exact law through a tension head ``T_k >= 0`` (softplus, scaled
                by the nominal tension ``T_nom`` = 10 N/m x mean member
                length): the EOM uses ``T_k / l_k``, and ``L_NCP`` is the mean
                squared Fischer-Burmeister residual of ``(T/T_nom, g/g_k)`` with
                the elastic slackness ``g = L0 - l + T/K`` and the member
                slackness scale ``g_k = T_nom L_ref,k / EA_k`` (the elongation
                at the nominal tension), weight ``w_ncp`` = 10.  The damper acts
                while ``l > L0``.
    ``event``   the smoothed law, and every ``event_every`` steps the current
                solution is scanned (on ``event_grid`` points per record) for
                sign changes of the cable strains; then ``event_fraction`` of
                each batch is drawn from Gaussian windows (std ``event_width``
                seconds) about the detected transition times.

Multi-record training
    One trunk conditioned on a record descriptor (the record's forcing
    amplitude over the largest, and a one-hot record index), shared physical
    parameters; data are pooled (one normaliser), each record's residual is
    normalised by its own forcing amplitude, and each record receives
    ``n_colloc`` collocation points per step.

Seeds as one batch
    Runs that differ only in their seed (network initialisation, noise
    realisation, collocation draws, event windows) train together: every
    tensor carries a leading member axis, each member's loss is normalised
    and reduced on its own, and the objective is their sum, so each member
    follows its own gradient and Adam steps it independently.  The single
    run is the batch of one and reproduces the single-run trainer that
    preceded batching bit for bit (``tests/data/pinn_single_run_reference.json``);
    a member inside a larger batch agrees with the same seed alone to
    rounding (float32 reductions and vector tails fall differently).

Engineering
    Deterministic for a seed set (network initialisation from
    ``SeedSequence([TRAIN_SEED_TAG, seed, 1])``, collocation from its own
    generator); progress lines (step, losses, sigma, c, ETA; for a batch the
    median and spread over its members) every ``log_every`` steps;
    checkpoints of the whole batch (networks, parameters, optimiser,
    scheduler, generators, event windows, histories, stopped members, step)
    every ``checkpoint_every`` steps, so a killed run resumes and ends with
    the same result bit for bit; a member whose loss or parameters turn
    non-finite is stopped with its last finite state kept and reported
    (``diverged``), while the others finish.  ``compile`` fuses the step with
    ``torch.compile`` (module ``compile``), falling back to the eager step
    without a C++ compiler.

Modules (deepxde's separation of data, network and model)
    ``settings`` (Table S2, treatments), ``data`` (record tensors,
    collocation, transition detection), ``net`` (batched Fourier-feature
    MLPs with Taylor-mode derivatives), ``problem`` (records, residual,
    networks and physical parameters of a batch), ``step`` (sampling, loss,
    gradients), ``trainer`` (optimiser, divergence, the loop), ``checkpoint``
    (checkpoints), ``progress`` (history and progress lines), ``compile``
    (the optional fused step), ``outputs`` (a run's files) and
    ``methods`` (the registered ``pinn_smooth``, ``pinn_fb``, ``pinn_event``,
    with ``run_batch`` for several seeds of a seed group as one batch), and
    ``basis_coverage`` (the Fourier basis's band in Hz against a record's
    dominant and the structure's modal frequencies).
"""

from ..._lazy import attach

_EXPORTS = {
    "TREATMENTS": "settings",
    "TRAIN_SEED_TAG": "settings",
    "PINNSettings": "settings",
    "PINNNet": "net",
    "PINNTrainer": "trainer",
    "seed_stream": "problem",
    "PINNSmooth": "methods",
    "PINNComplementarity": "methods",
    "PINNEventAware": "methods",
    "RecordTensors": "data",
    "prepare_records": "data",
    "collocation_points": "data",
    "sign_change_times": "data",
    "write_run": "outputs",
    "time_scale_s": "basis_coverage",
    "basis_band_hz": "basis_coverage",
    "ResponseFrequencies": "basis_coverage",
    "dominant_frequencies_hz": "basis_coverage",
    "modal_frequencies_hz": "basis_coverage",
    "FrequencyCoverage": "basis_coverage",
    "BasisCoverage": "basis_coverage",
    "coverage": "basis_coverage",
    "record_coverage": "basis_coverage",
}
"""Public name -> its module (imported on first access)."""

__getattr__, __dir__, __all__ = attach(__name__, _EXPORTS)
