/**
 * The client imports the server's router *type* only. The server adds the cookie methods to
 * Fastify's request and reply types through @fastify/cookie's module augmentation, which its
 * router file does not import itself, so the augmentation is loaded here for type-checking.
 */
import type {} from '@fastify/cookie';
