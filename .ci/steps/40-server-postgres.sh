# The reference server's one-server-per-database lock against a real Postgres server (Debian's postgresql-15,
# installed when missing; the test starts it in a temporary folder on a free port and stops it).
if [ ! -x /usr/lib/postgresql/15/bin/initdb ]; then
  (apt-get update && apt-get install -y -o DPkg::Lock::Timeout=600 postgresql-15) ||
    echo "could not install postgresql-15: the server's Postgres test will fail"
fi
npm run test:server-postgres -- --reporter=default --reporter=json --outputFile="$results/server-postgres.json"
