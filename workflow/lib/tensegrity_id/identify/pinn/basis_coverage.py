"""Does a reading's Fourier time basis span a record's response?  Frequencies in Hz, side by side.

The network's time input (:mod:`tensegrity_id.identify.pinn.net`) is the
scaled time ``tau = t / T_ref`` through the fixed features
``sin(w_j tau), cos(w_j tau)``, ``w_j`` from
:func:`~tensegrity_id.identify.pinn.net.fourier_frequencies` (per unit tau).
A feature of angular frequency ``w_j`` per unit tau oscillates at

    f_j = w_j / (2 pi T_ref)   Hz

in the record's time.  A reading whose highest ``f_j`` lies below the
frequencies that carry the response leaves them to the trunk's nonlinearity
alone; the pre-registered comparison of the readings asks, per record, that
the basis reach them.

How tau is formed (the trainer's definition, not a copy of it)
    ``identify/pinn/data.py``, :func:`~tensegrity_id.identify.pinn.data.prepare_records`:
    ``T = t[-1]`` with ``t`` the record's sensor sample times (``sensors["t"]``,
    every sample of the sensor file: the record's output grid ``0, dt_out, ...,
    t_end``, so ``T = t_end`` = 5 s in the default config), and ``T_ref = T``
    unless ``identify.pinn.settings.t_ref`` gives a time scale.  The training
    samples (the train split and the kept samples) enter as ``t / T_ref``
    (``RecordTensors.tau_train``); the collocation points are uniform on
    ``[0, T / T_ref]`` (``collocation_points``); predictions are made at
    ``t / T_ref`` (``problem.py``, ``PINNProblem.predict``).  Neither the
    training split nor an intermittent protocol's kept samples change
    ``T_ref``.  :func:`time_scale_s` states it, and a unit test holds it
    equal to what ``prepare_records`` builds.

Dominant frequencies of a record (:func:`dominant_frequencies_hz`)
    The sensors measure accelerations (``tensegrity_id.data.sensors``:
    ``qdd`` at the instrumented coordinates, m/s^2), and the data loss fits
    them, so the spectrum is that of the channels as given.  Each channel's
    Hann-weighted mean is removed (so the windowed channel has zero mean: a
    plain mean leaves a lobe about 0 Hz as high as a few per cent of the
    tones' peaks), the Hann window applied, and its one-sided periodogram
    (``scipy.signal.periodogram``, zero-padded ``pad`` times to place peaks
    between bins) summed over the channels.  Two readings of "dominant":

    * the *cumulative power frequency* ``f_q``: the lowest frequency of the
      grid at or below which a share ``q`` of the summed power lies (``f95``,
      ``f99``), the spectral-edge frequency of signal analysis; robust to
      how the power is split among peaks;
    * the *peaks*: local maxima of the summed spectrum of at least
      ``peak_floor`` of the largest, the ``n_peaks`` highest, ascending.

    The record's frequency resolution is ``1 / (N dt)`` (N samples of step
    ``dt``: 0.2 Hz for 5 s).  The Hann main lobe spans two resolutions either
    side of a tone, so ``f_q`` of a lone tone lies within two resolutions of it;
    an isolated tone's peak lies well within half a resolution of it, and two
    tones closer than about two resolutions merge into one peak.

Modal frequencies (:func:`modal_frequencies_hz`)
    The constrained small-oscillation frequencies about the prestressed
    equilibrium (:func:`tensegrity_id.mechanics.modal.constrained_modes`, the
    rule ``compute_modal``'s ``frequencies_hz``), rigid-body modes left out
    as that rule leaves them out; a taut record's free response rings at
    these, a slack record's transitions spread power above them.

What a fitted network reproduces above the band (:func:`band_capture`)
    The band says what the fixed features span, not what the network fits:
    the trunk forms harmonics and beats of the features.  A run's
    ``_series.npz`` holds the true acceleration of an unmeasured coordinate
    and the network's prediction of it; the share of the true signal's power
    above the band's top, and the share of that power the network
    reproduces (one minus the residual's power above the top over the true
    power above it), measure whether a reading's network represents the
    response its basis does not span.  The rule, fixed before the
    comparison's runs were read: a record's response above the band counts
    as *represented* by a reading when the median over its seeds of the
    captured share is at least :data:`REPRESENTED` (0.9).

Coverage (:func:`coverage`)
    A frequency is *inside* the band when it is at most the highest basis
    frequency; each frequency is given with the nearest basis frequency (in
    absolute difference) and its ratio to it.  The features also hold
    ``tau`` itself, and the tanh trunk forms sums and products of features
    (harmonics and beats above the band): inside the band is what the fixed
    basis spans, not all the network can represent.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.signal import find_peaks, get_window, periodogram

from ...mechanics.dynamics import Dynamics
from ...mechanics.modal import constrained_modes
from .net import fourier_frequencies

__all__ = [
    "time_scale_s",
    "basis_band_hz",
    "ResponseFrequencies",
    "dominant_frequencies_hz",
    "modal_frequencies_hz",
    "FrequencyCoverage",
    "BasisCoverage",
    "coverage",
    "REPRESENTED",
    "BandCapture",
    "band_capture",
]

REPRESENTED = 0.9
"""A network *represents* a record's response above its basis band when it reproduces at least this
share of the true power there (:func:`band_capture`; median over seeds)."""

RIGID_RELATIVE = 1e-6
"""A mode below this fraction of the highest frequency is a rigid-body mode (rule compute_modal's cut)."""


def time_scale_s(t, t_ref: float | None = None) -> float:
    """``T_ref`` (s) of a record's tau: its last sample time ``t[-1]``, or ``t_ref`` when set.

    Parameters
    ----------
    t : array_like, shape (n_t,), s
        The record's sensor sample times (``sensors["t"]``), all samples.
    t_ref : float, optional
        The setting ``identify.pinn.settings.t_ref`` (s); ``None`` (the default) takes ``t[-1]``.
    """
    if t_ref is not None:
        if not (math.isfinite(t_ref) and t_ref > 0):
            raise ValueError(f"t_ref must be a positive time in seconds, got {t_ref!r}")
        return float(t_ref)
    t = np.asarray(t, float)
    if t.ndim != 1 or t.size < 2 or not np.isfinite(t).all() or t[-1] <= 0:
        raise ValueError("t must be finite sample times, shape (n_t,) with n_t >= 2, ending after 0 s")
    return float(t[-1])


def basis_band_hz(n: int, spacing: str, duration_s: float) -> np.ndarray:
    """The basis's frequencies in Hz, ascending: ``w_j / (2 pi duration_s)``, ``j < n``.

    Parameters
    ----------
    n : int
        ``identify.pinn.settings.n_fourier``.
    spacing : str
        ``identify.pinn.settings.fourier``: ``geometric``, ``linear`` or ``linear_pi``.
    duration_s : float
        ``T_ref`` of the record (s, :func:`time_scale_s`).

    Returns
    -------
    ndarray, shape (n,), Hz.  For n = 8 and 5 s: geometric 0.1, 0.2, 0.4, ..., 12.8;
    linear_pi 0.1, 0.2, ..., 0.8; linear 0.2, 0.4, ..., 1.6.
    """
    if not (isinstance(n, int | np.integer) and n >= 1):
        raise ValueError(f"n must be a positive integer (the number of Fourier frequencies), got {n!r}")
    if not (math.isfinite(duration_s) and duration_s > 0):
        raise ValueError(f"duration_s must be a positive time in seconds, got {duration_s!r}")
    w = fourier_frequencies(int(n), spacing).numpy()
    return np.sort(w / (2.0 * math.pi * float(duration_s)))


@dataclass(frozen=True)
class ResponseFrequencies:
    """Dominant frequencies of a record's channels (:func:`dominant_frequencies_hz`).

    Attributes
    ----------
    quantile_hz : dict of float -> float
        Share ``q`` of the power -> ``f_q`` (Hz), the lowest grid frequency with at least that
        share at or below it.
    peaks_hz : ndarray, shape (n_found,), Hz, ascending
    peak_power : ndarray, shape (n_found,)
        Each peak's spectral power over the largest peak's.
    resolution_hz : float
        ``1 / (N dt)``, the record's frequency resolution.
    nyquist_hz : float
    frequency_hz, power : ndarray, shape (n_f,)
        The (zero-padded) frequency grid and the summed power, normalised to sum 1.
    """

    quantile_hz: dict
    peaks_hz: np.ndarray
    peak_power: np.ndarray
    resolution_hz: float
    nyquist_hz: float
    frequency_hz: np.ndarray
    power: np.ndarray

    @property
    def dominant_hz(self) -> np.ndarray:
        """The cumulative-power frequencies and the peaks together, ascending (what to check)."""
        return np.unique(np.r_[list(self.quantile_hz.values()), self.peaks_hz])


def _uniform_step(t: np.ndarray) -> float:
    dt = np.diff(t)
    if not (dt > 0).all():
        raise ValueError("t must increase")
    step = float(np.mean(dt))
    if np.max(np.abs(dt - step)) > 1e-6 * step:
        raise ValueError(
            f"t must be uniformly sampled (steps from {dt.min():.6g} to {dt.max():.6g} s); "
            "resample before taking a periodogram"
        )
    return step


def dominant_frequencies_hz(
    t,
    y,
    *,
    fractions=(0.95, 0.99),
    n_peaks: int = 5,
    peak_floor: float = 0.01,
    pad: int = 8,
    normalise: bool = False,
) -> ResponseFrequencies:
    """The frequencies carrying a record's response: cumulative-power frequencies and peaks.

    Parameters
    ----------
    t : array_like, shape (n_t,), s
        Uniform sample times.
    y : array_like, shape (n_t,) or (n_t, n_channels)
        The channels (a record's sensor accelerations, m/s^2, or any other signal).
    fractions : sequence of float in (0, 1]
        The power shares ``q`` of the cumulative-power frequencies ``f_q``.
    n_peaks : int
        The most peaks to report (the highest).
    peak_floor : float
        A peak counts when its power is at least this share of the largest peak's.
    pad : int
        Zero-padding factor of the transform (a finer grid, not a finer resolution).
    normalise : bool
        Scale each channel to unit power before summing, so that every channel counts alike;
        by default the channels' power adds as measured (a silent channel adds nothing).

    Returns
    -------
    ResponseFrequencies
    """
    t = np.asarray(t, float)
    y = np.asarray(y, float)
    y = y[:, None] if y.ndim == 1 else y
    if t.ndim != 1 or t.size < 8 or y.ndim != 2 or y.shape[0] != t.size:
        raise ValueError(
            f"t must have shape (n_t,) with n_t >= 8 and y (n_t[, n_channels]); got {t.shape}, {y.shape}"
        )
    if not (np.isfinite(t).all() and np.isfinite(y).all()):
        raise ValueError("t and y must be finite")
    qs = [float(q) for q in fractions]
    if not all(0.0 < q <= 1.0 for q in qs):
        raise ValueError(f"fractions must lie in (0, 1], got {list(fractions)}")
    if not (isinstance(pad, int | np.integer) and pad >= 1):
        raise ValueError(f"pad must be a positive integer, got {pad!r}")
    dt = _uniform_step(t)
    live = np.ptp(y, axis=0) > 0
    if not live.any():
        raise ValueError("the channels are constant: no response to take frequencies from")
    w = get_window("hann", t.size)
    y = y - (w @ y) / w.sum()  # the windowed channels' mean is zero: no spurious lobe about 0 Hz
    f, P = periodogram(
        y, fs=1.0 / dt, window=w, nfft=int(pad) * t.size, detrend=False, scaling="spectrum", axis=0
    )
    if normalise:  # a constant channel (a coordinate the bars hold still) is left out, not blown up
        P = P[:, live] / P[:, live].sum(axis=0)
    total = P.sum(axis=1)
    power = total / total.sum()
    cum = np.cumsum(power)
    quantile = {q: float(f[min(int(np.searchsorted(cum, q * cum[-1])), f.size - 1)]) for q in qs}
    idx, _ = find_peaks(power, height=peak_floor * power.max())
    idx = idx[np.argsort(power[idx])[::-1][:n_peaks]]
    if idx.size == 0:  # a spectrum that peaks at an end of the grid
        idx = np.array([int(np.argmax(power))])
    idx = np.sort(idx)
    return ResponseFrequencies(
        quantile_hz=quantile,
        peaks_hz=f[idx],
        peak_power=power[idx] / power[idx].max(),
        resolution_hz=1.0 / (t.size * dt),
        nyquist_hz=0.5 / dt,
        frequency_hz=f,
        power=power,
    )


def modal_frequencies_hz(structure, *, n_lowest: int | None = None) -> np.ndarray:
    """The structure's natural frequencies (Hz, ascending) about its prestressed equilibrium.

    The constrained modes (:func:`tensegrity_id.mechanics.modal.constrained_modes`), rigid-body
    modes (below ``RIGID_RELATIVE`` of the highest) left out, as rule ``compute_modal`` does;
    ``n_lowest`` keeps the lowest ones.
    """
    freq, _ = constrained_modes(Dynamics(structure))
    freq = np.sort(freq[np.abs(freq) > RIGID_RELATIVE * np.abs(freq).max()])
    return freq if n_lowest is None else freq[:n_lowest]


@dataclass(frozen=True)
class FrequencyCoverage:
    """One frequency against a basis: ``inside`` (at most the highest basis frequency), the
    nearest basis frequency (absolute difference, Hz) and ``ratio`` = frequency / nearest."""

    frequency_hz: float
    inside: bool
    nearest_hz: float
    ratio: float


@dataclass(frozen=True)
class BasisCoverage:
    """Frequencies against a basis's band (:func:`coverage`)."""

    basis_hz: tuple
    rows: tuple
    """One :class:`FrequencyCoverage` per frequency, in the order given."""

    @property
    def top_hz(self) -> float:
        """The highest basis frequency (Hz): the band's upper edge."""
        return float(max(self.basis_hz))

    @property
    def all_inside(self) -> bool:
        return all(r.inside for r in self.rows)

    @property
    def outside_hz(self) -> tuple:
        """The frequencies above the band (Hz), in the order given."""
        return tuple(r.frequency_hz for r in self.rows if not r.inside)

    def summary(self) -> str:
        """One line: all inside, or which frequencies lie above the band."""
        n = len(self.rows)
        if self.all_inside:
            return f"all {n} inside the band (top {self.top_hz:.3g} Hz)"
        out = ", ".join(f"{f:.3g}" for f in self.outside_hz)
        return f"{len(self.outside_hz)} of {n} above the band (top {self.top_hz:.3g} Hz): {out} Hz"


def coverage(basis_hz, frequencies_hz) -> BasisCoverage:
    """Each frequency against the basis's band: inside or above it, and its nearest basis frequency.

    Parameters
    ----------
    basis_hz : array_like, shape (n,), Hz
        The basis's frequencies (:func:`basis_band_hz`).
    frequencies_hz : array_like, shape (m,), Hz
        Frequencies to check: a record's dominant ones
        (:attr:`ResponseFrequencies.dominant_hz`), the modal ones, or any others (>= 0).
    """
    b = np.atleast_1d(np.asarray(basis_hz, float))
    f = np.atleast_1d(np.asarray(frequencies_hz, float))
    if b.ndim != 1 or b.size == 0 or not (np.isfinite(b).all() and (b > 0).all()):
        raise ValueError("basis_hz must be positive finite frequencies, shape (n,) with n >= 1")
    if f.ndim != 1 or not (np.isfinite(f).all() and (f >= 0).all()):
        raise ValueError("frequencies_hz must be finite frequencies >= 0, shape (m,)")
    top = b.max()
    rows = []
    for x in f:
        near = float(b[np.argmin(np.abs(b - x))])
        rows.append(FrequencyCoverage(float(x), bool(x <= top), near, float(x / near)))
    return BasisCoverage(basis_hz=tuple(float(v) for v in np.sort(b)), rows=tuple(rows))


def record_coverage(records, settings) -> list[tuple[str, BasisCoverage]]:
    """Per record, the run's Fourier basis against the record's dominant response frequencies.

    Parameters
    ----------
    records : sequence of :class:`~tensegrity_id.identify.base.RecordData`
        The records a run fits: their sensor files' sample times ``t`` and measured
        accelerations ``noisy`` (what the data loss fits).
    settings : :class:`~tensegrity_id.identify.pinn.settings.PINNSettings`
        ``n_fourier``, ``fourier`` (the spacing) and ``t_ref`` (the time scale).

    Returns
    -------
    list of (record name, :class:`BasisCoverage`)
        The basis's band (:func:`basis_band_hz` at :func:`time_scale_s`) against the
        record's ``f95``, ``f99`` and peaks (:attr:`ResponseFrequencies.dominant_hz`).
    """
    out = []
    for rec in records:
        t = np.asarray(rec.sensors["t"], float)
        band = basis_band_hz(settings.n_fourier, settings.fourier, time_scale_s(t, settings.t_ref))
        found = dominant_frequencies_hz(t, np.asarray(rec.sensors["noisy"], float))
        out.append((rec.name, coverage(band, found.dominant_hz)))
    return out


@dataclass(frozen=True)
class BandCapture:
    """The power of a true signal above a frequency and the share of it a fit reproduces.

    Attributes
    ----------
    top_hz : float
        The split frequency (a basis band's top).
    share_above : float
        The true signal's power above ``top_hz`` over its whole power (Hann window, mean removed).
    captured_above : float
        ``1 - P_above(true - fitted) / P_above(true)``: 1 for a fit that reproduces the content
        above ``top_hz`` exactly, 0 for one that leaves it out (or anything that adds as much error),
        negative for a fit that adds error there; NaN when the true signal has no power above.
    captured_below : float
        The same below and at ``top_hz``.
    """

    top_hz: float
    share_above: float
    captured_above: float
    captured_below: float


def band_capture(t, true, fitted, top_hz: float) -> BandCapture:
    """How much of a true signal's power above ``top_hz`` a fitted signal reproduces.

    Parameters
    ----------
    t : array_like, shape (n_t,), s
        Uniform sample times.
    true, fitted : array_like, shape (n_t,) or (n_t, n_channels)
        The true signal and the fit at the same times (a run's ``_series.npz`` ``true`` and
        ``network``, m/s^2).
    top_hz : float
        The split frequency (Hz), e.g. :attr:`BasisCoverage.top_hz`.
    """
    t = np.asarray(t, float)
    y = np.asarray(true, float)
    z = np.asarray(fitted, float)
    y = y[:, None] if y.ndim == 1 else y
    z = z[:, None] if z.ndim == 1 else z
    if t.ndim != 1 or t.size < 8 or y.shape != z.shape or y.shape[0] != t.size:
        raise ValueError(
            f"t must have shape (n_t,), n_t >= 8, and true and fitted the same shape (n_t[, n_ch]); "
            f"got {t.shape}, {y.shape}, {z.shape}"
        )
    if not (np.isfinite(t).all() and np.isfinite(y).all() and np.isfinite(z).all()):
        raise ValueError("t, true and fitted must be finite")
    if not (math.isfinite(top_hz) and top_hz > 0):
        raise ValueError(f"top_hz must be a positive frequency, got {top_hz!r}")
    dt = _uniform_step(t)
    w = get_window("hann", t.size)[:, None]

    def spectrum(x):
        x = x - (w[:, 0] @ x) / w.sum()
        return np.abs(np.fft.rfft(w * x, axis=0)) ** 2

    f = np.fft.rfftfreq(t.size, dt)
    above = f > top_hz
    P, R = spectrum(y), spectrum(y - z)
    p_above, p_below = P[above].sum(), P[~above].sum()
    total = p_above + p_below
    if total <= 0:
        raise ValueError("the true signal is constant: no power to split")
    r_above, r_below = R[above].sum(), R[~above].sum()
    return BandCapture(
        top_hz=float(top_hz),
        share_above=float(p_above / total),
        captured_above=float(1.0 - r_above / p_above) if p_above > 0 else math.nan,
        captured_below=float(1.0 - r_below / p_below) if p_below > 0 else math.nan,
    )
