import { describe, expect, it } from 'vitest';
import { docsPage } from './docsPage.ts';

const servers = [
  { url: 'https://content.example.com/api', description: 'A production deployment.' },
  { url: 'http://127.0.0.1:8080/api', description: 'The reference service.', 'x-sandbox': true },
];
const page = `<span>http://127.0.0.1:8080/api</span><script>const s={"servers":${JSON.stringify(servers)}}</script>`;

describe('docsPage', () => {
  it('when served by an instance on another port, then every mention of the sandbox server is its own URL', () => {
    const out = docsPage(page, servers, 'http://127.0.0.1:19323/api');
    expect(out).not.toContain('127.0.0.1:8080');
    expect(out.match(/http:\/\/127\.0\.0\.1:19323\/api/g)).toHaveLength(2);
    expect(out).toContain('https://content.example.com/api');
  });

  it('when the spec marks no sandbox server, then the page is served as built', () => {
    expect(docsPage(page, [servers[0]], 'http://127.0.0.1:19323/api')).toBe(page);
  });
});
