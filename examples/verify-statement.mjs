#!/usr/bin/env node
// Checks a downloaded statement with nothing but Node: its Ed25519 signature under the app's published
// key, and the SHA-256 of each downloaded event list against the digest the statement signed.
//   node verify-statement.mjs <service URL> statement.json [<billing_meter_id>=events.csv …]
// Exit 0: the statement is as issued and every list is the one it signed; 1 otherwise.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';

const [service, statementFile, ...lists] = process.argv.slice(2);
if (!service || !statementFile) {
  console.error('usage: node verify-statement.mjs <service URL> statement.json [<billing_meter_id>=events.csv …]');
  process.exit(2);
}
// The signed bytes: the statement without `signature`, keys sorted at every depth, no spaces.
const canonical = (v) =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(',')}]`
    : v !== null && typeof v === 'object'
      ? `{${Object.keys(v)
          .filter((k) => v[k] !== undefined)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
          .join(',')}}`
      : JSON.stringify(v);

const { signature, ...signed } = JSON.parse(readFileSync(statementFile, 'utf8'));
const keyUrl = new URL(
  `public/statement-keys/${encodeURIComponent(signed.org_id)}/${encodeURIComponent(signed.app_id)}`,
  service.endsWith('/') ? service : `${service}/`,
);
const key = await (await fetch(keyUrl)).json();
let ok =
  key.key_id === signature.key_id &&
  verify(null, Buffer.from(canonical(signed)), createPublicKey(key.public_key_pem), Buffer.from(signature.value, 'base64url'));
console.log(`signature (key ${signature.key_id}): ${ok ? 'valid' : 'INVALID'}; version ${signed.version}, issued ${signed.issued_at}`);
for (const list of lists) {
  const [meterId, file] = list.split('=');
  const digest = createHash('sha256').update(readFileSync(file)).digest('hex');
  const line = signed.meters.find((m) => m.billing_meter_id === meterId);
  const matches = line !== undefined && line.events_digest === digest;
  console.log(`events of ${meterId}: ${matches ? 'match' : 'DO NOT MATCH'} the statement`);
  ok &&= matches;
}
process.exit(ok ? 0 : 1);
