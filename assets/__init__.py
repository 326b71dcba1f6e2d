"""Bundled images and fonts (the top-level assets/ folder), importable as package data."""
