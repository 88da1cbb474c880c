import fastifyCookie from '@fastify/cookie';
import fastifyCors from '@fastify/cors';
import { messages } from '@resort/shared';
import { type FastifyTRPCPluginOptions, fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  LogController,
} from 'fastify';
import helmet from 'helmet';
import type { Services } from '../modules/services.ts';
import { describeError } from '../platform/trpc/trpc.ts';
import { registerApiDocs } from './api-docs.ts';
import { registerBodyGuard } from './body-guard.ts';
import { createContextFactory } from './context.ts';
import { logFailure } from './log-failure.ts';
import { registerRestRoutes } from './rest.ts';
import { restRoutes } from './rest-routes.ts';
import { type AppRouter, appRouter } from './router.ts';
import { registerClientAssets } from './static-assets.ts';
import { registerTransportSecurity } from './transport-security.ts';

interface AppOptions {
  /** Directory of the built SPA; served with an index.html fallback when it exists. */
  clientDist?: string | undefined;
}

type ErrorAnswer = { status: number; body: { message: string; code: string } };

/**
 * Maps Fastify's own errors (body parsing, size limits, bad URLs) to the same JSON error body. The
 * message is always ours: Fastify's would echo the request's path or headers back.
 */
function describeFastifyError(error: FastifyError): ErrorAnswer | null {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return { status: 414, body: { message: messages.common.urlTooLong, code: 'URI_TOO_LONG' } };
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    return { status: 400, body: { message: messages.common.invalidValue, code: 'BAD_REQUEST' } };
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return { status: 413, body: { message: messages.common.tooLarge, code: 'PAYLOAD_TOO_LARGE' } };
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return {
      status: 415,
      body: { message: messages.common.unsupportedMediaType, code: 'UNSUPPORTED_MEDIA_TYPE' },
    };
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    const message = error.code?.startsWith('FST_ERR_CTP')
      ? messages.common.invalidJson
      : messages.common.invalidValue;
    return { status: error.statusCode, body: { message, code: 'BAD_REQUEST' } };
  }
  return null;
}

export async function buildApp(services: Services, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config } = services;
  const app = Fastify({
    loggerInstance: services.log as FastifyBaseLogger,
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    logController: new LogController({
      disableRequestLogging: config.LOG_LEVEL !== 'debug' && config.LOG_LEVEL !== 'trace',
    }),
    routerOptions: { ignoreTrailingSlash: true },
    // A request never hangs forever (docs/performance.md, the fault drills).
    requestTimeout: 60_000,
    // A bad or overlong URL answers in the API's error shape, never echoing the URL back.
    frameworkErrors: (error, _req, reply) => {
      const { status, body } = describeFastifyError(error) ?? {
        status: 400,
        body: { message: messages.common.invalidValue, code: 'BAD_REQUEST' },
      };
      return (reply as unknown as FastifyReply).code(status).send(body);
    },
  });
  // JSON only: a text/plain body answers 415 like any other non-JSON type.
  app.removeContentTypeParser('text/plain');

  await app.register(fastifyCookie);
  // helmet's headers, its middleware built once at start (@fastify/helmet built it again, parsing the
  // policy's directives, on every request: docs/performance.md, "API").
  const writeSecurityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine injects CSS variables at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // Added per request by registerTransportSecurity, for HTTPS requests only.
        upgradeInsecureRequests: null,
      },
    },
    hsts: false,
  });
  app.addHook('onRequest', (req, reply, done) => {
    writeSecurityHeaders(req.raw, reply.raw, (error) => done(error as Error | undefined));
  });
  registerTransportSecurity(app, config);

  registerBodyGuard(app);
  if (config.CORS_ORIGINS.length > 0) {
    // Closed by default: without CORS_ORIGINS no CORS header is sent, so browsers on other origins
    // cannot read answers. Bearer tokens need no credentials mode, and the refresh cookie is
    // SameSite=Strict, so credentials stay off.
    await app.register(fastifyCors, {
      origin: config.CORS_ORIGINS.includes('*') ? '*' : config.CORS_ORIGINS,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type'],
      exposedHeaders: ['Retry-After'],
      credentials: false,
      maxAge: 600,
    });
  }
  const createContext = createContextFactory(services);
  // The account cache serves the requests' authenticated rungs: it stops listening with them.
  app.addHook('onClose', () => services.users.close());

  app.setErrorHandler((error: FastifyError, req, reply) => {
    const fastifyDescribed = describeFastifyError(error);
    const { status, body } = fastifyDescribed ?? describeError(error);
    logFailure(req.log, error, status);
    if ('retryAfterSeconds' in body && typeof body.retryAfterSeconds === 'number') {
      reply.header('retry-after', String(body.retryAfterSeconds));
    }
    return reply.code(status).send(body);
  });

  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: ({ req, res, info }) => createContext(req, res, info.connectionParams),
      onError: ({ error, path, ctx }) => {
        if (ctx) logFailure(ctx.log, error, describeError(error).status, { path });
      },
      responseMeta: ({ errors }) => {
        const retry = errors
          .map((e) => describeError(e).body.retryAfterSeconds)
          .find((s): s is number => typeof s === 'number');
        return retry ? { headers: new Headers({ 'retry-after': String(retry) }) } : {};
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });

  registerRestRoutes(app, appRouter, restRoutes, createContext);
  // The operator's figures in Prometheus text format (docs/product.md, "Alert health"): counts only,
  // no names of users; template names, as GET /api/health shows them.
  app.get('/metrics', async (_req, reply) =>
    reply.type(services.metrics.contentType).send(await services.metrics.text()),
  );
  await registerApiDocs(app, restRoutes);

  const serveClient = await registerClientAssets(app, options.clientDist);

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '';
    const isApi = url === '/api' || url.startsWith('/api/') || url.startsWith('/trpc');
    if (!isApi && serveClient && (req.method === 'GET' || req.method === 'HEAD')) {
      // The SPA owns every other path; its router redirects unknown ones to /.
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.code(404).send({ message: messages.common.routeNotFound, code: 'NOT_FOUND' });
  });

  return app;
}
