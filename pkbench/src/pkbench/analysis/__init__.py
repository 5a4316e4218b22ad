"""Statistics and the metric registry: every compared figure defined once (metrics.py), medians and intervals
(stats.py), verdicts over paired rounds (verdict.py, judge.py), and the diff of two runs (run_diff.py)."""
