import { describe, expect, it } from 'vitest';
import { saveKeys } from './save-key.ts';

const refused = (status: number) => Object.assign(new Error('refused'), { status });

describe('saveKeys', () => {
  it('keeps the key across retries of an unanswered save, and renews it once one is answered', async () => {
    const save = saveKeys();
    const sent: string[] = [];
    const lost = (key: string) => {
      sent.push(key);
      return Promise.reject(refused(0));
    };
    const ok = (key: string) => {
      sent.push(key);
      return Promise.resolve(key);
    };
    await expect(save(lost)).rejects.toThrow();
    await expect(save(lost)).rejects.toThrow();
    await save(ok);
    await save(ok);
    expect(sent[0]).toMatch(/^[0-9a-f]{32}$/);
    // The two lost sends and the retry that got through share one key; the next save has its own.
    expect(sent[1]).toBe(sent[0]);
    expect(sent[2]).toBe(sent[0]);
    expect(sent[3]).not.toBe(sent[0]);
  });

  it('renews the key after a 422, which only another body under it gets', async () => {
    const save = saveKeys();
    const sent: string[] = [];
    const send = (status: number) => (key: string) => {
      sent.push(key);
      return Promise.reject(refused(status));
    };
    await expect(save(send(400))).rejects.toThrow();
    await expect(save(send(422))).rejects.toThrow();
    await expect(save(send(400))).rejects.toThrow();
    // A refusal writes nothing and the key stays; after the 422 a new key.
    expect(sent[1]).toBe(sent[0]);
    expect(sent[2]).not.toBe(sent[1]);
  });
});
