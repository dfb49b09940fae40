// The connections of the live streams: each one's life from the accepted handshake (pending in the ledger) to
// its end, the channels they share, the frames they are sent and the bound on what a connection may leave
// unread. Every ledger change is committed (stream-credits.ts) before the frame that reports it is sent.
import type { WebSocket } from 'ws'
import { notFoundError, type StreamNotice } from '../../../src/service/index.js'
import type { MarketStore } from '../store.js'
import type { StreamLimits } from './limits.js'
import { channelKey, openChannel, type Channel, type Member } from './channel.js'
import type { LiveFeed } from './live-feed.js'
import { CLOSE, readClientMessage, type ErrorFrame, type ServedKind } from './protocol.js'
import type { StreamCredits } from './stream-credits.js'

export interface StreamHub {
  /** A connection whose handshake the ledger accepted (`streamId` pending). */
  accept(ws: WebSocket, account: string, kind: ServedKind, streamId: string): void
  /** Ends the streams the ledger refused (`rate_limited` frame, then a normal close). */
  deliver(account: string, notices: readonly StreamNotice[]): Promise<void>
  settle(): Promise<void>
  /** Open connections and channels (tests, the bench). */
  stats(): { connections: number; channels: number; slowClosed: number }
  close(): Promise<void>
}

interface Conn {
  ws: WebSocket
  account: string
  kind: ServedKind
  streamId: string
  state: 'pending' | 'subscribing' | 'open' | 'ended'
  channel?: Channel
  member?: Member
  timer?: NodeJS.Timeout
}

type LedgerEnd = 'close' | 'upstreamError' | 'none'

const errorFrame = (code: ErrorFrame['code'], message: string): ErrorFrame => ({ type: 'error', code, message })

export function createStreamHub(opts: {
  store: MarketStore
  feed: LiveFeed
  credits: StreamCredits
  clock: () => number
  limits: StreamLimits
}): StreamHub {
  const { store, feed, credits, clock, limits } = opts
  const conns = new Map<string, Conn>()
  const channels = new Map<string, Channel>()
  const id = (account: string, streamId: string): string => `${account}\u0000${streamId}`
  let renewTimer: NodeJS.Timeout | undefined
  let slowClosed = 0
  const log = (what: string) => (e: unknown) => console.error(`[streams] ${what}:`, e)

  function leave(c: Conn): void {
    const ch = c.channel
    if (ch === undefined || c.member === undefined) return
    ch.members.delete(c.member)
    if (ch.members.size === 0 && channels.get(ch.key) === ch) {
      channels.delete(ch.key)
      void ch.stop().catch(log('channel stop'))
    }
  }

  function ledgerEnd(c: Conn, how: LedgerEnd): void {
    if (how === 'none') return
    const a = credits.account(c.account)
    const done = how === 'close' ? a.close(clock(), c.streamId) : a.upstreamError(clock(), c.streamId)
    done.then((r) => deliver(c.account, r.notices).then(schedule)).catch(log('ledger'))
  }

  /** Ends a connection: optional frame, then the close code; the ledger forgets the stream as `how` says. */
  function end(c: Conn, frame: object | undefined, code: number, reason: string, how: LedgerEnd): void {
    if (c.state === 'ended') return
    c.state = 'ended'
    clearTimeout(c.timer)
    conns.delete(id(c.account, c.streamId))
    leave(c)
    if (frame !== undefined && c.ws.readyState === c.ws.OPEN) c.ws.send(JSON.stringify(frame))
    c.ws.close(code, reason)
    ledgerEnd(c, how)
  }

  function send(c: Conn, text: string): void {
    if (c.state === 'ended' || c.ws.readyState !== c.ws.OPEN) return
    if (c.ws.bufferedAmount + text.length > limits.maxBufferedBytes) {
      // the client stopped reading: its close frame would wait behind the unread bytes, so cut it after a grace
      slowClosed++
      end(c, undefined, CLOSE.slowConsumer, 'slow_consumer', 'close')
      setTimeout(() => c.ws.terminate(), limits.closeGraceMs).unref()
      return
    }
    c.ws.send(text)
  }

  async function deliver(account: string, notices: readonly StreamNotice[]): Promise<void> {
    for (const n of notices) {
      const c = conns.get(id(account, n.streamId))
      if (c !== undefined) end(c, n.frame, n.close.code, n.close.reason, 'none')
    }
  }

  function schedule(): void {
    clearTimeout(renewTimer)
    const due = credits.nextDue()
    if (due === undefined) return
    const delay = Math.min(Math.max(due - clock(), 50), 2_147_000_000)
    renewTimer = setTimeout(() => void settle().catch(log('renewals')), delay)
    renewTimer.unref()
  }

  async function settle(): Promise<void> {
    const now = clock()
    for (const account of credits.states().keys()) {
      const a = credits.account(account)
      const r = await a.renew(now)
      const figures = a.figures()
      for (const p of r.renewals) {
        const c = conns.get(id(account, p.streamId))
        if (c !== undefined)
          send(c, JSON.stringify({ type: 'charged', reason: 'renewal', charged: p.charged, credits: figures }))
      }
      await deliver(account, r.notices)
    }
    for (const ch of channels.values()) ch.advance(now - limits.lateMs)
    schedule()
  }

  const closeTimer = setInterval(() => {
    const t = clock() - limits.lateMs
    for (const ch of channels.values()) ch.advance(t)
  }, 1000)
  closeTimer.unref()

  async function subscribe(c: Conn, sub: Parameters<typeof channelKey>[0]): Promise<void> {
    c.state = 'subscribing'
    clearTimeout(c.timer)
    if (store.exchange(sub.exchange) === undefined)
      return end(c, errorFrame('not_found', 'exchange not found'), CLOSE.policy, 'not_found', 'upstreamError')
    const s = store.security(sub.exchange, sub.symbol)
    if (s === undefined)
      return end(
        c,
        errorFrame('not_found', notFoundError('security').message),
        CLOSE.policy,
        'not_found',
        'upstreamError',
      )
    const key = channelKey(sub)
    let ch = channels.get(key)
    if (ch === undefined) {
      ch = openChannel(sub, s, feed, clock(), store.newest(s))
      channels.set(key, ch)
    }
    try {
      await ch.ready
    } catch (e) {
      if (channels.get(key) === ch) channels.delete(key)
      const message = `upstream: ${e instanceof Error ? e.message : String(e)}`
      return end(c, errorFrame('unavailable', message), CLOSE.internal, 'unavailable', 'upstreamError')
    }
    if (c.state !== 'subscribing') return
    const confirm = await credits.account(c.account).confirm(clock(), c.streamId)
    await deliver(c.account, confirm.notices)
    schedule()
    if (!confirm.ok || c.state !== 'subscribing') {
      if (c.state === 'subscribing')
        end(c, errorFrame('unavailable', 'the stream ended before it opened'), CLOSE.internal, 'unavailable', 'close')
      return
    }
    c.state = 'open'
    const since = ch.since()
    send(
      c,
      JSON.stringify({
        type: 'subscribed',
        streamId: c.streamId,
        kind: sub.kind,
        exchange: sub.exchange,
        symbol: sub.symbol,
        timeframe: sub.timeframe.id,
        ...(sub.rowSize === undefined ? {} : { rowSize: sub.rowSize }),
        tickSize: s.security.tickSize,
        pricePrecision: s.security.pricePrecision,
        ...(since === undefined ? {} : { since: new Date(since).toISOString() }),
        charged: confirm.charged,
        credits: credits.account(c.account).figures(),
      }),
    )
    if (c.state !== 'open') return
    // the snapshot and the membership in one turn: every later change reaches the client as an update
    send(c, ch.snapshotText())
    c.channel = ch
    c.member = { send: (text) => send(c, text) }
    if (channels.get(key) === ch) ch.members.add(c.member)
    else end(c, errorFrame('unavailable', 'upstream ended the stream'), CLOSE.internal, 'unavailable', 'close')
  }

  function accept(ws: WebSocket, account: string, kind: ServedKind, streamId: string): void {
    const c: Conn = { ws, account, kind, streamId, state: 'pending' }
    conns.set(id(account, streamId), c)
    c.timer = setTimeout(
      () =>
        end(
          c,
          errorFrame('invalid_argument', `subscribe: no subscribe message within ${limits.subscribeTimeoutMs} ms`),
          CLOSE.policy,
          'invalid_argument',
          'upstreamError',
        ),
      limits.subscribeTimeoutMs,
    )
    c.timer.unref()
    ws.on('error', () => {})
    ws.on('close', () => end(c, undefined, CLOSE.normal, '', c.state === 'open' ? 'close' : 'upstreamError'))
    ws.on('message', (data, isBinary) => {
      if (c.state === 'ended') return
      const m = readClientMessage(data, isBinary, kind, limits.maxMessageBytes, clock())
      const how: LedgerEnd = c.state === 'open' ? 'close' : 'upstreamError'
      if (m.type === 'invalid') return end(c, m.error, m.close, m.error.code, how)
      if (m.type === 'ping')
        return send(c, JSON.stringify(m.id === undefined ? { type: 'pong' } : { type: 'pong', id: m.id }))
      if (c.state !== 'pending') {
        const e = errorFrame(
          'invalid_argument',
          'subscribe: this connection has its stream already (one stream a connection)',
        )
        return end(c, e, CLOSE.policy, 'invalid_argument', how)
      }
      subscribe(c, m.subscription).catch((e: unknown) => {
        log('subscribe')(e)
        end(
          c,
          errorFrame('unavailable', 'the server could not save its state; try again'),
          CLOSE.internal,
          'unavailable',
          'upstreamError',
        )
      })
    })
  }

  return {
    accept,
    deliver,
    settle,
    stats: () => ({ connections: conns.size, channels: channels.size, slowClosed }),
    async close() {
      clearTimeout(renewTimer)
      clearInterval(closeTimer)
      for (const c of [...conns.values()]) end(c, undefined, CLOSE.goingAway, 'server shutting down', 'close')
      await Promise.all([...channels.values()].map((ch) => ch.stop()))
      channels.clear()
    },
  }
}
