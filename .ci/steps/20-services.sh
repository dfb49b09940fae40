# The suites that run against real services (npm run test:services: examples/**/*.live.ts): Debian's
# nats-server (JetStream) and postgresql-15, which .ci/run installs when missing. Each suite starts its own
# processes on probed free ports and stops them by PID.
npm run test:services -- --reporter=default --reporter=json --outputFile="$results/services.json"
