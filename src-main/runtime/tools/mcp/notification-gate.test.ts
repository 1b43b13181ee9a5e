import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { NotificationGate } from './notification-gate';

/** A transport whose incoming messages the test writes, as a server would send them. */
class ScriptedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  sessionId?: string;
  version?: string;
  sent: JSONRPCMessage[] = [];
  async start(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
  setProtocolVersion(version: string): void {
    this.version = version;
  }
  receive(message: Omit<JSONRPCMessage, 'jsonrpc'>): void {
    this.onmessage?.({ jsonrpc: '2.0', ...message } as JSONRPCMessage);
  }
}

async function gated(perSecond?: number) {
  const inner = new ScriptedTransport();
  const changes = { count: 0 };
  const gate = new NotificationGate(inner, { toolsChanged: () => changes.count++ }, perSecond);
  const passed: JSONRPCMessage[] = [];
  gate.onmessage = (message) => passed.push(message);
  await gate.start();
  return { inner, gate, passed, changes };
}

const progress = (token: number | string | undefined, value: number) => ({
  method: 'notifications/progress',
  params: { progressToken: token, progress: value },
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the notification gate', () => {
  it('passes answers and requests on, and tool list changes only to its hook', async () => {
    const { inner, passed, changes } = await gated();
    inner.receive({ id: 1, result: {} });
    for (let i = 0; i < 50_000; i++) inner.receive({ method: 'notifications/tools/list_changed' });
    inner.receive({ id: 7, method: 'ping' });
    inner.receive({ id: 2, error: { code: -1, message: 'no' } });
    expect(passed.map((m) => ('id' in m ? m.id : null))).toEqual([1, 7, 2]);
    expect(changes.count).toBe(50_000);
  });

  it('coalesces progress per token: the latest report of each, once per turn', async () => {
    const { inner, passed } = await gated();
    for (let i = 1; i <= 20_000; i++) inner.receive(progress(1, i));
    inner.receive(progress('b', 5));
    expect(passed).toEqual([]);
    await nextTurn();
    expect(passed.map((m) => ('params' in m ? m.params : null))).toEqual([
      { progressToken: 1, progress: 20_000 },
      { progressToken: 'b', progress: 5 },
    ]);
  });

  it("passes a call's last progress report before its answer", async () => {
    const { inner, passed } = await gated();
    inner.receive(progress(3, 1));
    inner.receive(progress(3, 2));
    inner.receive({ id: 3, result: {} });
    // the answer follows a microtask later, as the SDK handles the report a microtask late
    expect(passed.map((m) => ('method' in m ? m.method : m.id))).toEqual([
      'notifications/progress',
    ]);
    await Promise.resolve();
    expect(passed.map((m) => ('method' in m ? m.method : m.id))).toEqual([
      'notifications/progress',
      3,
    ]);
    expect(passed[0]).toMatchObject({ params: { progress: 2 } });
    await nextTurn();
    expect(passed).toHaveLength(2);
  });

  it('drops and counts what passes its budget, and what could make it hold without bound', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { inner, gate, passed } = await gated(5);
    for (let i = 0; i < 12; i++) inner.receive({ method: 'notifications/message', params: { i } });
    inner.receive({ id: 9, method: 'ping' }); // a request it did not make counts too
    expect(passed).toHaveLength(5);
    inner.receive(progress(undefined, 1)); // no token
    for (let token = 0; token < 150; token++) inner.receive(progress(token, 1));
    expect(gate.takeDropped()).toBe(8 + 1 + 50);
    expect(gate.takeDropped()).toBe(0);
    vi.setSystemTime(Date.now() + 1_000);
    inner.receive({ method: 'notifications/message' });
    // the progress held back goes first
    expect(passed.at(-2)).toMatchObject({ method: 'notifications/progress' });
    expect(passed.at(-1)).toMatchObject({ method: 'notifications/message' });
    expect(
      passed.filter((m) => 'method' in m && m.method === 'notifications/message'),
    ).toHaveLength(6);
  });

  it('passes nothing once closed, and forwards the session and protocol version', async () => {
    const { inner, gate, passed } = await gated();
    inner.sessionId = 'abc';
    gate.setProtocolVersion('2025-06-18');
    expect(gate.sessionId).toBe('abc');
    expect(inner.version).toBe('2025-06-18');
    await gate.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(inner.sent).toHaveLength(1);
    let closed = false;
    gate.onclose = () => (closed = true);
    inner.receive(progress(1, 1));
    await gate.close();
    expect(closed).toBe(true);
    inner.receive({ id: 1, result: {} });
    await nextTurn();
    expect(passed).toEqual([]);
  });
});
