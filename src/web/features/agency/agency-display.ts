import type { AgencyInvite, AgencyMember, MyAgency } from '@shared/contracts/agency';
import type { AgencyRole } from '@shared/domain';

const ROLE_LABELS: Record<AgencyRole, string> = {
  OWNER: 'Owner',
  MANAGER: 'Manager',
  AGENT: 'Agent',
};

/** A member's role in words: MANAGER -> Manager. */
export function agencyRoleLabel(role: AgencyRole): string {
  return ROLE_LABELS[role];
}

/** "a Manager", "an Agent": the role as a sentence names it ("… join X as an Agent"). */
export function withArticle(role: AgencyRole): string {
  const label = agencyRoleLabel(role);
  return /^[AEIOU]/.test(label) ? `an ${label}` : `a ${label}`;
}

/**
 * A number field that may be left empty (daily cap, reclaim minutes): empty is null (none, off);
 * anything else is sent as typed, so that the server's rule names what is wrong with it.
 */
export function optionalNumber(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : Number(trimmed);
}

/** The field's text for a value that may be none. */
export function numberText(value: number | null): string {
  return value === null ? '' : String(value);
}

/** Whether an invite still admits anyone, and if not why, in words. */
export function inviteState(
  invite: AgencyInvite,
  now = Date.now(),
): 'Usable' | 'Expired' | 'Used up' {
  if (invite.usable) return 'Usable';
  if (invite.maxUses !== null && invite.uses >= invite.maxUses) return 'Used up';
  return new Date(invite.expiresAt).getTime() <= now ? 'Expired' : 'Used up';
}

/** "2 of 5 joined", "3 joined" (no limit). */
export function inviteUses(invite: AgencyInvite): string {
  return invite.maxUses === null
    ? `${invite.uses} joined · no limit`
    : `${invite.uses} of ${invite.maxUses} joined`;
}

/** Who may be a member's manager: the agency's OWNER and MANAGERs (that the caller sees). */
export function managerChoices(members: AgencyMember[]): AgencyMember[] {
  return members.filter((member) => member.role !== 'AGENT');
}

/** The members a lead held by `holderId` may move to: every other member in scope. */
export function reassignChoices(members: AgencyMember[], holderId: number | null): AgencyMember[] {
  return members.filter((member) => member.userId !== holderId);
}

/** A member's manager as the table shows it: the owner's own team reads as the owner. */
export function managerName(member: AgencyMember, owner: { name: string } | undefined): string {
  if (member.role === 'OWNER') return '—';
  return member.manager?.name ?? owner?.name ?? '—';
}

/** The member's line on their dashboard: "Member of Acme · Manager: Ann Lee". */
export function membershipLine(mine: MyAgency): string {
  if (mine.role === 'OWNER') return `Owner of ${mine.agency.name}`;
  // a member of no manager's team is the owner's own
  return `Member of ${mine.agency.name} · Manager: ${(mine.manager ?? mine.owner).name}`;
}

/** Licensed states as a short line: none listed means not restricted. */
export function licensedStatesText(states: string[]): string {
  if (states.length === 0) return 'Any state';
  return states.length > 6
    ? `${states.slice(0, 6).join(', ')} +${states.length - 6}`
    : states.join(', ');
}
