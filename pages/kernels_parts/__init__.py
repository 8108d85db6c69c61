"""The parts of /kernels (pages/kernels.py): its sections. Not a page."""
