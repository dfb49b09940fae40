# The suites that run against real services (npm run test:services: examples/**/*.live.ts): Debian's
# nats-server (JetStream) and postgresql-15, installed here when missing (CI runs as root). Each suite starts
# its own processes on probed free ports and stops them by PID.
need=()
[ -x /usr/sbin/nats-server ] || command -v nats-server >/dev/null 2>&1 || need+=(nats-server)
[ -d /usr/lib/postgresql/15/bin ] || need+=(postgresql-15)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]}"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 "${need[@]}") ||
    echo "could not install ${need[*]}: the service suites will fail and say so"
fi
npm run test:services -- --reporter=default --reporter=json --outputFile="$results/services.json"
