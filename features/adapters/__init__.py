"""Adapters that put an implementation behind the kit's subprocess driver (JSON lines)."""
