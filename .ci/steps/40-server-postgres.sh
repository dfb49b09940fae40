# The reference server's one-server-per-database lock against a real Postgres server (Debian's postgresql-15,
# which .ci/run installs when missing; the test starts it in a temporary folder on a free port and stops it).
npm run test:server-postgres -- --reporter=default --reporter=json --outputFile="$results/server-postgres.json"
