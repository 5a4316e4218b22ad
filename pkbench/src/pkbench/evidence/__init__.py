"""What the repository's documents say from its committed runs: the blocks `./dev docs` writes and checks
(blocks.py, tables.py), the "which key?" table and its rules (advice.py, advice_text.py, also what `pkbench
advise` writes from the runs it made), docs/reproductions.md, the calibrations, the two designs side by side,
back-to-back pairs and sequuid's benchmark figures. It reads many runs; what one run writes about itself is
summary/'s, which this package may read and which never reads it."""
