# sequuid/test/cluster.sh: sourced by test/run and bench/run to run a command against a throwaway cluster.
#
#   throwaway_cluster [pg_virtualenv options] -- command [args]
#
# Debian's pg_virtualenv creates the cluster (as the postgres user when run as root), runs the command with
# PGHOST/PGPORT/PGUSER pointing at it, then drops it.  -t keeps it in a private temporary directory even as
# root and a free port is picked first, so runs by several people on one machine never collide.

PG_MAJOR=${PG_MAJOR:-15}

# a port nothing answers on and no server has a socket for (bash's /dev/tcp: no extra package needed)
free_port() {
    local port
    for port in $(shuf -i 20000-40000 -n 100); do
        [ -e "/var/run/postgresql/.s.PGSQL.$port" ] && continue
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && continue
        echo "$port"
        return
    done
    echo "no free TCP port found" >&2
    return 1
}

throwaway_cluster() {
    local options=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do options+=("$1"); shift; done
    shift
    local port
    port=$(free_port) || return 1
    PGPORT=$port pg_virtualenv -t -v "$PG_MAJOR" "${options[@]}" "$@"
}
