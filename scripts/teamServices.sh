# PostgreSQL and Redis for the team server's tests (sourced by .ci/run; usable by hand:
# `source scripts/teamServices.sh && start_team_services`). Each listens on a free loopback port, keeps
# its data in a temporary folder, and is stopped by stop_team_services. initdb refuses to run as root, so
# as root it runs as the `postgres` user. The tests find them through CREWDECK_TEST_DATABASE_URL and
# CREWDECK_TEST_REDIS_URL (without those, each test file starts its own the same way).

# Debian's newest installed PostgreSQL (bookworm ships 15, trixie 17), unless CREWDECK_PG_BIN says.
pg_bin() {
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
  echo "${dir:-/usr/lib/postgresql/15/bin}"
}
PG_BIN="${CREWDECK_PG_BIN:-$(pg_bin)}"

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

start_team_services() {
  TEAM_SERVICES_DIR="$(mktemp -d /tmp/crewdeck-ci-services.XXXXXX)"
  chmod 755 "$TEAM_SERVICES_DIR"
  local as_pg=()
  if [ "$(id -u)" = "0" ]; then
    chown postgres:postgres "$TEAM_SERVICES_DIR"
    as_pg=(runuser -u postgres --)
  fi
  local pg_port redis_port
  pg_port="$(free_port)"
  "${as_pg[@]}" "$PG_BIN/initdb" -D "$TEAM_SERVICES_DIR/pg" -A trust -U postgres --no-sync >/dev/null
  "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$TEAM_SERVICES_DIR/pg" -l "$TEAM_SERVICES_DIR/pg.log" -w \
    -o "-p $pg_port -k $TEAM_SERVICES_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400" start >/dev/null
  redis_port="$(free_port)"
  redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --pidfile "$TEAM_SERVICES_DIR/redis.pid" --logfile "$TEAM_SERVICES_DIR/redis.log"
  export CREWDECK_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/postgres"
  export CREWDECK_TEST_REDIS_URL="redis://127.0.0.1:$redis_port"
  export TEAM_SERVICES_DIR
  echo "team services: PostgreSQL on 127.0.0.1:$pg_port, Redis on 127.0.0.1:$redis_port"
}

stop_team_services() {
  [ -n "${TEAM_SERVICES_DIR:-}" ] || return 0
  local as_pg=()
  if [ "$(id -u)" = "0" ]; then as_pg=(runuser -u postgres --); fi
  "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$TEAM_SERVICES_DIR/pg" -m immediate stop >/dev/null 2>&1 || true
  if [ -f "$TEAM_SERVICES_DIR/redis.pid" ]; then kill "$(cat "$TEAM_SERVICES_DIR/redis.pid")" 2>/dev/null || true; fi
  rm -rf "$TEAM_SERVICES_DIR"
}
