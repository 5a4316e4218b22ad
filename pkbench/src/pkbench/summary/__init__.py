"""The written outputs in text: summary.md and the console's tables, summary.csv, sweep.md and sweep.csv, and
reproductions.md (the studies' figures beside ours)."""
