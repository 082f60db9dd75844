/**
 * Writes an import's rows into `leads`, one group at a time, inside the import's transaction. The
 * statements on `leads` (and on the temporary staging table) live here rather than in a
 * repository: each is one step of the COPY / savepoint / staging sequence below, which only
 * makes sense as a whole.
 *
 * Each group goes straight into `leads` with COPY under a savepoint (the fast path: COPY costs a
 * fraction of an INSERT ... SELECT). A group holding an externalId already stored fails on the
 * unique index, rolls back to its savepoint and goes again through a temporary staging table and
 * INSERT ... ON CONFLICT (source, external_id) DO NOTHING, which stores the new rows and counts the
 * others as duplicates. The unique index decides.
 */
import type { CopyIn, ImportSession } from './import-connection';
import { LEAD_COPY_COLUMNS } from './lead-copy-format';

export interface StoredGroup {
  imported: number;
  /** rows whose externalId was already stored: skipped, not stored twice */
  duplicates: number;
}

function isDuplicateExternalId(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  return (
    e?.code === '23505' &&
    (e.constraint === 'leads_source_external_id_key' ||
      /leads_source_external_id_key/.test(e.message ?? ''))
  );
}

/**
 * Writes an import's rows into `leads` within its transaction, one group (one COPY, one
 * savepoint) at a time: `add` streams rows into the open group, `endGroup` closes it. The
 * group's rows are kept until then, for the staging path. Duplicates come in runs (a file
 * imported again), so after a group that held some the next one goes straight to staging; a
 * staging group without duplicates switches back to direct COPY.
 */
export class LeadGroupWriter {
  private stagingReady = false;
  private expectDuplicates = false;
  private copy: CopyIn | null = null;
  private copyFailed: unknown = null;
  private rows: string[] = [];
  private count = 0;

  constructor(private readonly session: ImportSession) {}

  /** rows in the open group */
  get size(): number {
    return this.count;
  }

  async add(rows: string, count: number): Promise<void> {
    if (count === 0) return;
    if (!this.copy) await this.open();
    this.rows.push(rows);
    this.count += count;
    if (this.copyFailed) return;
    try {
      await this.copy?.write(rows);
    } catch (err) {
      this.copyFailed = err;
    }
  }

  async endGroup(): Promise<StoredGroup> {
    if (!this.copy) return { imported: 0, duplicates: 0 };
    const { rows, count } = this;
    const copy = this.copy;
    this.copy = null;
    this.rows = [];
    this.count = 0;
    let copied = 0;
    try {
      copied = await copy.end();
      if (this.copyFailed) throw this.copyFailed;
    } catch (err) {
      this.copyFailed = null;
      if (this.expectDuplicates || !isDuplicateExternalId(err)) throw err;
      await this.session.run('rollback to savepoint lead_group');
      this.expectDuplicates = true;
      const stored = await this.viaStaging(rows, count);
      this.expectDuplicates = stored.duplicates > 0;
      return stored;
    }
    if (this.expectDuplicates) {
      const imported = await this.insertFromStaging();
      this.expectDuplicates = imported < count;
      return { imported, duplicates: count - imported };
    }
    await this.session.run('release savepoint lead_group');
    return { imported: copied, duplicates: count - copied };
  }

  /** Gives the open group up, so that the transaction can be rolled back. */
  async abort(): Promise<void> {
    const copy = this.copy;
    this.copy = null;
    this.rows = [];
    this.count = 0;
    await copy?.abort();
  }

  private async open(): Promise<void> {
    if (this.expectDuplicates) {
      await this.prepareStaging();
      this.copy = this.session.copy(`lead_import_staging (${LEAD_COPY_COLUMNS})`);
    } else {
      await this.session.run('savepoint lead_group');
      this.copy = this.session.copy(`leads (${LEAD_COPY_COLUMNS})`);
    }
  }

  private async viaStaging(rows: string[], count: number): Promise<StoredGroup> {
    await this.prepareStaging();
    const copy = this.session.copy(`lead_import_staging (${LEAD_COPY_COLUMNS})`);
    for (const part of rows) await copy.write(part);
    await copy.end();
    const imported = await this.insertFromStaging();
    return { imported, duplicates: count - imported };
  }

  private async prepareStaging(): Promise<void> {
    if (this.stagingReady) {
      await this.session.run('truncate lead_import_staging');
      return;
    }
    await this.session.run(
      `create temp table lead_import_staging (
         external_id text, first_name text, last_name text, phone text, email text,
         city text, state text, age integer, category lead_category, import_id integer,
         source_id integer
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
