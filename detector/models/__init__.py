"""Data-only package: the shipped default model and its manifest (models/ at the top links here)."""
