"""The one exception type the command line turns into a single line on stderr."""


class PkbenchError(Exception):
    """A problem the user can act on; its message is one line without a traceback."""


class ServerDied(PkbenchError):
    """The server under test stopped during the run: nothing further can be measured."""
