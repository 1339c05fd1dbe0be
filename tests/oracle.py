"""Moved to :mod:`testbed.oracle`, which the tests and the benchmarks share.

A re-export kept only until ``bench/kernel.py`` imports ``testbed.oracle`` (one import
line, in a file another change owns); delete this module then.
"""

from testbed.oracle import scaled_dot_product_attention

__all__ = ["scaled_dot_product_attention"]
