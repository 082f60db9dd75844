/** What the quota card says under the numbers (spec section 4). */
export function quotaMessage(quota: { assigned: number; limit: number }): string {
  if (quota.limit > 0 && quota.assigned >= quota.limit) return 'Quota reached';
  const remaining = Math.max(0, quota.limit - quota.assigned);
  return `${remaining} ${remaining === 1 ? 'lead' : 'leads'} remaining today`;
}

/** assigned / limit as a percentage for the progress bar, 0 without a limit. */
export function quotaPercent(quota: { assigned: number; limit: number }): number {
  if (quota.limit <= 0) return 0;
  return Math.min(100, (quota.assigned / quota.limit) * 100);
}
