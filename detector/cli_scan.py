"""Argument definitions of the `pivot` scan commands (registered by detector.cli)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any


def register(commands: Any, add_model_options: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add this module's subcommands to the `pivot` parser."""
