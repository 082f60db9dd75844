/** The statements on delivery_settings: an agent's choices and the webhook's secret. */
import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';

export interface SettingsRow {
  emailEnabled: boolean;
  webhookUrl: string | null;
  webhookAuthHeader: string | null;
  webhookEnabled: boolean;
  webhookSecret: string;
  webhookFailuresInRow: number;
  webhookDisabledAt: string | null;
  email: string;
  serviceCrm: boolean;
}

const SETTINGS_COLUMNS = sql`ds.email_enabled as "emailEnabled", ds.webhook_url as "webhookUrl",
  ds.webhook_auth_header as "webhookAuthHeader", ds.webhook_enabled as "webhookEnabled",
  ds.webhook_secret as "webhookSecret", ds.webhook_failures_in_row as "webhookFailuresInRow",
  to_char(ds.webhook_disabled_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "webhookDisabledAt",
  u.email, coalesce(p.service_crm, false) as "serviceCrm"`;

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
