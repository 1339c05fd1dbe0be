"""Build helpers for the lesson site: pure, unit-tested functions that the MkDocs hooks wire in."""
