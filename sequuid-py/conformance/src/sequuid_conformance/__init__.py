"""The conformance harness: UUIDv7 generators of several languages, checked side by side.

``python -m sequuid_conformance setup`` installs the pinned packages once (the Python ones from
constraints.txt); ``run`` runs every
implementation whose toolchain is present and writes a run (JSON); ``table`` writes
sequuid/docs/conformance.md from the newest committed run (``--check`` only compares).
"""

__version__ = "1.0.0"
