"""The parts of /bound (pages/bound.py): its tabs, texts, views and sweeps. Not pages."""
