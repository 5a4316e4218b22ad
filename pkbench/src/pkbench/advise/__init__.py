"""`pkbench advise`: the plan of runs that fills the which-key table for a server (plan), running its parts
and writing its page (session), what its runs answer and how they ended (outcome), and with --like a
replica of one of the user's tables (replica: scaling and layout; like: its runs; like_text: its page)."""
