import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../webhooksCli.ts';
import { webhookReceiver } from '../middleware.ts';
import type { CallbackItem } from '../middleware.ts';
import { sampleCallbackBody, sampleCallbackItem, signedDelivery } from '../sampleDelivery.ts';

const secret = `whsec-${Math.random().toString(36).slice(2)}`;
const stops: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

function io() {
  let out = '';
  let err = '';
  return {
    io: { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, env: {} },
    out: () => out,
    err: () => err,
  };
}

/** Runs `content-webhooks listen …` until the test ends; resolves with its URL and output. */
async function startListen(args: string[]) {
  const captured = io();
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  const exited = main(['listen', '--port', '0', ...args], { ...captured.io, untilStopped: () => stopped });
  stops.push(async () => {
    stop();
    expect(await exited).toBe(0);
  });
  await expect.poll(() => captured.out()).toContain('Listening for webhook deliveries on');
  const url = /on (http:\/\/[^\s,]+)/.exec(captured.out())![1]!;
  return { url, out: captured.out };
}

describe('content-webhooks trigger and listen', () => {
  it('when trigger sends an EventUpdated to listen with the same secret, then both report it verified and trigger exits 0', async () => {
    const listener = await startListen(['--secret', secret]);
    const t = io();
    const code = await main(['trigger', 'EventUpdated', '--forward-to', listener.url, '--secret', secret], t.io);
    expect(code).toBe(0);
    expect(t.out()).toMatch(/EventUpdated delivery [0-9a-f-]{36} \(1 item\) → .*: HTTP 200/);
    expect(listener.out()).toMatch(/delivery [0-9a-f-]{36} · signature ok · new/);
    expect(listener.out()).toMatch(/EventUpdated\s+trc-[0-9a-f-]+\s+https:\/\/content\.example\.com\/api\/events\//);
  });

  it('when the secrets differ, then listen prints the rejection, answers 401, and trigger exits 1', async () => {
    const listener = await startListen(['--secret', secret]);
    const t = io();
    expect(await main(['trigger', 'VenueDeleted', '--forward-to', listener.url, '--secret', 'other'], t.io)).toBe(1);
    expect(t.out()).toContain('HTTP 401');
    expect(listener.out()).toContain('signature REJECTED');
  });

  it('when the same delivery arrives twice, then listen marks the second a duplicate', async () => {
    const listener = await startListen(['--secret', secret]);
    const body = sampleCallbackBody([sampleCallbackItem('RouteUpdated')]);
    const first = signedDelivery(secret, body);
    for (const d of [first, signedDelivery(secret, body, { deliveryId: first.deliveryId })]) {
      const res = await fetch(listener.url, { method: 'POST', headers: d.headers, body: d.body });
      expect(res.status).toBe(200);
    }
    expect(listener.out()).toContain(`delivery ${first.deliveryId} · signature ok · new`);
    expect(listener.out()).toContain(`delivery ${first.deliveryId} · signature ok · DUPLICATE`);
  });

  it('when listen forwards to a receiver, then the receiver verifies the same bytes and its status is the answer', async () => {
    const received: CallbackItem[] = [];
    const app = express();
    app.post('/hooks', webhookReceiver({ secret, onItems: (items) => void received.push(...items) }));
    const server = createServer(app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    stops.push(() => new Promise<void>((r) => server.close(() => r())));
    const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    const listener = await startListen(['--secret', secret, '--forward-to', target]);
    const t = io();
    const code = await main(
      ['trigger', 'LocationUpdated', '--forward-to', listener.url, '--secret', secret, '--items', '3'],
      t.io,
    );
    expect(code).toBe(0);
    expect(listener.out()).toContain(`forwarded to ${target}: HTTP 200`);
    await expect.poll(() => received.length).toBe(3);
    expect(received.every((i) => i.resourceType === 'LOCATION' && i.actionType === 'UPDATED')).toBe(true);
  });

  it.each([
    [['trigger', 'Nope', '--forward-to', 'http://x', '--secret', 's'], 'unknown event type Nope'],
    [['trigger', 'EventUpdated', '--secret', 's'], 'trigger needs --forward-to URL'],
    [['trigger', 'EventUpdated', '--forward-to', 'http://x'], 'trigger needs --secret'],
    [['trigger', 'EventUpdated', '--forward-to', 'http://x', '--secret', 's', '--items', '101'], '--items must be'],
    [['serve'], 'unknown command serve'],
    [
      ['trigger', 'EventUpdated', '--forward-to', 'http://x', '--secret', 's', '--sandbox', 'http://y/api'],
      '--sandbox needs --token',
    ],
    [
      ['trigger', 'EventUpdated', '--forward-to', 'http://x', '--secret', 's', '--token', 't'],
      '--token needs --sandbox',
    ],
    [
      [
        'trigger',
        'EventUpdated',
        '--forward-to',
        'http://x',
        '--secret',
        's',
        '--sandbox',
        'http://y',
        '--token',
        't',
        '--resource-base',
        'http://z',
      ],
      'leave out --resource-base',
    ],
  ])('when the command line is %j, then it exits 2 saying %s', async (argv, message) => {
    const t = io();
    expect(await main(argv, t.io)).toBe(2);
    expect(t.err()).toContain(message);
  });

  it('when trigger --sandbox finds no deleted item for a *Deleted event, then it asks for it with the interface query, says so and exits 1', async () => {
    const queries: Record<string, unknown>[] = [];
    const auth: (string | undefined)[] = [];
    const app = express();
    app.get('/api/venues', (req, res) => {
      queries.push({ ...req.query });
      auth.push(req.get('authorization'));
      res.json([]);
    });
    const server = createServer(app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    stops.push(() => new Promise<void>((r) => server.close(() => r())));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    const t = io();
    const argv = ['trigger', 'VenueDeleted', '--forward-to', 'http://127.0.0.1:9/', '--secret', secret];
    expect(await main([...argv, '--sandbox', base, '--token', 'tok-1', '--items', '3'], t.io)).toBe(1);
    expect(queries).toEqual([{ size: '3', sortField: 'lastupdated', sortOrder: 'DESC', wfstatus: 'deleted' }]);
    expect(auth).toEqual(['Bearer tok-1']);
    expect(t.out()).toContain(`${base}/venues: the token sees no deleted item to announce`);
  });

  it('when asked for --help, then it names both commands and exits 0', async () => {
    const t = io();
    expect(await main(['--help'], t.io)).toBe(0);
    expect(t.out()).toContain('content-webhooks trigger <EventType>');
    expect(t.out()).toContain('content-webhooks listen');
  });
});
