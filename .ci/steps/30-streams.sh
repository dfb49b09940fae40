# The live streams: the AsyncAPI document validated by @asyncapi/parser and against a real session's frames,
# and the stream tests over real ws clients (credits with a pinned clock, refusals, slow consumers, kill -9 on
# PGlite). They ran in both npm test runs above; they run here once more by name so that a failure shows under
# this step. The NATS suite runs in 20-services.sh, the live viewer in the browser block of .ci/run.
npx vitest run examples/server/streams
