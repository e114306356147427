"""Pyramide: the reference rules engine, JSON REST API and conformance kit for Pyramid solitaire."""

__version__ = "0.1.0"
