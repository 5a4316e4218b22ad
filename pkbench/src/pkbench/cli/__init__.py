"""The front door: the click commands, the one error boundary that turns a PkbenchError into one line, and the
console (rich) a run reports through."""
