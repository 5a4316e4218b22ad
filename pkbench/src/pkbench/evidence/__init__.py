"""What the repository's documents say from its committed runs: the blocks `./dev docs` writes and checks
(blocks.py, tables.py), the "which key?" table, the rule that decides from its cells and its words (cell.py,
advice.py, decision.py, advice_text.py, decision_examples.py; also what `pkbench advise` writes from the runs
it made), docs/reproductions.md, the calibrations, the two designs side by side,
back-to-back pairs and sequuid's benchmark figures. It reads many runs; what one run writes about itself is
summary/'s, which this package may read and which never reads it."""
