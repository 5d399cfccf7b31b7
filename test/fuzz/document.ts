// The OpenAPI document as the fuzzer uses it: its operations (method, path, parameters, body,
// documented statuses) and a compiled validator for each success body. Read from the app itself
// (GET /openapi.json), so the fuzzer checks the server against what it publishes.
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

const Ajv = AjvModule.default ?? AjvModule;
const addFormats = addFormatsModule.default ?? addFormatsModule;

export type JsonSchema = Record<string, any>;

export interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  id: string;
  method: string;
  /** As documented: /v1/workflows/{id}/runs */
  path: string;
  params: Param[];
  body: { required: boolean; schema: JsonSchema } | null;
  /** Documented statuses, as numbers. */
  statuses: Set<number>;
  /** Validators of the success bodies by status. */
  success: Map<number, ValidateFunction>;
  /** Whether the document puts the operation behind the API key (every /v1 operation: metered). */
  secured: boolean;
}

export interface ApiDocument {
  raw: any;
  operations: Operation[];
  /** Documented methods by path. */
  methodsAt: Map<string, string[]>;
  /** x-error-codes: the catalogue as published. */
  errorCodes: Record<string, { status: number; type: string }>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function makeAjv() {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  // The spec's timestamps are UTC ending in Z and ids are bare UUIDs: stricter than the formats.
  ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  return ajv;
}

export function readDocument(raw: any): ApiDocument {
  // Success bodies are inline schemas (only error bodies use a $ref, and those the oracle checks
  // against the catalogue itself).
  const ajv = makeAjv();
  const operations: Operation[] = [];
  const methodsAt = new Map<string, string[]>();
  const globalSecurity = Array.isArray(raw.security) && raw.security.length > 0;
  for (const [path, item] of Object.entries<any>(raw.paths)) {
    for (const m of METHODS) {
      const op = item[m];
      if (!op) continue;
      // The hub's API (tag "hub") is cookie-and-CSRF authenticated, not by API key: its own
      // security and validation tests live in test/hub/; the fuzzer's oracle speaks /v1's rules.
      if (Array.isArray(op.tags) && op.tags.includes('hub')) continue;
      methodsAt.set(path, [...(methodsAt.get(path) ?? []), m.toUpperCase()]);
      const params: Param[] = (op.parameters ?? []).map((p: any) => ({
        name: p.name,
        in: p.in,
        required: Boolean(p.required),
        schema: p.schema ?? {},
      }));
      const bodyContent = op.requestBody?.content?.['application/json'];
      const success = new Map<number, ValidateFunction>();
      for (const [status, resp] of Object.entries<any>(op.responses)) {
        const s = Number(status);
        const schema = resp.content?.['application/json']?.schema;
        if (s >= 200 && s < 300 && schema) success.set(s, ajv.compile(schema));
      }
      operations.push({
        id: op.operationId ?? `${m} ${path}`,
        method: m.toUpperCase(),
        path,
        params,
        body: bodyContent ? { required: Boolean(op.requestBody.required), schema: bodyContent.schema ?? {} } : null,
        statuses: new Set(Object.keys(op.responses).map(Number)),
        success,
        secured: op.security ? op.security.length > 0 : globalSecurity,
      });
    }
  }
  return { raw, operations, methodsAt, errorCodes: raw['x-error-codes'] ?? {} };
}

/** The documented path that a concrete path matches ({id} matches one segment), if any. */
export function documentedPathOf(doc: ApiDocument, concrete: string): string | null {
  for (const p of doc.methodsAt.keys()) {
    const re = new RegExp(`^${p.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (re.test(concrete)) return p;
  }
  return null;
}
