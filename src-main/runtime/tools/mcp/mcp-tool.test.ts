import { describe, expect, it } from 'vitest';
import { toolSpec, type Tool } from '../tool';
import { McpConnection } from './mcp-connection';
import { argumentsSchema, createMcpTool } from './mcp-tool';

const inputSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    path: { type: 'string', description: 'file to read' },
    lines: { type: 'integer', minimum: 1 },
  },
  required: ['path'],
  additionalProperties: false,
};

describe('MCP tool arguments', () => {
  it("validates like the server's JSON schema", () => {
    const schema = argumentsSchema(inputSchema);
    expect(schema.safeParse({ path: '/a' }).success).toBe(true);
    expect(schema.safeParse({ path: '/a', lines: 3 }).success).toBe(true);
    expect(schema.safeParse({}).success).toBe(false);
    expect(schema.safeParse({ path: 1 }).success).toBe(false);
    expect(schema.safeParse({ path: '/a', lines: 0 }).success).toBe(false);
    expect(schema.safeParse({ path: '/a', extra: true }).success).toBe(false);
  });

  it('shows the model the server schema (without its $schema dialect)', () => {
    const connection = new McpConnection('files', {
      type: 'stdio',
      command: 'unused',
      args: [],
      env: {},
      timeout: 5,
    });
    const tool = createMcpTool(
      connection,
      { name: 'read', description: 'Reads a file.', inputSchema },
      'mcp_files_read',
    ) as Tool;
    const spec = toolSpec(tool);
    expect(spec.function.name).toBe('mcp_files_read');
    expect(spec.function.description).toBe('Reads a file. (tool "read" of MCP server "files")');
    expect(spec.function.parameters).toMatchObject({
      type: 'object',
      properties: inputSchema.properties,
      required: ['path'],
      additionalProperties: false,
    });
    expect(spec.function.parameters).not.toHaveProperty('$schema');
  });

  it('accepts any object when the schema cannot be converted, leaving the check to the server', () => {
    const odd = { type: 'object', properties: { x: { $ref: '#/nowhere' } } };
    const schema = argumentsSchema(odd);
    expect(schema.safeParse({ x: 1, y: 2 }).success).toBe(true);
  });
});
