/**
 * `npm run openapi`: prints the OpenAPI document the server serves at /api/openapi.json, built from
 * the procedures without starting anything. Diff two runs to see what a change did to the contract.
 */
import { buildOpenApiDocument } from '../server/src/http/openapi.ts';
import { restRoutes } from '../server/src/http/rest-routes.ts';

process.stdout.write(JSON.stringify(buildOpenApiDocument(restRoutes), null, 2));
