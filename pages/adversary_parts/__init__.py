"""The parts of /adversary (pages/adversary.py)."""
