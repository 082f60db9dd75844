/** The statements on delivery_settings: an agent's choices, the webhook's secret and its rotation, Send test's turn. */
import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { isoInstant } from '../../db/iso-instant';

/** How long the secret before a rotation still signs calls beside the new one. */
export const SECRET_OVERLAP_HOURS = 24;

/** The previous secret while the overlap lasts, else null (over `delivery_settings ds`). */
export const PREVIOUS_SECRET = sql`case when ds.webhook_secret_rotated_at
  > now() - make_interval(hours => ${SECRET_OVERLAP_HOURS}) then ds.webhook_previous_secret end`;

export interface SettingsRow {
  emailEnabled: boolean;
  webhookUrl: string | null;
  webhookAuthHeader: string | null;
  webhookEnabled: boolean;
  webhookSecret: string;
  webhookFailuresInRow: number;
  webhookDisabledAt: string | null;
  webhookPreviousSecret: string | null;
  /** until when the previous secret still signs calls; null when it no longer does */
  previousSecretUntil: string | null;
  email: string;
  serviceCrm: boolean;
  /** the agent's subscription status, null without one */
  subscriptionStatus: string | null;
}

const SETTINGS_COLUMNS = sql`ds.email_enabled as "emailEnabled", ds.webhook_url as "webhookUrl",
  ds.webhook_auth_header as "webhookAuthHeader", ds.webhook_enabled as "webhookEnabled",
  ds.webhook_secret as "webhookSecret", ds.webhook_failures_in_row as "webhookFailuresInRow",
  to_char(ds.webhook_disabled_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "webhookDisabledAt",
  ${PREVIOUS_SECRET} as "webhookPreviousSecret",
  case when ${PREVIOUS_SECRET} is not null then ${isoInstant(
    sql`(ds.webhook_secret_rotated_at + make_interval(hours => ${SECRET_OVERLAP_HOURS}))`,
  )} end as "previousSecretUntil",
  u.email, coalesce(p.service_crm, false) as "serviceCrm", s.status as "subscriptionStatus"`;

/** The agent's settings, the row created (with this fresh secret) on first read. */
export async function ensureSettings(db: Db, userId: number, secret: string): Promise<SettingsRow> {
  await db.execute(
    sql`insert into delivery_settings (user_id, webhook_secret) values (${userId}, ${secret})
      on conflict (user_id) do nothing`,
  );
  const [row] = await queryRows<SettingsRow>(
    db,
    sql`select ${SETTINGS_COLUMNS} from delivery_settings ds
      join users u on u.id = ds.user_id
      left join subscriptions s on s.user_id = u.id
      left join packages p on p.id = s.package_id
      where ds.user_id = ${userId}`,
  );
  return row!;
}

export async function updateSettings(
  db: Db,
  userId: number,
  change: {
    emailEnabled?: boolean;
    webhookUrl?: string | null;
    webhookAuthHeader?: string | null;
    webhookEnabled?: boolean;
  },
): Promise<void> {
  const sets: SQL[] = [sql`updated_at = now()`];
  if (change.emailEnabled !== undefined) sets.push(sql`email_enabled = ${change.emailEnabled}`);
  if (change.webhookUrl !== undefined) sets.push(sql`webhook_url = ${change.webhookUrl}`);
  if (change.webhookAuthHeader !== undefined)
    sets.push(sql`webhook_auth_header = ${change.webhookAuthHeader}`);
  if (change.webhookEnabled !== undefined) {
    sets.push(sql`webhook_enabled = ${change.webhookEnabled}`);
    // turning it on again starts a fresh count
    if (change.webhookEnabled)
      sets.push(sql`webhook_failures_in_row = 0`, sql`webhook_disabled_at = null`);
  }
  await db.execute(
    sql`update delivery_settings set ${sql.join(sets, sql`, `)} where user_id = ${userId}`,
  );
}

/** A new signing secret; the one it replaces keeps signing for SECRET_OVERLAP_HOURS. */
export async function rotateSecret(db: Db, userId: number, secret: string): Promise<void> {
  await db.execute(
    sql`update delivery_settings set webhook_previous_secret = webhook_secret,
        webhook_secret = ${secret}, webhook_secret_rotated_at = now(), updated_at = now()
      where user_id = ${userId}`,
  );
}

/**
 * Takes the agent's turn for a test event, in the database so that every process sees it: none
 * other on its way (one left by a process that died lapses after `leaseSeconds`). False when one
 * is on its way.
 */
export async function takeTestTurn(db: Db, userId: number, leaseSeconds: number): Promise<boolean> {
  const rows = await queryRows<{ userId: number }>(
    db,
    sql`update delivery_settings set webhook_test_started_at = now()
         where user_id = ${userId}
           and (webhook_test_started_at is null
                or webhook_test_started_at <= now() - make_interval(secs => ${leaseSeconds}))
         returning user_id as "userId"`,
  );
  return rows.length > 0;
}

/** The test event has its answer: the agent's next one may go. */
export async function endTestTurn(db: Db, userId: number): Promise<void> {
  await db.execute(
    sql`update delivery_settings set webhook_test_started_at = null where user_id = ${userId}`,
  );
}
