"""The parts of /generalisation (pages/generalisation.py). Not pages."""
