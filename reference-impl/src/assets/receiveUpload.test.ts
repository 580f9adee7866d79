import { describe, expect, it } from 'vitest';
import { cleanFilename } from './receiveUpload.ts';

describe('cleanFilename', () => {
  it('when the name carries directories or control characters, then only a clean last segment remains', () => {
    expect(cleanFilename('../../etc/passwd.jpg', 'image/jpeg')).toBe('passwd.jpg');
    expect(cleanFilename('C:\\Users\\me\\foto.png', 'image/png')).toBe('foto.png');
    expect(cleanFilename('a\u0000b\nc.pdf', 'application/pdf')).toBe('abc.pdf');
    expect(cleanFilename('Zeeuwse brug – zomer.jpg', 'image/jpeg')).toBe('Zeeuwse brug – zomer.jpg');
  });

  it('when nothing usable remains, then upload.<ext> from the sniffed type', () => {
    expect(cleanFilename(undefined, 'video/mp4')).toBe('upload.mp4');
    expect(cleanFilename('..', 'image/gif')).toBe('upload.gif');
    expect(cleanFilename('dir/', 'image/webp')).toBe('upload.webp');
  });

  it('when the name is long, then it is cut at 255 characters', () => {
    expect([...cleanFilename(`${'é'.repeat(300)}.jpg`, 'image/jpeg')]).toHaveLength(255);
  });
});
