"""The parts of /relaxation (pages/relaxation.py). Not pages."""
