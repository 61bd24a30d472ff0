/**
 * The static-file reference of the replay benchmark: @fastify/static serving a directory of the
 * same bytes the replay answers (manifest and document), with the same cache headers, in its own
 * process on 127.0.0.1. `STATIC_DIR` and `PORT` come from the environment.
 */
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
await app.register(fastifyStatic, { root: process.env.STATIC_DIR!, maxAge: '1y', immutable: true });
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
