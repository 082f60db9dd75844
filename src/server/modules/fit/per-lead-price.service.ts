/**
 * What a lead costs an agent on a PER_LEAD package (docs/domain.md, Pay per lead), in SQL, over
 * the aliases the callers give: the first rule of the package's price list (`position` order)
 * whose every set field matches the lead, else the package's perLeadCents. The wallet charges by
 * leadPriceSql; the fit rule bounds what a wallet must cover by highestPriceSql.
 */
import { type SQL, sql } from 'drizzle-orm';

/** The price of lead `l` (state, age, source_id) under package `p` (id, per_lead_cents). */
export function leadPriceSql(l: SQL, p: SQL): SQL {
  return sql`coalesce(
    (select pp.price_cents from package_prices pp
      where pp.package_id = ${p}.id
        and (pp.state is null or pp.state = ${l}.state)
        and (pp.age_min is null or ${l}.age >= pp.age_min)
        and (pp.age_max is null or ${l}.age <= pp.age_max)
        and (pp.source_id is null or pp.source_id = ${l}.source_id)
      order by pp.position limit 1),
    ${p}.per_lead_cents)`;
}

/** The most a lead of package `p` can cost: its perLeadCents and every rule's price. */
export function highestPriceSql(p: SQL): SQL {
  return sql`greatest(${p}.per_lead_cents,
    (select max(pp.price_cents) from package_prices pp where pp.package_id = ${p}.id))`;
}

/** The least a lead of package `p` can cost (the landing card's "from $X per lead"). */
export function lowestPriceSql(p: SQL): SQL {
  return sql`least(${p}.per_lead_cents,
    (select min(pp.price_cents) from package_prices pp where pp.package_id = ${p}.id))`;
}
