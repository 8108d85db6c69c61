"""The parts of /multiclass (pages/multiclass.py)."""
