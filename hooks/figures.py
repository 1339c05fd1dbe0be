"""Placeholder hook; its owner replaces it."""
