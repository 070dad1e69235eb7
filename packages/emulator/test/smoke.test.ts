import { describe, expect, it } from 'vitest';
import { emulator } from './helpers.js';

describe('smoke', () => {
  it('answers GET /Monitor for the demo account', async () => {
    const api = await emulator({ seed: 'demo' });
    const res = await api.get('/Monitor');
    expect(res.status).toBe(200);
    expect(res.json.Data.length).toBeGreaterThan(10);
  });
});
