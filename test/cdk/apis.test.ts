import { MANAGEMENT_PATH_PREFIXES, routesOf, type RouteDefinition } from '../../functions/definitions/routes';
import { MANAGEMENT_DEFAULT_LAMBDA, managementGatewayRoutes, type ManagementLambdaName } from '../../lib/management-api';
import { consoleBundlingCommands } from '../../lib/console-bundling';
import { logicalIdOf, synthesize, type SynthesizedResource } from './synth';

const { stack, template, resources } = synthesize();
const collectorApiId = logicalIdOf(stack.collectorApi.http.api);
const managementApiId = logicalIdOf(stack.managementApi.http.api);

function routesOfApi(apiId: string): Array<SynthesizedResource & { id: string }> {
  return Object.entries(resources)
    .filter(([, resource]) => resource.Type === 'AWS::ApiGatewayV2::Route' && resource.Properties.ApiId.Ref === apiId)
    .map(([id, resource]) => ({ id, ...resource }));
}

/** The logical id of the Lambda function a route's integration invokes. */
function targetFunctionOf(route: SynthesizedResource): string {
  const integrationId: string = route.Properties.Target['Fn::Join'][1][1].Ref;
  const integration = resources[integrationId]!;
  expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
  return integration.Properties.IntegrationUri['Fn::GetAtt'][0];
}

/** Whether an API Gateway route key (`GET /a/{b}`, `ANY /a/{proxy+}`) catches a request. */
function routeKeyMatches(routeKey: string, method: string, path: string): boolean {
  const [keyMethod, keyPath] = routeKey.split(' ') as [string, string];
  if (keyMethod !== 'ANY' && keyMethod !== method) return false;
  const pattern = keyPath
    .split('/')
    .map((segment) => (/^\{\w+\+\}$/.test(segment) ? '.+' : /^\{\w+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${pattern}$`).test(path);
}

describe('collector API', () => {
  const routes = routesOfApi(collectorApiId);

  it('sends everything through $default to the collector Lambda, which routes with the shared table', () => {
    expect(routes.map((route) => route.Properties.RouteKey)).toEqual(['$default']);
    expect(targetFunctionOf(routes[0]!)).toBe(logicalIdOf(stack.collectorApi.collector.function));
  });

  it('answers CORS preflights for the SDK headers from any origin', () => {
    expect(resources[collectorApiId]!.Properties).toMatchObject({
      ProtocolType: 'HTTP',
      CorsConfiguration: {
        AllowOrigins: ['*'],
        AllowHeaders: ['content-type', 'content-encoding', 'authorization', 'x-service-application-id', 'x-moesif-application-id', 'x-moesif-sdk'],
        AllowMethods: ['GET', 'POST', 'OPTIONS'],
        ExposeHeaders: expect.arrayContaining(['x-moesif-config-etag', 'x-config-etag']),
      },
    });
  });
});

describe('management API', () => {
  const routes = routesOfApi(managementApiId);
  const functionIdOf = (lambda: ManagementLambdaName) => logicalIdOf(stack.managementApi.functions[lambda].function);

  /**
   * The route API Gateway picks for a request: a route of its own (most literal segments first, a
   * method over ANY), else the greedy route with the longest prefix, else `$default`.
   */
  function selectedRoute(method: string, path: string): SynthesizedResource & { id: string } {
    const keyOf = (route: SynthesizedResource) => route.Properties.RouteKey as string;
    const catching = routes.filter((route) => keyOf(route) !== '$default' && routeKeyMatches(keyOf(route), method, path));
    const literalSegments = (route: SynthesizedResource) =>
      keyOf(route)
        .split(' ')[1]!
        .split('/')
        .filter((s) => s && !s.startsWith('{')).length;
    const greedy = (route: SynthesizedResource) => keyOf(route).includes('+}');
    const rank = (route: SynthesizedResource) => (greedy(route) ? 0 : 1_000) + literalSegments(route) * 10 + (keyOf(route).startsWith('ANY ') ? 0 : 1);
    const best = catching.sort((a, b) => rank(b) - rank(a))[0];
    return best ?? routes.find((route) => keyOf(route) === '$default')!;
  }

  it.each(
    routesOf({ api: 'management' }).flatMap((route) =>
      (route.exactPath ? [''] : MANAGEMENT_PATH_PREFIXES).map((prefix): [string, string, RouteDefinition] => [route.method, `${prefix}${route.path}`, route]),
    ),
  )('%s %s reaches the Lambda the route table names', (method, path, definition) => {
    const concrete = path.replace(/\{\w+\}/g, 'id-1');
    const selected = selectedRoute(method, concrete);
    expect(stack.managementApi.functions[definition.lambda as ManagementLambdaName]).toBeDefined();
    expect([selected.Properties.RouteKey, targetFunctionOf(selected)]).toEqual([
      selected.Properties.RouteKey,
      functionIdOf(definition.lambda as ManagementLambdaName),
    ]);
  });

  it('has one gateway route per route the table can express, greedy routes for `~` prefixes, and $default for the rest', () => {
    const expected = managementGatewayRoutes().map((route) => `${route.method} ${route.path}`);
    expect(routes.map((route) => route.Properties.RouteKey).sort()).toEqual(['$default', ...expected].sort());
    expect(expected).toEqual(expect.arrayContaining(['ANY /search/{proxy+}', 'ANY /v1/search/{proxy+}', 'GET /openapi.json', 'GET /v1/openapi.json']));
  });

  it('sends $default (paths under `~`, unknown paths) to the management Lambda', () => {
    const fallback = routes.find((route) => route.Properties.RouteKey === '$default')!;
    expect(targetFunctionOf(fallback)).toBe(functionIdOf(MANAGEMENT_DEFAULT_LAMBDA));
    expect(MANAGEMENT_DEFAULT_LAMBDA).toBe('management');
  });

  it('serves the web console: /console/ paths reach the management Lambda, whose bundle Vite fills with the built console', () => {
    const reaching = routes.filter((route) => route.Properties.RouteKey !== '$default' && routeKeyMatches(route.Properties.RouteKey, 'GET', '/console/events'));
    expect(reaching).toEqual([]);
    const fallback = routes.find((route) => route.Properties.RouteKey === '$default')!;
    expect(targetFunctionOf(fallback)).toBe(functionIdOf('management'));
    const [command] = consoleBundlingCommands('/in', '/asset-output');
    expect(command).toMatch(
      /^NODE_ENV=production node ".*node_modules\/vite\/bin\/vite\.js" build ".*\/console" --outDir "\/asset-output\/console" --emptyOutDir/,
    );
  });

  it('allows bearer tokens cross-origin', () => {
    expect(resources[managementApiId]!.Properties.CorsConfiguration).toMatchObject({
      AllowOrigins: ['*'],
      AllowHeaders: ['content-type', 'authorization'],
      AllowMethods: ['*'],
    });
  });
});

describe('managementGatewayRoutes', () => {
  const route = (method: RouteDefinition['method'], path: string, lambda: RouteDefinition['lambda'] = 'search'): RouteDefinition => ({
    api: 'management',
    method,
    path,
    lambda,
    operation: 'op',
    auth: { kind: 'none' },
    summary: '',
  });

  it('keeps a path API Gateway can express as its own route, under every prefix', () => {
    expect(managementGatewayRoutes([route('GET', '/v2/apps/{appId}')])).toEqual([
      { method: 'GET', path: '/v2/apps/{appId}', lambda: 'search' },
      { method: 'GET', path: '/v1/v2/apps/{appId}', lambda: 'search' },
    ]);
  });

  it('collapses `~` paths into one greedy route per literal prefix', () => {
    expect(managementGatewayRoutes([route('GET', '/search/~/events/{id}'), route('POST', '/search/~/search/events')])).toEqual([
      { method: 'ANY', path: '/search/{proxy+}', lambda: 'search' },
      { method: 'ANY', path: '/v1/search/{proxy+}', lambda: 'search' },
    ]);
  });

  it('leaves a path with no routable prefix to $default when $default serves its Lambda', () => {
    expect(managementGatewayRoutes([route('GET', '/~/billing/meters', 'management')])).toEqual([{ method: 'ANY', path: '/v1/{proxy+}', lambda: 'management' }]);
  });

  it('serves a route whose path carries its version (exactPath) only as written', () => {
    expect(managementGatewayRoutes([{ ...route('POST', '/v1/{orgId}/oauth/access_tokens', 'management'), exactPath: true }])).toEqual([
      { method: 'POST', path: '/v1/{orgId}/oauth/access_tokens', lambda: 'management' },
    ]);
  });

  it('refuses routes that API Gateway could not deliver to the right Lambda', () => {
    expect(() => managementGatewayRoutes([route('GET', '/~/billing/meters', 'search')])).toThrow(/no routable prefix/);
    expect(() => managementGatewayRoutes([route('GET', '/search/~/a'), route('GET', '/search/~/b', 'collector')])).toThrow(
      /both the search and the collector Lambda/,
    );
  });
});

describe.each([
  ['collector', () => stack.collectorApi.http, 2000, 4000],
  ['management', () => stack.managementApi.http, 50, 100],
])('%s API stage', (_name, http, rateLimit, burstLimit) => {
  it('auto-deploys one $default stage with throttling and JSON access logs', () => {
    const stage = resources[logicalIdOf(http().stage)]!.Properties;
    expect(stage).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: rateLimit, ThrottlingBurstLimit: burstLimit },
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [logicalIdOf(http().accessLogs), 'Arn'] } },
    });
    expect(JSON.parse(stage.AccessLogSettings.Format)).toMatchObject({
      requestId: '$context.requestId',
      status: '$context.status',
      routeKey: '$context.routeKey',
    });
  });
});

it('outputs the URLs, the archive bucket, the signing secret, the resources table the admin command needs and the email configuration set', () => {
  const outputs = template.toJSON().Outputs;
  expect(Object.keys(outputs).sort()).toEqual([
    'ArchiveBucketName',
    'CollectorUrl',
    'EmailConfigurationSet',
    'ManagementUrl',
    'ResourcesTableName',
    'TokenSigningSecretArn',
  ]);
  expect(outputs.ResourcesTableName.Value).toEqual({ Ref: logicalIdOf(stack.storage.tables.resources) });
  expect(JSON.stringify(outputs.CollectorUrl.Value)).toContain(collectorApiId);
  expect(JSON.stringify(outputs.ManagementUrl.Value)).toContain(managementApiId);
  expect(outputs.ArchiveBucketName.Value).toEqual({ Ref: logicalIdOf(stack.storage.buckets.archive) });
  expect(outputs.TokenSigningSecretArn.Value).toEqual({ Ref: logicalIdOf(stack.managementApi.tokenSigningSecret) });
});

it("generates a 64-character signing key that only the management API's Lambdas and the email sender (unsubscribe links) may read", () => {
  const secretId = logicalIdOf(stack.managementApi.tokenSigningSecret);
  expect(resources[secretId]!.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64, ExcludePunctuation: true });
  const readers = Object.values(resources)
    .filter((resource) => resource.Type === 'AWS::IAM::Policy' && JSON.stringify(resource.Properties.PolicyDocument).includes(secretId))
    .flatMap((resource) => resource.Properties.Roles.map((role: { Ref: string }) => role.Ref));
  expect(readers.sort()).toEqual(
    [
      logicalIdOf(stack.managementApi.functions.management.role),
      logicalIdOf(stack.managementApi.functions.search.role),
      logicalIdOf(stack.managementApi.functions['shared-views'].role),
      logicalIdOf(stack.emails.function.role),
    ].sort(),
  );
});
