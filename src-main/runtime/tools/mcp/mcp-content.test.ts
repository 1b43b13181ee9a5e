import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workspaceBlobSink } from './mcp-blobs';
import { describe, expect, it } from 'vitest';
import { mcpResultToToolResult } from './mcp-content';

describe('MCP results as tool results', () => {
  it('joins text parts', () => {
    const result = mcpResultToToolResult({
      content: [
        { type: 'text', text: 'one' },
        { type: 'text', text: 'two' },
      ],
    });
    expect(result).toEqual({ output: 'one\ntwo' });
  });

  it('forwards the first image with its own MIME type and describes the others', () => {
    const result = mcpResultToToolResult({
      content: [
        { type: 'text', text: 'charts' },
        { type: 'image', mimeType: 'image/png', data: 'AAAA' },
        { type: 'image', mimeType: 'image/webp', data: 'BBBB' },
      ],
    });
    expect(result.image).toEqual({ mimeType: 'image/png', data: 'AAAA' });
    expect(result.output).toContain('[image image/png]');
    expect(result.output).toMatch(/another image \(image\/webp\).*only the first/);
  });

  it('skips an image part without data instead of forwarding a broken image', () => {
    const result = mcpResultToToolResult({
      content: [{ type: 'image', mimeType: 'text/plain', data: 'x' }],
    });
    expect(result.image).toBeUndefined();
    expect(result.output).toMatch(/skipped/);
    const svg = mcpResultToToolResult({
      content: [{ type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz4=' }],
    });
    expect(svg.image).toBeUndefined();
    expect(svg.output).toMatch(/image\/svg\+xml.*only PNG, JPEG, GIF and WebP/);
  });

  it('turns isError into a tool error, with a message even when the server gave none', () => {
    expect(
      mcpResultToToolResult({ content: [{ type: 'text', text: 'bad path' }], isError: true }),
    ).toEqual({
      output: '',
      error: 'bad path',
    });
    expect(mcpResultToToolResult({ content: [], isError: true }).error).toMatch(
      /without a message/,
    );
  });

  it('describes audio, resources and links, and falls back to structured content', () => {
    const result = mcpResultToToolResult({
      content: [
        { type: 'audio', mimeType: 'audio/wav', data: 'x' },
        { type: 'resource', resource: { uri: 'file:///a.txt', text: 'hello' } },
        {
          type: 'resource',
          resource: { uri: 'file:///b.bin', blob: 'AA', mimeType: 'application/zip' },
        },
        { type: 'resource_link', name: 'report', uri: 'file:///r.pdf' },
      ],
    });
    expect(result.output).toContain('audio (audio/wav)');
    expect(result.output).toContain('Resource file:///a.txt:\nhello');
    expect(result.output).toContain('binary resource file:///b.bin (application/zip, 1 bytes)');
    expect(result.output).toContain('Resource link: report file:///r.pdf');
    expect(
      mcpResultToToolResult({ content: [], structuredContent: { total: 3 } }).output,
    ).toContain('"total": 3');
    expect(mcpResultToToolResult({ toolResult: { legacy: true } }).output).toBe('{"legacy":true}');
  });

  it('saves binary resources into the workspace, decodes text blobs, shows image blobs, and says how to read links', () => {
    const workspace = mkdtempSync(join(tmpdir(), 'wb-blobs-'));
    const blobs = workspaceBlobSink(workspace, '/workspace', 'everything');
    const gz = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02]);
    const result = mcpResultToToolResult(
      {
        content: [
          {
            type: 'resource',
            resource: {
              uri: 'demo://resource/session/data.gz',
              mimeType: 'application/gzip',
              blob: gz.toString('base64'),
            },
          },
          {
            type: 'resource',
            resource: {
              uri: 'demo://config',
              mimeType: 'application/json',
              blob: Buffer.from('{"a":1}').toString('base64'),
            },
          },
          { type: 'resource_link', uri: 'demo://resource/dynamic/text/1', name: 'Text 1' },
          {
            type: 'resource',
            resource: { uri: 'demo://logo', mimeType: 'image/png', blob: 'iVBORw0KGgo=' },
          },
        ],
      },
      { blobs, readTool: 'mcp_everything_read_resource' },
    );
    expect(result.output).toContain(
      'Binary resource demo://resource/session/data.gz (application/gzip, 6 bytes): saved in the workspace as mcp-resources/everything/data.gz (/workspace/mcp-resources/everything/data.gz in the sandbox)',
    );
    expect(readFileSync(join(workspace, 'mcp-resources/everything/data.gz'))).toEqual(gz);
    expect(result.output).toContain('Resource demo://config (application/json):\n{"a":1}');
    expect(result.output).toContain(
      'Resource link: Text 1 demo://resource/dynamic/text/1; read it with mcp_everything_read_resource',
    );
    expect(result.image).toEqual({ mimeType: 'image/png', data: 'iVBORw0KGgo=' });
  });
});
