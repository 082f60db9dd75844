import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../src/server/db/client';

type Runner = Pick<Db, 'execute'>;

/** Functions of the public schema that the app owns (an extension's, such as pg_trgm's, are not). */
const APP_FUNCTIONS = sql`
  from pg_proc p
  where p.pronamespace = 'public'::regnamespace
    and not exists (
      select 1 from pg_depend d
      where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')`;

const APP_TRIGGERS = sql`
  from pg_trigger t join pg_class c on c.oid = t.tgrelid
  where c.relnamespace = 'public'::regnamespace and not t.tgisinternal`;

export async function appFunctionNames(db: Runner): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select p.proname as name ${APP_FUNCTIONS} order by 1`,
  );
  return rows.map((r) => r.name);
}

export async function appTriggerNames(db: Runner): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select t.tgname as name ${APP_TRIGGERS} order by 1`,
  );
  return rows.map((r) => r.name);
}

/** The definitions of the app's functions or triggers of one name, as the database prints them. */
export async function definitionsNamed(
  db: Runner,
  kind: 'function' | 'trigger',
  name: string,
): Promise<string[]> {
  const query =
    kind === 'function'
      ? sql`select pg_get_functiondef(p.oid) as def ${APP_FUNCTIONS} and p.proname = ${name}`
      : sql`select pg_get_triggerdef(t.oid) as def ${APP_TRIGGERS} and t.tgname = ${name}`;
  const rows = await queryRows<{ def: string }>(db, sql`${query} order by 1`);
  return rows.map((r) => r.def);
}

const CATALOG: Record<string, SQL> = {
  extensions: sql`select extname, extversion from pg_extension order by 1`,
  schemas: sql`
    select nspname from pg_namespace
    where nspname !~ '^pg_' and nspname <> 'information_schema' order by 1`,
  relations: sql`
    select c.relname, c.relkind, c.relpersistence, c.reloptions, c.relrowsecurity
    from pg_class c
    where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
    order by 1`,
  columns: sql`
    select c.relname, a.attname, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull,
           pg_get_expr(d.adbin, d.adrelid) as default, a.attidentity, a.attgenerated,
           nullif(a.attcollation, t.typcollation)::regcollation::text as collation
    from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_type t on t.oid = a.atttypid
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f')
      and a.attnum > 0 and not a.attisdropped
    order by c.relname, a.attnum`,
  indexes: sql`
    select tablename, indexname, indexdef from pg_indexes where schemaname = 'public' order by 2`,
  constraints: sql`
    select conrelid::regclass::text as relation, contypid::regtype::text as type, conname,
           pg_get_constraintdef(oid) as def
    from pg_constraint where connamespace = 'public'::regnamespace order by 1, 2, 3`,
  enums: sql`
    select t.typname, array_agg(e.enumlabel order by e.enumsortorder) as labels
    from pg_type t join pg_enum e on e.enumtypid = t.oid
    where t.typnamespace = 'public'::regnamespace group by 1 order by 1`,
  domains: sql`
    select typname, format_type(typbasetype, typtypmod) as base, typnotnull, typdefault
    from pg_type where typnamespace = 'public'::regnamespace and typtype = 'd' order by 1`,
  functions: sql`
    select p.oid::regprocedure::text as signature,
           case when p.prokind in ('f', 'p') then pg_get_functiondef(p.oid) end as def
    ${APP_FUNCTIONS} order by 1`,
  triggers: sql`
    select c.relname, t.tgname, t.tgenabled, pg_get_triggerdef(t.oid) as def
    ${APP_TRIGGERS} order by 1, 2`,
  sequences: sql`
    select sequencename, data_type::text, start_value, min_value, max_value, increment_by, cycle,
           cache_size
    from pg_sequences where schemaname = 'public' order by 1`,
  views: sql`select viewname, definition from pg_views where schemaname = 'public' order by 1`,
  statistics: sql`
    select stxname, pg_get_statisticsobjdef(oid) as def
    from pg_statistic_ext where stxnamespace = 'public'::regnamespace order by 1`,
  policies: sql`
    select tablename, policyname, permissive, roles::text, cmd, qual, with_check
    from pg_policies where schemaname = 'public' order by 1, 2`,
  migrations: sql`select hash, created_at from drizzle.__drizzle_migrations order by id`,
};

/**
 * The schema as the catalogs describe it: two databases with equal descriptions have the same
 * tables, columns, indexes, constraints, types, functions, triggers and sequences, and ran the same
 * migrations (drizzle's hash of each file) in the same order.
 */
export async function describeSchema(db: Runner): Promise<Record<string, unknown[]>> {
  const description: Record<string, unknown[]> = {};
  for (const [part, query] of Object.entries(CATALOG))
    description[part] = await queryRows(db, query);
  return description;
}
