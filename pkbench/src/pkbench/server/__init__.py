"""Where the benchmark runs: the throwaway embedded cluster and the server builds it can use, the OS user it
runs as, memory and disk limits, a server given by --dsn, a standby and WAL archive beside it, and the run's
schema on it."""
