"""Shared fixtures: a seeded random generator and the repository root."""

from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def rng():
    """A seeded generator for tests that draw random numbers."""
    return np.random.default_rng(0)


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO
