"""`pkbench inspect`: a live server's tables and their keys, read-only (catalog.py), what each key is
(classify.py, pure), each table placed in a condition of the committed which-key table (placement.py), and
what the survey writes (report.py)."""
