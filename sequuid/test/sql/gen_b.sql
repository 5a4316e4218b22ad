-- gen_b: one of four sessions (gen_a .. gen_d) generating at the same time; gen_check looks for duplicates.
CALL gen_fill();
