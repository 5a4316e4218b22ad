"""pgbench"""
