# sequuid/test/cluster.sh: sourced by test/run and bench/run to run a command against a throwaway cluster of the
# server build PG_CONFIG names.
#
#   cluster_for_build [-o 'name=value']... -- command [args]
#   throwaway_cluster [pg_virtualenv options] -- command [args]
#
# Debian's pg_virtualenv creates the cluster (as the postgres user when run as root), runs the command with
# PGHOST/PGPORT/PGUSER pointing at it, then drops it.  -t keeps it in a private temporary directory even as
# root and a free port is picked first, so runs by several people on one machine never collide.

# The server build: PG_CONFIG picks it (default: Debian's PostgreSQL $PG_MAJOR, 15 unless set), its bin first in PATH.
PG_MAJOR=${PG_MAJOR:-15}
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/$PG_MAJOR/bin/pg_config}
BINDIR=$("$PG_CONFIG" --bindir)
SERVER_VERSION=$("$PG_CONFIG" --version)
PG_MAJOR=$(echo "$SERVER_VERSION" | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
export PATH="$BINDIR:$PATH"

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

# The same for a server build Debian's tooling does not know (PG_CONFIG pointing elsewhere, such as the PostgreSQL 16
# that ./dev test fetches to compile and test against a second major version): initdb and pg_ctl from BINDIR, as the
# postgres user when run as root, socket and data in a private temporary directory, stopped and removed afterwards.
#
#   bindir_cluster BINDIR [-o 'name=value']... -- command [args]
bindir_cluster() (
    # a subshell, so that its EXIT trap stops the server however the command ends (Ctrl-C included)
    bindir=$1
    settings=()
    shift
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        [ "$1" = -o ] && { settings+=(-c "$2"); shift; }
        shift
    done
    shift
    port=$(free_port) || exit 1
    dir=$(mktemp -d -t sequuid-cluster.XXXXXX)
    owner=()
    if [ "$(id -u)" -eq 0 ]; then
        # CLUSTER_OS_USER: who runs the server when root starts it (a machine without a postgres user names another)
        chown "${CLUSTER_OS_USER:-postgres}" "$dir"
        owner=(runuser -u "${CLUSTER_OS_USER:-postgres}" --)
    fi
    trap '"${owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
    if ! "${owner[@]}" "$bindir/initdb" -D "$dir/data" -A trust -U postgres --no-sync >"$dir/initdb.log" 2>&1; then
        cat "$dir/initdb.log" >&2
        exit 1
    fi
    if ! "${owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -w -l "$dir/server.log" \
        -o "-p $port -k $dir -c listen_addresses= ${settings[*]}" start >/dev/null; then
        cat "$dir/server.log" >&2
        exit 1
    fi
    PGHOST=$dir PGPORT=$port PGUSER=postgres "$@"
)

# Debian's servers get a cluster from pg_virtualenv; any other build (BINDIR elsewhere) one of its own. A test's
# cluster keeps nothing past its test, so it never flushes to disk: no fsync, on which the suites ./dev test
# runs side by side would wait for each other, and which nothing here reads.
cluster_for_build() {
    case "$BINDIR" in
        /usr/lib/postgresql/*) throwaway_cluster -o fsync=off "$@" ;;
        *) bindir_cluster "$BINDIR" -o fsync=off "$@" ;;
    esac
}
