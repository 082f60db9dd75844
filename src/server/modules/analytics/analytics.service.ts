import type { Analytics } from '../../../shared/contracts/admin';
import type { Db } from '../../db/client';
import { businessDate } from '../../lib/business-time';
import { analytics } from './analytics.repository';

/** The analytics screen's figures, for the business day that is today in `timeZone`. */
export function getAnalytics(db: Db, timeZone: string): Promise<Analytics> {
  return analytics(db, businessDate(timeZone), timeZone);
}
