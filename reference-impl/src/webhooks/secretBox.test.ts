import { describe, expect, it } from 'vitest';
import { createSecretBox, SecretUnreadableError } from './secretBox.ts';

const TOKEN = '6b2d4f8a-1c3e-4a5b-8d7f-9e0a1b2c3d4e';
const SECRET = 'Zx1n4Qp8rT0vWm2yB6cE9gHjK3LsN5uV7aD0fGiO2qS';

describe('secretBox', () => {
  it('when a key is set, then the stored form does not contain the secret and opens back to it', () => {
    const box = createSecretBox('a-key-of-at-least-thirty-two-characters');
    const stored = box.seal(SECRET, TOKEN);
    expect(stored).toMatch(/^enc:v1:/);
    expect(stored).not.toContain(SECRET);
    expect(box.seal(SECRET, TOKEN)).not.toBe(stored); // fresh IV each time
    expect(box.open(stored, TOKEN)).toBe(SECRET);
  });

  it('when opened for another token, with another key, or damaged, then it refuses with a reason', () => {
    const box = createSecretBox('a-key-of-at-least-thirty-two-characters');
    const stored = box.seal(SECRET, TOKEN);
    expect(() => box.open(stored, '00000000-0000-4000-8000-000000000000')).toThrow(SecretUnreadableError);
    expect(() => createSecretBox('another-key-of-at-least-thirty-two-chars').open(stored, TOKEN)).toThrow(
      /another WEBHOOK_SECRET_KEY/,
    );
    const flipped = stored.slice(0, -2) + (stored.at(-2) === 'A' ? 'B' : 'A') + stored.at(-1);
    expect(() => box.open(flipped, TOKEN)).toThrow(SecretUnreadableError);
    expect(() => createSecretBox(undefined).open(stored, TOKEN)).toThrow(/WEBHOOK_SECRET_KEY is not set/);
  });

  it('when no key is set, then secrets are stored as they are; a key set later still reads them', () => {
    const plain = createSecretBox(undefined).seal(SECRET, TOKEN);
    expect(plain).toBe(SECRET);
    expect(createSecretBox('a-key-of-at-least-thirty-two-characters').open(plain, TOKEN)).toBe(SECRET);
  });
});
