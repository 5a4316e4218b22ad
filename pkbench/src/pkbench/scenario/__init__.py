"""Scenario files (the built-in ones in builtin/ and the user's): their schema, their steps, and the studies'
published figures they carry."""
