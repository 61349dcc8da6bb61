"""The repository's own scripts (outside the package) as modules, for the tests that check them
(``from repo_scripts import sync_envs``)."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load(name: str, relpath: str):
    """The script at ``ROOT / relpath`` imported as the module ``name`` (once per process)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / relpath)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


sync_envs = load("sync_envs", "requirements/sync_envs.py")
"""requirements/sync_envs.py: the conda environments' pins from the lock."""
