import {
  MANAGEMENT_DEFAULT_LAMBDA,
  MANAGEMENT_PATH_PREFIXES,
  routesOf,
  type ManagementLambdaName as ManagementLambda,
} from '../../functions/definitions/routes';
import type { HttpHandler } from '../../functions/shared/http/handler';
import { pathTemplate } from '../../functions/shared/http/path-template';

/**
 * Local stand-in for the management API's gateway routing: a request goes to the Lambda whose
 * route table path matches it (any method, so that Lambda answers 405 for a wrong one), otherwise
 * to the `$default` Lambda, which answers 404 — the same split API Gateway makes on AWS.
 */
export function managementDispatcher(handlers: Record<ManagementLambda, HttpHandler>): HttpHandler {
  const patterns = routesOf({ api: 'management' }).flatMap((route) =>
    (route.exactPath ? [''] : MANAGEMENT_PATH_PREFIXES).map((prefix) => ({
      template: pathTemplate(prefix + route.path),
      lambda: route.lambda as ManagementLambda,
    })),
  );
  return (event, context) => {
    const path = event.rawPath.length > 1 ? event.rawPath.replace(/\/$/, '') : event.rawPath;
    const lambda = patterns.find((p) => p.template.match(path) !== undefined)?.lambda ?? MANAGEMENT_DEFAULT_LAMBDA;
    return handlers[lambda](event, context);
  };
}
