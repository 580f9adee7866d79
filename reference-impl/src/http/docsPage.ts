// The API reference page (docs/build/index.html, `npm run docs`) as this instance serves it at
// /docs/: the spec's sandbox server (`x-sandbox: true` in `servers`) shows this instance's own base
// URL, whatever host and port it runs on, in the server list and wherever the page names it.

type Server = { url?: unknown; 'x-sandbox'?: unknown };

/** The page with every sandbox server URL of the spec replaced by `publicBaseUrl`. */
export function docsPage(html: string, servers: unknown, publicBaseUrl: string): string {
  const urls = (Array.isArray(servers) ? (servers as Server[]) : [])
    .filter((server) => server['x-sandbox'] === true && typeof server.url === 'string')
    .map((server) => server.url as string);
  return urls.reduce((page, url) => page.split(url).join(publicBaseUrl), html);
}
