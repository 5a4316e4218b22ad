"""What one run writes about itself, in text: summary.md and the console's tables, summary.csv, sweep.md and
sweep.csv, calibration.md, and the rows of the studies' figures beside the run's. What the documents say from
many committed runs is evidence/'s."""
