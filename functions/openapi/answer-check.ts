import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { pathTemplate, type PathTemplate } from '../shared/http/path-template';

/**
 * Checks answers against an OpenAPI 3.1 document, as a validating proxy would: the path and method
 * are documented (a method a path lacks may only be answered 405 with an Allow header; a path the
 * document lacks only 404), the status is declared for the operation, and a JSON body matches the
 * status's schema. Used on every answer the integration tests saw (OPENAPI_ANSWER_LOG).
 */

type Json = Record<string, unknown>;

export interface CheckedAnswer {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly allow?: string;
  readonly body?: unknown;
  readonly bodyTooLarge?: boolean;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

export class AnswerChecker {
  private readonly ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: PathTemplate[];

  constructor(
    private readonly document: Json,
    private readonly name: string,
  ) {
    this.ajv.addSchema(document, name);
    const paths = Object.keys(document['paths'] as Json);
    // Literal segments win over parameters (`/~/cohorts/mine` before `/~/cohorts/{id}`).
    this.templates = paths.map((path) => pathTemplate(path)).sort((a, b) => b.literals - a.literals);
  }

  /** Why the answer is out of the document, or undefined when it is within it. */
  problem(answer: CheckedAnswer): string | undefined {
    // A documented path also answers with one trailing slash.
    const path = answer.path.length > 1 && answer.path.endsWith('/') ? answer.path.slice(0, -1) : answer.path;
    const matching = this.templates.filter((candidate) => candidate.match(path) !== undefined);
    if (matching.length === 0) return answer.status === 404 ? undefined : `no documented path matches ${answer.path}, yet the answer was ${answer.status}`;
    const items = matching.map((candidate) => (this.document['paths'] as Record<string, Json>)[candidate.template] as Json);
    const method = answer.method.toLowerCase();
    // The most literal path that has the method serves it (`/~/alerts/preview` takes GET from `/~/alerts/{id}`).
    const serving = items.findIndex((item) => item[method] !== undefined);
    const template = matching[Math.max(0, serving)]!;
    const operation = serving < 0 ? undefined : (items[serving]![method] as Json);
    if (operation === undefined) {
      const documented = METHODS.filter((m) => items.some((item) => item[m] !== undefined)).map((m) => m.toUpperCase());
      if (answer.status !== 405) return `${answer.method} is not documented on ${template.template}, yet the answer was ${answer.status}, not 405`;
      const allowed = (answer.allow ?? '')
        .split(',')
        .map((m) => m.trim())
        .filter((m) => m !== '' && m !== 'OPTIONS' && m !== 'HEAD');
      const expected = documented.filter((m) => m !== 'OPTIONS' && m !== 'HEAD');
      if (allowed.sort().join(',') !== expected.sort().join(','))
        return `405 on ${template.template}: Allow says ${answer.allow ?? '(none)'}, the document lists ${expected.join(', ')}`;
      return this.bodyProblem(answer, '#/components/schemas/Error');
    }
    const responses = operation['responses'] as Json;
    const declared = (responses[String(answer.status)] ?? responses['default']) as Json | undefined;
    if (declared === undefined)
      return `${answer.method} ${template.template} answered ${answer.status}, which it does not declare (declared: ${Object.keys(responses).join(', ')})`;
    const response = this.resolve(declared);
    const schemaPointer = response.pointer === undefined ? undefined : `${response.pointer}/content/application~1json/schema`;
    const hasSchema = (response.value['content'] as Json | undefined)?.['application/json'] !== undefined;
    if (!hasSchema) return answer.body === undefined ? undefined : `${answer.method} ${template.template} ${answer.status} declares no JSON body, yet one came`;
    if (answer.bodyTooLarge) return undefined;
    const pointer = schemaPointer ?? `#/paths/${escapeToken(template.template)}/${method}/responses/${answer.status}/content/application~1json/schema`;
    const problem = this.bodyProblem(answer, pointer);
    return problem === undefined ? undefined : `${answer.method} ${template.template} ${answer.status}: ${problem}`;
  }

  private bodyProblem(answer: CheckedAnswer, pointer: string): string | undefined {
    if (answer.bodyTooLarge) return undefined;
    const ref = `${this.name}${pointer
      .split('/')
      .map((token, i) => (i === 0 ? token : encodeURIComponent(token)))
      .join('/')}`;
    let validate = this.validators.get(ref);
    if (validate === undefined) {
      const found = this.ajv.getSchema(ref);
      if (found === undefined) return `the document has no schema at ${pointer}`;
      validate = found;
      this.validators.set(ref, validate);
    }
    if (validate(answer.body)) return undefined;
    const error = validate.errors?.[0];
    return `the body does not match its schema: ${error?.instancePath || '(root)'} ${error?.message ?? ''}${error?.params ? ` ${JSON.stringify(error.params)}` : ''}`;
  }

  /** A response object, following a $ref into components.responses (its pointer then names where the schema is). */
  private resolve(response: Json): { value: Json; pointer?: string } {
    const ref = response['$ref'];
    if (typeof ref !== 'string') return { value: response };
    const name = ref.split('/').pop() as string;
    return { value: ((this.document['components'] as Json)['responses'] as Json)[name] as Json, pointer: `#/components/responses/${escapeToken(name)}` };
  }
}

/** A JSON Pointer token: `~` and `/` escaped. */
const escapeToken = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1');
