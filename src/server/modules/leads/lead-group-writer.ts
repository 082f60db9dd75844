/**
 * Writes an import's rows into `leads`, one group at a time, inside the import's transaction. The
 * statements on `leads` (and on the temporary staging table) live here rather than in a
 * repository: each is one step of the check / COPY / savepoint / staging sequence below, which
 * only makes sense as a whole.
 *
 * A group is checked before it is written (docs/decisions/018): ONE statement for the whole
 * group finds the rows whose phone is on the do-not-call list, whose externalId the source
 * already sent, or whose phone or email matches a lead received within the duplicate window
 * (leads_phone_idx / leads_email_idx; the earlier groups of the same file are already in
 * `leads`, in this transaction); repeats inside the group are found in memory, the earlier row
 * kept. The rest goes straight into `leads` with COPY under a savepoint (the fast path). On
 * PostgreSQL that COPY is still being taken in while the parser reads the next group: it is
 * settled (ended, counted) while the next group is checked against the committed leads on a
 * second connection; only the rows an earlier group of the file may repeat (SeenContacts) are
 * then asked again in the transaction (docs/decisions/048).
 *
 * A group that still holds an externalId already stored (a concurrent intake request got in
 * between) fails on the unique index, rolls back to its savepoint and goes again through a
 * temporary staging table and INSERT ... ON CONFLICT DO NOTHING. The unique index decides.
 */
import type { ImportRowError } from '../../../shared/contracts/leads';
import { CopyText } from './copy-text';
import { GroupIndex } from './group-index';
import { LEAD_COPY_COLUMNS, leadRowEncoder } from './lead-copy-format';
import type { ParsedLead } from './lead-row.service';
import { SeenContacts } from './seen-contacts';

/** One COPY in progress: rows go in as they come, `end` answers the rows copied. */
export interface CopyIn {
  /** rows as COPY text bytes, read until `end` answers: they must not change before */
  write(rows: Uint8Array): Promise<void>;
  end(): Promise<number>;
  /** gives the COPY up (its rows are not stored); the connection is usable again after */
  abort(): Promise<void>;
}

/** The statements a bulk write runs inside its transaction (an import's connection), the same on both engines. */
export interface BulkSession {
  /** starts COPY into a table (`target` names its columns) */
  copy(target: string): CopyIn;
  /** one statement; answers the rows it touched */
  run(statement: string, params?: unknown[]): Promise<number>;
  /** one statement; answers its rows */
  query<R>(statement: string, params?: unknown[]): Promise<R[]>;
  /**
   * One statement on another connection, outside the transaction: it sees what is committed,
   * not this transaction's rows, and runs while this transaction's connection is busy (a COPY).
   * PostgreSQL only; without it every check runs in the transaction.
   */
  readCommitted?<R>(statement: string, params?: unknown[]): Promise<R[]>;
}

/** What one group came to. */
export interface StoredGroup {
  imported: number;
  /** rows refused as duplicates (phone, email or externalId) */
  duplicates: number;
  /** rows refused because their phone is on the do-not-call list */
  dnc: number;
  /** rows refused because the consumer asked for their data to be deleted */
  suppressed: number;
  /** the refused rows of the group, by line, with why (duplicates, do-not-call, deleted consumers) */
  refusedLines: ImportRowError[];
}

export interface GroupWriterOptions {
  importId: number;
  sourceId: number | null;
  /** DUPLICATE_WINDOW_DAYS: a phone or email seen in a lead created this recently is a duplicate */
  duplicateWindowDays: number;
}

export const DNC_REASON = 'on the do-not-call list';
export const SUPPRESSED_REASON = 'the consumer asked for their data to be deleted';

/**
 * Advisory lock ('LFIG') between an import's end and the intake: the import takes it exclusive
 * for its last check and its commit, an intake request shared from the moment its lead is
 * written to its commit. See LeadGroupWriter.removeLateDuplicates.
 */
export const IMPORT_GATE_LOCK = 0x4c464947;

/**
 * How far before the import began a lead received by the intake may have been written and still
 * be unseen by the import's checks: an intake request's transaction lasts well under a second;
 * an hour is a wide margin that keeps the last check to the leads received meanwhile.
 */
const LATE_MARGIN = '1 hour';

/**
 * The import's leads that repeat (same phone, then same email) a lead the intake received while
 * the file was being imported, deleted; answers their lines and the lead each repeats. Driven by
 * the leads the intake received meanwhile (few; every intake lead has its source, read through
 * leads_source_idx), each probing the import's by phone and email.
 */
const REMOVE_LATE_DUPLICATES = `
  with twin as (
    select distinct on (l.id) l.id, l.import_line as line, x.id as twin_id, t.kind
      from sources s
      cross join lateral (
        select x.id, x.phone, x.email from leads x
         where x.source_id = s.id and x.import_id is null
           and x.created_at > now() - interval '${LATE_MARGIN}') x
      cross join lateral (
        (select l.id, 'phone' as kind from leads l
          where x.phone is not null and l.phone = x.phone and l.import_id = $1)
        union all
        (select l.id, 'email' from leads l
          where x.email is not null and l.email = x.email and l.import_id = $1)) t
      join leads l on l.id = t.id
     order by l.id, t.kind desc, x.id),
  gone as (delete from leads where id in (select id from twin))
  select line, twin_id::text as id, kind from twin order by line`;

type Hit = {
  i: number;
  kind: 'SUPPRESSED' | 'DNC' | 'externalId' | 'phone' | 'email';
  id: string | null;
};

/**
 * One statement a group: for each row given (its index in the group, phone, email, externalId),
 * the first thing that refuses it, if any, in the intake's order (externalId, a deleted consumer,
 * do-not-call, phone, email). $7 is the contact hashes' key, null while no consumer was deleted
 * (the branch is then skipped whole, hashing nothing). Each branch is one probe of an index (dnc_numbers'
 * key, leads_source_external_id_key, leads_phone_idx, leads_email_idx); `limit 1` stops at the
 * first that answers.
 */
const CHECK_GROUP = `
  select r.i, d.kind, d.id::text as id
    from unnest($1::int[], $2::text[], $3::text[], $4::text[]) as r(i, p, e, x)
    cross join lateral (
      (select 'externalId' as kind, l.id from leads l
        where r.x is not null and coalesce(l.source_id, 0) = $5 and l.external_id = r.x limit 1)
      union all
      (select 'SUPPRESSED', null::bigint from suppressed_contacts s
        where $7::text is not null
          and s.hash in (contact_hash($7, 'phone', r.p), contact_hash($7, 'email', r.e)))
      union all
      (select 'DNC', null::bigint from dnc_numbers n where n.phone = r.p)
      union all
      (select 'phone', l.id from leads l
        where r.p is not null and l.phone = r.p and l.created_at > $6::timestamptz limit 1)
      union all
      (select 'email', l.id from leads l
        where r.e is not null and l.email = r.e and l.created_at > $6::timestamptz limit 1)
      limit 1) d`;

function isDuplicateExternalId(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  return (
    e?.code === '23505' &&
    (e.constraint === 'leads_source_external_id_key' ||
      /leads_source_external_id_key/.test(e.message ?? ''))
  );
}

interface InFlight {
  copy: CopyIn;
  written: Promise<void>;
  /** the kept rows' text, a view of `rows` (taken again by the staging fallback) */
  text: Buffer;
  rows: CopyText;
  count: number;
}

/**
 * A string of its own for a value the open group keeps. The parser's fields of 13 characters or
 * more are slices of the text they were read from (V8 shares the characters); one kept for the
 * group's life would keep that whole text alive, and promote it into the old generation. The
 * copy (a flattened concatenation) holds only its own characters (docs/decisions/049).
 */
function ownCopy(s: string): string {
  return s.length < 13 ? s : `${s} `.slice(0, -1);
}

/**
 * The open group as columns: what the check reads of each row (its line, phone, email and
 * externalId) and the row itself, already as its COPY text bytes. A parsed row (an object of
 * seventeen fields) and its text die as soon as it is added; the group holds four values a row.
 */
interface GroupColumns {
  lines: number[];
  phones: (string | null)[];
  emails: (string | null)[];
  externalIds: (string | null)[];
  copyRows: CopyText;
}

const noColumns = (copyRows: CopyText): GroupColumns => ({
  lines: [],
  phones: [],
  emails: [],
  externalIds: [],
  copyRows,
});

/** A group's check against the committed leads, under way on the other connection. */
interface CommittedCheck {
  hits: Promise<Map<number, Hit>>;
}

const noneStored = (): StoredGroup => ({
  imported: 0,
  duplicates: 0,
  dnc: 0,
  suppressed: 0,
  refusedLines: [],
});

const sumOf = (groups: StoredGroup[], figure: 'imported' | 'duplicates' | 'dnc' | 'suppressed') =>
  groups.reduce((n, g) => n + g[figure], 0);

/**
 * Takes an import's parsed rows (`add`), and writes them a group at a time (`endGroup`): check,
 * then COPY, one group behind the parser (a group's check against the committed leads runs while
 * the next group is read). `finish` writes the last group and settles its COPY. Memory holds the
 * open group's columns, the group being checked, and the COPY text of the group in flight.
 */
export class LeadGroupWriter {
  private stagingReady = false;
  /** the COPY texts not in use: an import has three, the open group's, the checked and the one in flight */
  private readonly spareTexts: CopyText[] = [];
  /** the open group's kept rows by phone, email and externalId, for its own repeats */
  private readonly byPhone = new GroupIndex();
  private readonly byEmail = new GroupIndex();
  private readonly byExternalId = new GroupIndex();
  private pending: GroupColumns = noColumns(new CopyText());
  private readonly encode: (lead: ParsedLead) => string;
  private inFlight: InFlight | null = null;
  /** the group ended last, its check against the committed leads under way; written next */
  private checking: { group: GroupColumns; committed: CommittedCheck | null } | null = null;
  private since: string | null = null;
  /** the contact hashes' key, null while no consumer was deleted (read once, at the first group) */
  private suppressionKey: string | null | undefined;
  /** the kept rows' phones, emails and externalIds, when the committed leads are checked apart */
  private seenContacts: SeenContacts | null = null;
  private get seen(): SeenContacts {
    this.seenContacts ??= new SeenContacts();
    return this.seenContacts;
  }

  constructor(
    private readonly session: BulkSession,
    private readonly options: GroupWriterOptions,
  ) {
    this.encode = leadRowEncoder(options.importId, options.sourceId);
  }

  /** rows in the open group */
  get size(): number {
    return this.pending.lines.length;
  }

  add(leads: readonly ParsedLead[]): void {
    const group = this.pending;
    for (const lead of leads) {
      group.lines.push(lead.line);
      group.phones.push(lead.phone);
      group.emails.push(lead.email === null ? null : ownCopy(lead.email));
      group.externalIds.push(lead.externalId === null ? null : ownCopy(lead.externalId));
      group.copyRows.add(this.encode(lead));
    }
  }

  /**
   * Ends the open group: its check against the committed leads starts (on the other connection,
   * while the parser reads the next group), and the group ended before it is written: checked
   * in the transaction, then its COPY started. Answers what that group came to (the COPY before
   * it settled first) plus its refusals.
   */
  async endGroup(): Promise<StoredGroup> {
    const group = this.pending;
    this.pending = noColumns(this.spareTexts.pop() ?? new CopyText());
    const prior = this.checking;
    this.checking = null;
    if (group.lines.length > 0) {
      this.checking = { group, committed: await this.checkCommitted(group) };
    } else {
      this.spare(group.copyRows);
    }
    if (!prior) return noneStored();
    return this.write(prior.group, prior.committed);
  }

  /** Settles the COPY in flight, checks the (non-empty) group in the transaction and starts its COPY. */
  private async write(group: GroupColumns, committed: CommittedCheck | null): Promise<StoredGroup> {
    const stored = await this.settle();
    const { refusedAt, refused, duplicates, dnc, suppressed } = await this.check(group, committed);
    stored.duplicates += duplicates;
    stored.dnc += dnc;
    stored.suppressed += suppressed;
    stored.refusedLines = refused;
    const text = group.copyRows.keepOnly(refusedAt);
    const count = group.copyRows.rows;
    if (count === 0) {
      this.spare(group.copyRows);
      return stored;
    }
    await this.session.run('savepoint lead_group');
    const copy = this.session.copy(`leads (${LEAD_COPY_COLUMNS})`);
    const written = copy.write(text);
    written.catch(() => {}); // taken by settle()
    this.inFlight = { copy, written, text, rows: group.copyRows, count };
    // counted as stored now, for the progress figures; settle() corrects it in the rare case
    // of a fallback to staging
    stored.imported += count;
    return stored;
  }

  /**
   * Ends the last group's COPY and removes the late duplicates (removeLateDuplicates): what the
   * last group stored, corrected by them. The import gate stays held until the transaction ends.
   */
  async finish(): Promise<StoredGroup> {
    const stored = await this.endGroup(); // the group before the open one written
    const last = await this.endGroup(); // the open group (now the one checked) written
    const settled = await this.settle();
    const late = await this.removeLateDuplicates();
    const all = [stored, last, settled];
    return {
      imported: sumOf(all, 'imported') - late.length,
      duplicates: sumOf(all, 'duplicates') + late.length,
      dnc: sumOf(all, 'dnc'),
      suppressed: sumOf(all, 'suppressed'),
      refusedLines: [...stored.refusedLines, ...last.refusedLines, ...late],
    };
  }

  /**
   * An intake request that wrote a lead while this import ran did not see the import's rows, nor
   * the import its lead (neither was committed): both would be kept. So the import ends by taking
   * the import gate exclusive, which waits for every intake request past its own check, and then
   * removes its rows that repeat a lead received meanwhile (the intake's lead may already be
   * with its agent). An intake request that comes later waits for the gate, i.e. for this commit,
   * and checks again after it (intake-quality.repository's importedMeanwhileSql). Per-phone
   * locks held by the import for every row would do the same, but a large import would hold
   * millions of them, more than the lock table has room for.
   */
  private async removeLateDuplicates(): Promise<ImportRowError[]> {
    await this.session.run('select pg_advisory_xact_lock($1::int)', [IMPORT_GATE_LOCK]);
    const rows = await this.session.query<{ line: number; id: string; kind: string }>(
      REMOVE_LATE_DUPLICATES,
      [this.options.importId],
    );
    return rows.map((r) => ({
      line: Number(r.line),
      reason: `duplicate of lead ${r.id} (same ${r.kind}), received while the file was imported`,
    }));
  }

  /** Gives the open group up, so that the transaction can be rolled back. */
  async abort(): Promise<void> {
    const flight = this.inFlight;
    this.inFlight = null;
    const checked = this.checking; // its hits promise is caught where it was started
    this.checking = null;
    if (checked) this.spare(checked.group.copyRows);
    const rows = this.pending.copyRows;
    rows.clear();
    this.pending = noColumns(rows);
    await flight?.copy.abort();
  }

  /**
   * Waits for the COPY in flight to end; falls back to staging on a repeated externalId. Its
   * rows were counted as imported when it started: answers the correction (0 and 0 unless some
   * turned out to be duplicates).
   */
  private async settle(): Promise<StoredGroup> {
    const flight = this.inFlight;
    const stored = noneStored();
    if (!flight) return stored;
    this.inFlight = null;
    let copied = 0;
    try {
      let writeFailure: unknown = null;
      await flight.written.catch((err) => {
        writeFailure = err;
      });
      copied = await flight.copy.end();
      if (writeFailure) throw writeFailure;
    } catch (err) {
      if (!isDuplicateExternalId(err)) throw err;
      await this.session.run('rollback to savepoint lead_group');
      await this.prepareStaging();
      const copy = this.session.copy(`lead_import_staging (${LEAD_COPY_COLUMNS})`);
      await copy.write(flight.text);
      await copy.end();
      const imported = await this.insertFromStaging();
      stored.imported = imported - flight.count;
      stored.duplicates = flight.count - imported;
      this.spare(flight.rows);
      return stored;
    }
    await this.session.run('release savepoint lead_group');
    stored.imported = copied - flight.count;
    stored.duplicates = flight.count - copied;
    this.spare(flight.rows);
    return stored;
  }

  /** A group's COPY text, its COPY ended: empty again, for a later group. */
  private spare(rows: CopyText): void {
    rows.clear();
    this.spareTexts.push(rows);
  }

  /**
   * With a second connection (readCommitted): starts the check of every row of the group against
   * what is committed, on that connection, and answers its hits (a promise, taken when the group
   * is written at the next endGroup). Null without one.
   */
  private async checkCommitted(group: GroupColumns): Promise<CommittedCheck | null> {
    const readCommitted = this.session.readCommitted?.bind(this.session);
    if (!readCommitted) return null;
    // read in the transaction before the first COPY, when its connection is free
    const params = await this.checkParams();
    const hits = this.hitsOf(
      readCommitted,
      checkedRows(group, () => true),
      params,
    );
    hits.catch(() => {}); // taken by check()
    return { hits };
  }

  /**
   * The group's rows refused, by index and by line, with why; the rest are stored. Given the
   * committed leads' hits, only the rows whose phone, email or externalId an earlier group of the
   * file may hold (SeenContacts) are checked again in the transaction, which sees those groups;
   * its answer for them replaces the committed one.
   */
  private async check(
    group: GroupColumns,
    committed: CommittedCheck | null,
  ): Promise<{
    /** the refused rows' indexes in the group, ascending */
    refusedAt: number[];
    refused: ImportRowError[];
    duplicates: number;
    dnc: number;
    suppressed: number;
  }> {
    const rows = group.lines.length;
    const query = this.session.query.bind(this.session);
    let hits: Map<number, Hit>;
    if (committed) {
      hits = await committed.hits;
      const seen = this.seen;
      const again = checkedRows(group, (i) => {
        const p = group.phones[i];
        const e = group.emails[i];
        const x = group.externalIds[i];
        return (
          (p !== null && seen.mayHave('p', p)) ||
          (e !== null && seen.mayHave('e', e)) ||
          (x !== null && seen.mayHave('x', x))
        );
      });
      if (again.idx.length > 0) {
        const exact = await this.hitsOf(query, again, await this.checkParams());
        for (const i of again.idx) {
          const hit = exact.get(i);
          if (hit) hits.set(i, hit);
          else hits.delete(i);
        }
      }
    } else {
      hits = await this.hitsOf(
        query,
        checkedRows(group, () => true),
        await this.checkParams(),
      );
    }

    const refusedAt: number[] = [];
    const refused: ImportRowError[] = [];
    let duplicates = 0;
    let dnc = 0;
    let suppressed = 0;
    const { byPhone, byEmail, byExternalId } = this;
    byPhone.reset(group.phones, rows);
    byEmail.reset(group.emails, rows);
    byExternalId.reset(group.externalIds, rows);
    for (let i = 0; i < rows; i++) {
      const r = {
        line: group.lines[i] as number,
        phone: group.phones[i] as string | null,
        email: group.emails[i] as string | null,
        externalId: group.externalIds[i] as string | null,
      };
      const hit = hits.get(i);
      if (hit) {
        refusedAt.push(i);
        if (hit.kind === 'DNC') {
          dnc++;
          refused.push({ line: r.line, reason: DNC_REASON });
        } else if (hit.kind === 'SUPPRESSED') {
          suppressed++;
          refused.push({ line: r.line, reason: SUPPRESSED_REASON });
        } else {
          duplicates++;
          refused.push({ line: r.line, reason: `duplicate of lead ${hit.id} (same ${hit.kind})` });
        }
        continue;
      }
      const earlier = firstOf(r, byPhone, byEmail, byExternalId);
      if (earlier) {
        refusedAt.push(i);
        duplicates++;
        refused.push({
          line: r.line,
          reason: `duplicate of line ${group.lines[earlier.row]} (same ${earlier.kind})`,
        });
        continue;
      }
      byPhone.add(i);
      byEmail.add(i);
      byExternalId.add(i);
      if (committed) {
        if (r.phone !== null) this.seen.add('p', r.phone);
        if (r.email !== null) this.seen.add('e', r.email);
        if (r.externalId !== null) this.seen.add('x', r.externalId);
      }
    }
    return { refusedAt, refused, duplicates, dnc, suppressed };
  }

  /** The check statement's parameters after the rows: the source, the window, the hashes' key. */
  private async checkParams(): Promise<unknown[]> {
    this.since ??= await this.windowStart();
    if (this.suppressionKey === undefined) this.suppressionKey = await this.readSuppressionKey();
    return [this.options.sourceId ?? 0, this.since, this.suppressionKey];
  }

  /** The first thing that refuses each row given, by its index in the group (CHECK_GROUP). */
  private async hitsOf(
    query: <R>(statement: string, params?: unknown[]) => Promise<R[]>,
    rows: CheckedRows,
    params: unknown[],
  ): Promise<Map<number, Hit>> {
    const hits = new Map<number, Hit>();
    if (rows.idx.length === 0) return hits;
    const found = await query<Hit>(CHECK_GROUP, [
      rows.idx,
      rows.phones,
      rows.emails,
      rows.externalIds,
      ...params,
    ]);
    for (const h of found) hits.set(Number(h.i), h);
    return hits;
  }

  /** The contacts' key, null while no consumer was deleted (read once). */
  private async readSuppressionKey(): Promise<string | null> {
    const [row] = await this.session.query<{ key: string }>(
      'select k.key from privacy_key k where exists (select 1 from suppressed_contacts)',
      [],
    );
    return row?.key ?? null;
  }

  /** now() - the window, read once: the transaction's now() does not move. */
  private async windowStart(): Promise<string> {
    const [row] = await this.session.query<{ since: string }>(
      `select (now() - make_interval(days => $1::int))::text as since`,
      [this.options.duplicateWindowDays],
    );
    return (row as { since: string }).since;
  }

  private async prepareStaging(): Promise<void> {
    if (this.stagingReady) {
      await this.session.run('truncate lead_import_staging');
      return;
    }
    await this.session.run(
      `create temp table lead_import_staging (
         external_id text, first_name text, last_name text, phone text, email text,
         city text, state text, age integer, category lead_category, zip text, time_zone text,
         consent_at timestamptz, consent_text text, trusted_form_cert_url text,
         jornaya_lead_id text, consent_ip text, consent_outcome consent_outcome,
         consent_verified_at timestamptz, consent_expires_at timestamptz,
         import_id integer, source_id integer,
         import_line integer
       ) on commit drop`,
    );
    this.stagingReady = true;
  }

  private insertFromStaging(): Promise<number> {
    return this.session.run(
      `insert into leads (${LEAD_COPY_COLUMNS})
       select ${LEAD_COPY_COLUMNS} from lead_import_staging
       on conflict ((coalesce(source_id, 0)), external_id) do nothing`,
    );
  }
}

/** The rows of a group the check statement is given: those `wanted` that have anything to check. */
interface CheckedRows {
  idx: number[];
  phones: (string | null)[];
  emails: (string | null)[];
  externalIds: (string | null)[];
}

function checkedRows(group: GroupColumns, wanted: (i: number) => boolean): CheckedRows {
  const rows: CheckedRows = { idx: [], phones: [], emails: [], externalIds: [] };
  for (let i = 0; i < group.lines.length; i++) {
    const phone = group.phones[i];
    const email = group.emails[i];
    const externalId = group.externalIds[i];
    if (phone === null && email === null && externalId === null) continue;
    if (!wanted(i)) continue;
    rows.idx.push(i);
    rows.phones.push(phone);
    rows.emails.push(email);
    rows.externalIds.push(externalId);
  }
  return rows;
}

/** The earlier row of the same group this one repeats, if any: phone first, then email, then id. */
function firstOf(
  r: Pick<ParsedLead, 'phone' | 'email' | 'externalId'>,
  byPhone: GroupIndex,
  byEmail: GroupIndex,
  byExternalId: GroupIndex,
): { row: number; kind: string } | null {
  if (r.phone !== null) {
    const row = byPhone.find(r.phone);
    if (row !== -1) return { row, kind: 'phone' };
  }
  if (r.email !== null) {
    const row = byEmail.find(r.email);
    if (row !== -1) return { row, kind: 'email' };
  }
  if (r.externalId !== null) {
    const row = byExternalId.find(r.externalId);
    if (row !== -1) return { row, kind: 'externalId' };
  }
  return null;
}
