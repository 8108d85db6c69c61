"""The parts of /aggressive (pages/aggressive.py)."""
