"""The HTTP benchmarks' floor: one authenticated insert through the same stack (``bench/settings.py`` only).

Production never installs this app: ``corr.settings`` carries no benchmark
table and no benchmark endpoint.
"""
