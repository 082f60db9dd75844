/**
 * Every route the app registers, for the tests that compare it with a list (the authorization
 * matrix, the OpenAPI document). A test file installs it with
 * `vi.mock('fastify', (original) => fastifyWithRouteLog(original))`: each instance buildApp makes
 * gets an onRoute hook writing into `registeredRoutes`.
 */
import type { FastifyInstance } from 'fastify';

export const registeredRoutes: { method: string; url: string }[] = [];

export async function fastifyWithRouteLog(importOriginal: <T>() => Promise<T>) {
  const mod = await importOriginal<typeof import('fastify')>();
  const factory = mod.default as unknown as (opts?: unknown) => FastifyInstance;
  const withRouteLog = (opts?: unknown) => {
    const app = factory(opts);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) registeredRoutes.push({ method, url: route.url });
    });
    return app;
  };
  return { ...mod, default: withRouteLog, fastify: withRouteLog };
}
