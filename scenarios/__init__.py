"""Bundled scenario files (the top-level scenarios/ folder), importable as package data."""
