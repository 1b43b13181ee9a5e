/**
 * A tool whose structuredContent does not fit its outputSchema: the SDK's client finds
 * it (ajv); the message the model gets names the path. A real SDK client and a low-level
 * SDK server (McpServer would refuse to send such a result), linked in memory.
 */
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { structuredMismatch } from './mcp-errors';

async function clientOf(structured: Record<string, unknown> | undefined): Promise<Client> {
  const server = new Server({ name: 'bad-weather', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: 'weather',
        inputSchema: { type: 'object' },
        outputSchema: {
          type: 'object',
          properties: { temperature: { type: 'number' } },
          required: ['temperature'],
        },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, () => ({
    content: [{ type: 'text', text: 'warm' }],
    ...(structured ? { structuredContent: structured } : {}),
  }));
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(b);
  await client.listTools();
  return client;
}

async function failure(structured: Record<string, unknown> | undefined): Promise<unknown> {
  const client = await clientOf(structured);
  return client.callTool({ name: 'weather', arguments: {} }).then(
    () => null,
    (error: unknown) => error,
  );
}

describe('structured content that does not fit the output schema', () => {
  it('names the path and what is wrong', async () => {
    expect(structuredMismatch(await failure({ temperature: 'warm' }))).toBe(
      'at /temperature: must be number',
    );
    expect(structuredMismatch(await failure({}))).toBe(
      "at /: must have required property 'temperature'",
    );
  });

  it('says when none was returned', async () => {
    expect(structuredMismatch(await failure(undefined))).toBe('it returned no structuredContent');
  });
});
