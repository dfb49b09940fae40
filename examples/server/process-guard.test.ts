// The process guard, in a real server process: a bug that throws in a timer, or a rejection nobody handles,
// is logged and answered 500 `internal` (with the request's x-request-id) for the request it happened in,
// and the process keeps serving.
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, test } from 'vitest'

const fixture = fileURLToPath(new URL('./fixtures/faulty-server.ts', import.meta.url))
let child: ChildProcess
let url = ''
let stderr = ''

beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', fixture], { stdio: ['ignore', 'pipe', 'pipe'] })
  child.stderr!.on('data', (b: Buffer) => {
    stderr += b.toString()
  })
  url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString()
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
      if (m !== null) resolve(m[1]!)
    })
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)))
  })
}, 120_000)
afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL')
})

test.each([
  ['/fault/timer', 'uncaught exception', 'a bug in a timer'],
  ['/fault/rejection', 'unhandled rejection', 'a bug in a promise'],
])('%s: 500 internal for that request, logged with its id, and the server goes on', async (path, kind, message) => {
  const r = await fetch(`${url}${path}`)
  expect(r.status).toBe(500)
  expect(await r.json()).toEqual({ error: { code: 'internal', message: 'internal error' } })
  const id = r.headers.get('x-request-id')!
  expect(id).toMatch(/^[0-9a-f-]{36}$/)
  await new Promise((res) => setTimeout(res, 100))
  expect(stderr).toContain(`[${id}] ${kind} (the server goes on)`)
  expect(stderr).toContain(message)
  const ok = await fetch(`${url}/api/v1/marketdata/timeframes`, { headers: { 'x-api-key': 'faulty-key' } })
  expect(ok.status).toBe(200)
  expect(child.exitCode).toBeNull()
})
