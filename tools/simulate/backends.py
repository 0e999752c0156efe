"""Where a study's games run, by name. A module of its own, light to import: the command line
names the backends in its help at every start, without loading the runner (runner.py)."""

BACKENDS = ("local", "ray")     # this machine's cores (a process pool), or a Ray cluster (ray_backend.py)
