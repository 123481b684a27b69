"""The correct example adapter, imported by the planted-fault adapters of the tests."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples"))

import conform_adapter as good

__all__ = ["good"]
