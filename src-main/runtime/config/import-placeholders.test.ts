/**
 * Issue 26 item 10: OpenManus's example placeholders are not imported as if they were
 * real. The example files themselves are imported end to end in
 * src-main/cli/openmanus-configs.int.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { isPlaceholderKey, isPlaceholderUrl } from './import-placeholders';
import { convertOpenManusConfig, ImportRefused } from './openmanus-import';

describe('placeholder keys and URLs', () => {
  it('tells the examples’ placeholders from keys', () => {
    for (const key of [
      'YOUR_API_KEY',
      'AZURE API KEY',
      'your Jiekou.AI api key',
      'sk-...',
      '<your key>',
      '{API_KEY}',
      'xxxxxxxx',
      'your-key-here',
    ])
      expect(isPlaceholderKey(key), key).toBe(true);
    for (const key of ['sk-proj-AbC123_def-456', 'ollama', 'bear', 'a1b2c3d4e5f6', 'gsk_yourself1'])
      expect(isPlaceholderKey(key), key).toBe(false);
    expect(isPlaceholderUrl("{YOUR_AZURE_ENDPOINT.rstrip('/')}/openai/deployments/X")).toBe(true);
    expect(isPlaceholderUrl('https://YOUR_RESOURCE.openai.azure.com')).toBe(true);
    expect(isPlaceholderUrl('https://api.openai.com/v1')).toBe(false);
  });

  it('a placeholder key is not stored, and the report says runs use the demo model', () => {
    const out = convertOpenManusConfig({
      llm: { model: 'gpt-4o', base_url: 'https://api.openai.com/v1', api_key: 'YOUR_API_KEY' },
    });
    expect(out.apiKeys).toEqual([]);
    expect(out.ignored).toContainEqual({
      path: 'llm.api_key',
      reason: expect.stringMatching(/placeholder, not a key: runs use the built-in demo model/),
    });
  });

  it("the Azure example's placeholder base_url refuses the import instead of pointing at OpenAI", () => {
    const convert = () =>
      convertOpenManusConfig({
        llm: {
          api_type: 'azure',
          model: 'gpt-4o-mini',
          base_url: "{YOUR_AZURE_ENDPOINT.rstrip('/')}/openai/deployments/{AZURE_DEPLOYMENT_ID}",
          api_key: 'k-real-0000',
        },
      });
    expect(convert).toThrow(ImportRefused);
    expect(convert).toThrow(/\[llm\] base_url = .* is still the example's placeholder/);
  });

  it('any base_url that is not a URL refuses the import (it was dropped before)', () => {
    expect(() =>
      convertOpenManusConfig({ llm: { model: 'm', base_url: 'not a url', api_key: 'k-1234' } }),
    ).toThrow(/would send its key to api.openai.com/);
  });
});
