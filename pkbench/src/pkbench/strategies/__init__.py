"""The strategy catalog: what a strategy is (model.py), the built-in ones (builtin.py, keygen_sql.py), the
user's (user_config.py), and the lookup by name (catalog.py)."""
