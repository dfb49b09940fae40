// A local NATS JetStream cluster for tests and benches: Debian's nats-server, one process a node, every port
// probed free, each node's JetStream store in its own folder. Nodes can be killed and started again on the same
// ports and store (a broker fault and its recovery).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, waitForPort } from './free-port.js'
import { findBinary, startProcess, type ServiceProcess } from './process.js'

/** One node of a local cluster. */
export interface NatsNode {
  readonly name: string
  /** Client port on 127.0.0.1. */
  readonly port: number
  readonly url: string
  /** The running process (replaced by `start()`). */
  process(): ServiceProcess
  /** Starts the node again (same ports, same store) after a stop or kill. */
  start(): Promise<void>
}

/** A running local cluster. */
export interface NatsCluster {
  readonly nodes: readonly NatsNode[]
  /** Every node's client URL, for a client's `servers` option. */
  readonly servers: readonly string[]
  /** Stops every node (SIGTERM) and removes the store folders unless `keep`. */
  stop(opts?: { keep?: boolean }): Promise<void>
}

export interface NatsClusterOptions {
  /** Nodes (default 1). With more than one they form a cluster with routes between them. */
  nodes?: number
  /** Parent folder of the stores (default: a new temporary folder). */
  dir?: string
  /** Ready within (default 15 s). */
  timeoutMs?: number
}

const NATS_BIN_CANDIDATES = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server']

/** The nats-server binary this machine has (Debian's package puts it in /usr/sbin). */
export const natsServerBinary = (): string => findBinary('nats-server', NATS_BIN_CANDIDATES)

/** Starts `nodes` nats-server processes with JetStream on and waits until each accepts connections. */
export async function startNatsCluster(opts: NatsClusterOptions = {}): Promise<NatsCluster> {
  const n = opts.nodes ?? 1
  const timeoutMs = opts.timeoutMs ?? 15_000
  const root = opts.dir ?? mkdtempSync(join(tmpdir(), 'nats-'))
  const ports: { client: number; cluster: number }[] = []
  for (let i = 0; i < n; i++) ports.push({ client: await freePort(), cluster: await freePort() })
  const bin = natsServerBinary()
  const nodes: NatsNode[] = ports.map((p, i) => {
    const name = `n${i + 1}`
    const store = join(root, name)
    mkdirSync(store, { recursive: true })
    const args = ['-a', '127.0.0.1', '-p', String(p.client), '-n', name, '-js', '-sd', store]
    if (n > 1) {
      const routes = ports
        .filter((_, j) => j !== i)
        .map((q) => `nats://127.0.0.1:${q.cluster}`)
        .join(',')
      args.push('--cluster_name', 'local', '--cluster', `nats://127.0.0.1:${p.cluster}`, '--routes', routes)
    }
    let proc: ServiceProcess | undefined
    const node: NatsNode = {
      name,
      port: p.client,
      url: `nats://127.0.0.1:${p.client}`,
      process() {
        if (proc === undefined) throw new Error(`${name} was never started`)
        return proc
      },
      async start() {
        if (proc?.alive()) throw new Error(`${name} is running`)
        proc = startProcess(bin, args)
        try {
          await waitForPort(p.client, timeoutMs)
        } catch (e) {
          throw new Error(
            `nats-server ${name} did not start (${bin}; install Debian's nats-server): ${String(e)}\n${proc.output()}`,
          )
        }
      },
    }
    return node
  })
  try {
    await Promise.all(nodes.map((x) => x.start()))
  } catch (e) {
    await Promise.all(nodes.map((x) => safeStop(x)))
    throw e
  }
  return {
    nodes,
    servers: nodes.map((x) => x.url),
    async stop(o = {}) {
      await Promise.all(nodes.map((x) => safeStop(x)))
      if (o.keep !== true && opts.dir === undefined) rmSync(root, { recursive: true, force: true })
    },
  }
}

async function safeStop(node: NatsNode): Promise<void> {
  try {
    await node.process().stop('SIGTERM')
  } catch {
    // never started
  }
}
