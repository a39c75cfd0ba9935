import { browserHost, sdkSnippets } from './sdk-snippets';

describe('the SDK snippets', () => {
  it('fill every SDK with the app id and the collector, quoted for its language', () => {
    const snippets = sdkSnippets("app'id", 'http://127.0.0.1:3000');
    expect(snippets.map((s) => s.sdk)).toEqual(['moesif-nodejs', 'moesif-browser-js', 'moesifwsgi', 'moesifasgi', 'moesifapi']);
    expect(snippets.find((s) => s.sdk === 'moesif-nodejs')!.code).toContain(`applicationId: "app'id"`);
    expect(snippets.find((s) => s.sdk === 'moesifwsgi')!.code).toContain(`'APPLICATION_ID': 'app\\'id'`);
    expect(snippets.find((s) => s.sdk === 'moesif-browser-js')!.code).toContain('host: "127.0.0.1:3000"');
  });

  it('gives the browser SDK the host and path of the collector, without scheme or trailing slash', () => {
    expect(browserHost('https://collector.example.com/prod/')).toBe('collector.example.com/prod');
    expect(browserHost('http://127.0.0.1:3000')).toBe('127.0.0.1:3000');
  });
});
