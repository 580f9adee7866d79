import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../test/support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../test/support/testApp.ts';

describeEachEngine('the app shell', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine.db);
  });
  afterAll(() => app.close());

  it('when health is asked without a token, then 200 {status: UP} [HEALTH-001, DEC-MISC-001]', async () => {
    const response = await fetch(`${app.baseUrl}/actuator/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'UP' });
    expect(response.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('when the path is unknown, then 404 in the error shape [DEC-ERR-001]', async () => {
    const response = await fetch(`${app.baseUrl}/nothing-here`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      status: 404,
      error: 'Not Found',
      message: 'No route GET /api/nothing-here',
    });
  });

  it('when the method is not in the spec for a known path, then 405 with Allow', async () => {
    const response = await fetch(`${app.baseUrl}/actuator/health`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect(((await response.json()) as { status: number }).status).toBe(405);
  });

  it('does not announce the framework', async () => {
    const response = await fetch(`${app.baseUrl}/actuator/health`);
    expect(response.headers.get('x-powered-by')).toBeNull();
  });
});
