"""The network of the physics-informed identification (the paper §3.1.1, Table S2), for a batch of seeds.

Architecture
    Scaled time ``tau = t / T_ref`` (``T_ref`` = the record length, so
    ``tau`` spans [0, 1]) enters through a fixed Fourier-feature basis

        gamma(tau) = [tau, sin(w_j tau), cos(w_j tau)]_{j < n},  w_j = 2^j pi,

    (the standard positional encoding; with n = 8 and a 5 s record it spans
    0.1 to 12.8 Hz, covering the forcing and natural frequencies of the
    benchmarks), optionally followed by a record descriptor (multi-record
    training), then a tanh trunk of ``depth`` layers of ``width`` units.
    Heads on the trunk output ``h``:

    * displacement (free coordinates only),
      ``q_f(tau) = q0_f + D s(tau) u(tau)``, ``s(tau) = (1 - exp(-tau/tau_ic))^2``,
      ``D`` the displacement scale; ``s(0) = s'(0) = 0`` gives ``q(0) = q0``
      and ``q'(0) = 0`` exactly, so no initial-condition loss is needed;
    * multipliers ``lambda = lambda0 + lambda_scale (W h + b)`` with ``W, b``
      initialised at zero, i.e. at the static-equilibrium multipliers;
    * (complementarity treatment) tensions
      ``T = T_nom softplus(W h + b) >= 0``.

    The displacement and multiplier output layers start at zero, so the
    untrained network is the structure at rest in its reference equilibrium.

A batch of independent networks
    Every weight carries a leading member axis: ``n_members`` networks with
    their own initialisations (member ``m`` initialised under its own seed,
    exactly as a ``torch.nn.Linear`` stack would be), evaluated together by
    batched matrix products.  Members share nothing: each member's outputs
    depend on its own weights and inputs only, and the batched product of a
    member equals its own matrix product bit for bit (MKL computes each
    batch entry as the single product), so a batch of one is the single
    network.  Inputs and outputs have shape ``(n_members, N, ...)``.

Derivatives in one pass
    ``(u, du/dtau, d2u/dtau2)`` come from forward-mode (second-order Taylor)
    propagation through the MLP: for ``z = W a + b``, ``z' = W a'``,
    ``z'' = W a''``; for ``a = tanh z``, ``a' = (1 - a^2) z'``,
    ``a'' = (1 - a^2)(z'' - 2 a z'^2)``.  The three streams share one matrix
    product per layer.  :func:`derivatives_autograd` computes the same by
    looping ``torch.autograd.grad`` over outputs (the naive reference).
"""

from __future__ import annotations

import math

import numpy as np
import torch
from torch import nn

__all__ = [
    "PINNNet",
    "fourier_features",
    "fourier_frequencies",
    "window",
    "derivatives_autograd",
    "trunk_tanh",
]

# The float32 tanh of Eigen, XLA and ONNX Runtime (MLAS): an odd 13/6 rational minimax
# approximation, clamped where tanh rounds to +-1 in float32.  Within 7 ulp (4e-7 relative)
# of tanh over the whole float range (tests/unit/test_pinn.py), and 2.2 x faster than
# ATen's vectorised tanh (Sleef) on this machine class: the trunk's largest elementwise cost.
_TANH_CLAMP = 7.90531110763549805
_TANH_P = (
    -2.76076847742355e-16,
    2.00018790482477e-13,
    -8.60467152213735e-11,
    5.12229709037114e-08,
    1.48572235717979e-05,
    6.37261928875436e-04,
    4.89352455891786e-03,
)
_TANH_Q = (1.19825839466702e-06, 1.18534705686654e-04, 2.26843463243900e-03, 4.89352518554385e-03)


def _rational_tanh(x):
    x = x.clamp(-_TANH_CLAMP, _TANH_CLAMP)
    x2 = x * x
    p = x2 * _TANH_P[0] + _TANH_P[1]
    for c in _TANH_P[2:]:
        p = x2 * p + c
    q = x2 * _TANH_Q[0] + _TANH_Q[1]
    for c in _TANH_Q[2:]:
        q = x2 * q + c
    return x * p / q


class _Tanh32(torch.autograd.Function):
    """tanh by :func:`_rational_tanh`, differentiated as tanh is (``g (1 - y^2)`` from the output)."""

    generate_vmap_rule = True  # torch.func.vmap over it (the benchmark's vmap formulation)

    @staticmethod
    def forward(x):
        return _rational_tanh(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * (1.0 - y * y)


def trunk_tanh(x):
    """The trunk's activation: tanh, in float32 by the rational approximation of Eigen and XLA
    (within 7 ulp; the float32 training's step), in float64 by ``torch.tanh``."""
    if x.dtype == torch.float32:
        return _Tanh32.apply(x)
    return torch.tanh(x)


def fourier_frequencies(n: int, spacing: str = "geometric", dtype=torch.float64):
    """Angular frequencies per unit tau, j < n: geometric ``2^j pi``, linear ``2 pi (j + 1)``
    (whole periods of the record), or ``linear_pi`` ``pi (j + 1)`` (half periods: the sine
    series of the record; the readings of the paper's "Fourier features" the specification study
    compares)."""
    j = torch.arange(n, dtype=dtype)
    if spacing == "geometric":
        return math.pi * 2.0**j
    if spacing == "linear":
        return 2.0 * math.pi * (j + 1.0)
    if spacing == "linear_pi":
        return math.pi * (j + 1.0)
    raise ValueError(f"unknown Fourier spacing {spacing!r}")


def fourier_features(tau, n: int, spacing: str = "geometric", constant: bool = False):
    """gamma(tau) and its first two tau-derivatives, each shape (..., N, 1 + 2n), from tau (..., N, 1).

    ``constant`` puts a feature 1 first (shape (..., N, 2 + 2n)): a reading of the basis with a
    zero-frequency term, which the trunk's biases otherwise supply.
    """
    w = fourier_frequencies(n, spacing, tau.dtype)
    arg = tau * w  # (..., N, n)
    s, c = torch.sin(arg), torch.cos(arg)
    one, zero = torch.ones_like(tau), torch.zeros_like(tau)
    g0 = [tau, s, c]
    g1 = [one, w * c, -w * s]
    g2 = [zero, -(w * w) * s, -(w * w) * c]
    if constant:
        g0, g1, g2 = [one, *g0], [zero, *g1], [zero, *g2]
    return torch.cat(g0, -1), torch.cat(g1, -1), torch.cat(g2, -1)


def window(tau, tau_ic: float):
    """Hard initial-condition window s(tau) = (1 - e^{-tau/tau_ic})^2 and its two derivatives."""
    e = torch.exp(-tau / tau_ic)
    s0 = (1.0 - e) ** 2
    s1 = 2.0 * (1.0 - e) * e / tau_ic
    s2 = 2.0 * e * (2.0 * e - 1.0) / tau_ic**2
    return s0, s1, s2


def matmul_t(A, W):
    """``A @ W^T`` per member, shapes (M, R, K) and (M, O, K) -> (M, R, O).

    A batch goes through one batched product; a single member through the
    plain matrix product of a single network (``A[0] @ W[0].T``), whose
    autograd backward (``grad_W = G^T A``) rounds as the single-run
    trainer's did in float64 too.  In float32 each member of a batched
    product equals its own plain product bit for bit (MKL, this machine).
    """
    if A.shape[0] == 1:
        return (A[0] @ W[0].T)[None]
    return torch.bmm(A, W.transpose(1, 2))


def _bmm(a, b):
    """``a @ b`` per member, (M, i, k) x (M, k, j): the plain product for one member, else batched."""
    return (a[0] @ b[0])[None] if a.shape[0] == 1 else torch.bmm(a, b)


class _SkinnyProduct(torch.autograd.Function):
    """``A @ W^T`` (as :func:`matmul_t`) for a skinny ``W`` or ``A``: the trunk's input layer (17
    features in) and the heads (a handful of outputs out), where MKL's speed depends on which way
    round a product is asked for.  Every entry is the same dot product as in :func:`matmul_t`; only
    the layouts differ, chosen by measurement on this machine class (one core, float32):

    * forward: ``(W A^T)^T`` for a few outputs (2.3 x faster than ``A W^T`` for 6 outputs), else
      ``A W^T``;
    * weight gradient: ``(A^T G)^T`` for a few inputs (1.6 x faster than ``G^T A`` for 17 inputs),
      else ``G^T A``;
    * input gradient ``G W``, only when ``A`` needs one.
    """

    generate_vmap_rule = True

    @staticmethod
    def forward(A, W):
        if W.shape[1] <= 16:  # few outputs
            return _bmm(W, A.transpose(1, 2)).transpose(1, 2)
        return _bmm(A, W.transpose(1, 2))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, G):
        A, W = ctx.saved_tensors
        gA = gW = None
        if ctx.needs_input_grad[0]:
            gA = _bmm(G, W)
        if ctx.needs_input_grad[1]:
            if A.shape[2] <= 32:  # few inputs
                gW = _bmm(A.transpose(1, 2), G).transpose(1, 2)
            else:
                gW = _bmm(G.transpose(1, 2), A)
        return gA, gW


def skinny_matmul_t(A, W):
    """:func:`matmul_t` for the input layer and the heads (:class:`_SkinnyProduct`)."""
    return _SkinnyProduct.apply(A, W)


def _member_layers(dims, heads, dtype, init: str = "torch"):
    """One member's freshly initialised layers, in this order: ``torch.nn.Linear``'s initialisation
    (weights and biases uniform in +-1/sqrt(fan_in)), then, for ``init="glorot"``, the trunk's weights
    redrawn Glorot-normal (std sqrt(2 / (fan_in + fan_out))) and its biases zero, the initialisation
    of the original physics-informed networks (Raissi et al. 2019) for a tanh trunk."""
    trunk = [nn.Linear(a, b, dtype=dtype) for a, b in zip(dims[:-1], dims[1:], strict=True)]
    out = [nn.Linear(dims[-1], n, dtype=dtype) if n else None for n in heads]
    if init == "glorot":
        for layer in trunk:
            nn.init.xavier_normal_(layer.weight)
            nn.init.zeros_(layer.bias)
    elif init != "torch":
        raise ValueError(f"unknown initialisation {init!r}")
    return trunk, out


class PINNNet(nn.Module):
    """Shared trunk with displacement, multiplier and (optional) tension heads, for a batch of members.

    Parameters
    ----------
    n_free, n_bars : int
        Displacement and bar-multiplier outputs.
    lambda0 : tensor, shape (n_bars + n_reactions,)
        Static-equilibrium multipliers: the bars' force densities (N/m), then the support
        reactions (N): the multiplier head's start.
    lambda_scale : float or array of shape (n_bars + n_reactions,)
        Multiplier scale (N/m for the bars, N for the reactions).
    n_reactions : int
        Support-multiplier outputs (the supported coordinates; 0: bars only).
    n_desc : int
        Length of the record descriptor (0 for single-record training).
    n_tension : int
        Tension-head outputs (n_cables for the complementarity treatment).
    tension_scale : float
        Nominal tension (N).
    width, depth, n_fourier, tau_ic, disp_scale :
        Table S2: 64, 4, 8, 0.08, 0.1 m.
    fourier : str
        Frequency spacing of the features (:func:`fourier_frequencies`).
    fourier_constant : bool
        A constant feature 1 before ``tau`` (:func:`fourier_features`).
    init : str
        Trunk initialisation: ``"torch"`` (``nn.Linear``'s default) or
        ``"glorot"`` (:func:`_member_layers`).
    init_seeds : sequence of int, optional
        One initialisation seed per member (the batch size); without it, one
        member initialised from PyTorch's global generator.

    Attributes
    ----------
    weights, biases : ParameterList
        Trunk layers, shapes (M, width, n_in) and (M, width).
    head_weights, head_biases : ParameterList
        The heads (displacement, multipliers[, tensions]), shapes
        (M, n_out, width) and (M, n_out).
    """

    def __init__(
        self,
        n_free: int,
        n_bars: int,
        lambda0,
        *,
        lambda_scale=1.0,
        n_reactions: int = 0,
        n_desc: int = 0,
        n_tension: int = 0,
        tension_scale: float = 1.0,
        width: int = 64,
        depth: int = 4,
        n_fourier: int = 8,
        fourier: str = "geometric",
        fourier_constant: bool = False,
        init: str = "torch",
        tau_ic: float = 0.08,
        disp_scale: float = 0.1,
        init_seeds=None,
        dtype=torch.float64,
    ):
        super().__init__()
        self.n_fourier, self.fourier, self.fourier_constant = n_fourier, fourier, bool(fourier_constant)
        self.tau_ic, self.disp_scale = tau_ic, disp_scale
        self.tension_scale = float(tension_scale)
        self.n_free, self.n_bars, self.n_tension = int(n_free), int(n_bars), int(n_tension)
        self.n_reactions = int(n_reactions)
        n_mult = self.n_bars + self.n_reactions
        if np.ndim(lambda_scale) == 0:
            self.lambda_scale = float(lambda_scale)
        else:  # one scale per multiplier: the bars' (N/m) and the reactions' (N)
            self.lambda_scale = torch.tensor(np.asarray(lambda_scale, float), dtype=dtype)
            if self.lambda_scale.shape != (n_mult,):
                shape = tuple(self.lambda_scale.shape)
                raise ValueError(f"lambda_scale: {shape} scales for {n_mult} multipliers")
        self.n_in = 1 + 2 * n_fourier + self.fourier_constant + n_desc
        dims = [self.n_in] + [width] * depth
        members = []
        for seed in [None] if init_seeds is None else list(init_seeds):
            with torch.random.fork_rng(devices=[], enabled=seed is not None):
                if seed is not None:
                    torch.manual_seed(int(seed))
                trunk, (disp, mult, tension) = _member_layers(dims, (n_free, n_mult, n_tension), dtype, init)
            for head in (disp, mult):
                nn.init.zeros_(head.weight)
                nn.init.zeros_(head.bias)
            heads = [h for h in (disp, mult, tension) if h is not None]
            members.append((trunk, heads))
        self.n_members = len(members)
        stack = lambda ts: nn.Parameter(torch.stack([t.detach() for t in ts]))  # noqa: E731
        self.weights = nn.ParameterList([stack([m[0][k].weight for m in members]) for k in range(depth)])
        self.biases = nn.ParameterList([stack([m[0][k].bias for m in members]) for k in range(depth)])
        n_heads = len(members[0][1])
        self.head_weights = nn.ParameterList(
            [stack([m[1][k].weight for m in members]) for k in range(n_heads)]
        )
        self.head_biases = nn.ParameterList([stack([m[1][k].bias for m in members]) for k in range(n_heads)])
        self.register_buffer("lambda0", torch.tensor(np.asarray(lambda0, float), dtype=dtype))

    # ------------------------------------------------------------- trunk
    def _inputs(self, tau, desc):
        g0, g1, g2 = fourier_features(tau, self.n_fourier, self.fourier, self.fourier_constant)
        if desc is not None:
            z = torch.zeros_like(desc)
            g0, g1, g2 = torch.cat([g0, desc], -1), torch.cat([g1, z], -1), torch.cat([g2, z], -1)
        return g0, g1, g2

    def _trunk_stacked(self, tau, desc=None):
        """Trunk output and its two tau-derivatives stacked, shape (M, 3 N, width).

        The three streams of a member travel as one matrix, so each layer
        costs one matrix product (and its backward pass two) per member
        whatever the number of outputs.
        """
        # concatenated and split along the point axis (not stacked and
        # unbound along a new one): the same layout, and backward passes that
        # copy contiguous blocks
        N = tau.shape[1]
        A = torch.cat(self._inputs(tau, desc), 1)
        for k, (W, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            z0, z1, z2 = (skinny_matmul_t if k == 0 else matmul_t)(A, W).split(N, 1)
            a0 = trunk_tanh(z0 + b[:, None, :])
            d = 1.0 - a0 * a0
            A = torch.cat([a0, d * z1, d * (z2 - 2.0 * a0 * z1 * z1)], 1)
        return A

    def trunk_value(self, tau, desc=None):
        """Trunk output h only (no derivatives), (M, N, width)."""
        a = self._inputs(tau, desc)[0]
        for W, b in zip(self.weights, self.biases, strict=True):
            a = trunk_tanh(torch.baddbmm(b[:, None, :], a, W.transpose(1, 2)))
        return a

    # ------------------------------------------------------------- heads
    def forward(self, tau, desc=None):
        """Displacement d = q_f - q0_f with its tau-derivatives, multipliers and tensions.

        Parameters
        ----------
        tau : tensor, shape (M, N, 1)
            Scaled times, per member.
        desc : tensor, shape (M, N, n_desc), optional
            Record descriptors.

        Returns ``(d0, d1, d2, lam, T)``: shapes (M, N, n_free) in metres, m per
        unit tau and m per unit tau^2; lambda (M, N, n_bars + n_reactions): the bars' force
        densities in N/m, then the support reactions in N; tensions
        (M, N, n_cables) in N, or ``None`` without a tension head.  All heads
        share one product with the stacked trunk streams.
        """
        N = tau.shape[1]
        W = torch.cat(list(self.head_weights), 1)
        o0, o1, o2 = skinny_matmul_t(self._trunk_stacked(tau, desc), W).split(N, 1)
        nf, nb = self.n_free, self.n_bars + self.n_reactions
        b = [x[:, None, :] for x in self.head_biases]
        u0, u1, u2 = o0[..., :nf] + b[0], o1[..., :nf], o2[..., :nf]
        lam = self.lambda0 + self.lambda_scale * (o0[..., nf : nf + nb] + b[1])
        T = None
        if self.n_tension:
            T = self.tension_scale * torch.nn.functional.softplus(o0[..., nf + nb :] + b[2])
        s0, s1, s2 = window(tau, self.tau_ic)
        D = self.disp_scale
        return D * s0 * u0, D * (s1 * u0 + s0 * u1), D * (s2 * u0 + 2.0 * s1 * u1 + s0 * u2), lam, T

    def _head(self, h, k: int):
        """Head k (0 displacement, 1 multipliers, 2 tensions): W h + b of trunk outputs h (M, N, width)."""
        return torch.baddbmm(self.head_biases[k][:, None, :], h, self.head_weights[k].transpose(1, 2))

    def displacement(self, tau, desc=None):
        """d = q_f - q0_f without derivatives, (M, N, n_free), m."""
        u = self._head(self.trunk_value(tau, desc), 0)
        return self.disp_scale * window(tau, self.tau_ic)[0] * u

    def multipliers(self, h):
        """Multipliers lambda (M, N, n_bars + n_reactions) from trunk outputs h (:meth:`forward`)."""
        return self.lambda0 + self.lambda_scale * self._head(h, 1)


def derivatives_autograd(net: PINNNet, tau, desc=None):
    """(d, d', d'') by looping ``torch.autograd.grad`` over the outputs (the naive reference).

    Each output component needs two reverse passes with ``create_graph``;
    the cost grows with the number of outputs, which is what the one-pass
    propagation of :meth:`PINNNet.forward` avoids.  Shapes as in
    :meth:`PINNNet.forward`.
    """
    tau = tau.detach().requires_grad_(True)
    d = net.displacement(tau, desc)
    d1, d2 = [], []
    for j in range(d.shape[-1]):
        (g,) = torch.autograd.grad(d[..., j].sum(), tau, create_graph=True)
        (gg,) = torch.autograd.grad(g.sum(), tau, create_graph=True)
        d1.append(g)
        d2.append(gg)
    return d, torch.cat(d1, -1), torch.cat(d2, -1)
