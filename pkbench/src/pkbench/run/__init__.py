"""Planning and orchestration: options checked into a plan before anything starts, the runner that starts the
target and runs every strategy's pass, paired rounds, and sweeps of one parameter."""
