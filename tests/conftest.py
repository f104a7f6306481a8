"""Fixtures shared by the test modules."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def shipped_detector():  # type: ignore[no-untyped-def]
    """The hybrid detector on the shipped model, loaded once: loading is the slow part."""
    from detector.loading import build_detector

    return build_detector()
