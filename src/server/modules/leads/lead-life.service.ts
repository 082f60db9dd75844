/**
 * A lead's life (docs/domain.md, "Lead statuses and history"): every change of a lead's status,
 * agent or contact facts, and every history row, goes through these functions, whatever
 * triggered it. Each is one conditional statement (or two) in the caller's transaction, so a
 * lead changes hands only while it is still where the caller believes it is.
 *
 * received  insertReceivedLead (the intake), LeadGroupWriter (a CSV import's groups, by COPY)
 * refused   recordIntakeRefusal, recordImportRefusals (counts per source and reason)
 * assigned  assignLeadsOfRun (a run), assignNewLeadByHand (an admin), assignReceivedLead (the
 *           intake, under the agent's lock with the quota checked again)
 * reassigned reassignLead (an admin moves a lead being worked to another agent)
 * worked    writeStatusChange (the agent, through leads.service), markFirstContact (a message
 *           sent), markContactedByCall (a connected call), optOutPhone (STOP)
 * returned  recordReturnRequested, returnLead (approved: INVALID, the quota credited),
 *           recordReturnDenied
 * taken back releaseMemberLeads (a member leaves an agency: uncontacted leads back to NEW),
 *           reclaimLead (an agency takes back a lead its member did not work in time and gives it
 *           to another member)
 */

export {
  type BulkSession,
  type CopyIn,
  IMPORT_GATE_LOCK,
  LeadGroupWriter,
  type StoredGroup,
} from './lead-group-writer';
export {
  agentLockSql,
  assignLeadsOfRun,
  assignNewLeadByHand,
  assignReceivedLead,
  insertLeads,
  insertReceivedLead,
  type LeadRow,
  MAX_RECLAIMS,
  markContactedByCall,
  markFirstContact,
  optOutPhone,
  type ReceivedLead,
  reassignLead,
  reclaimLead,
  recordImportRefusals,
  recordIntakeRefusal,
  recordReturnDenied,
  recordReturnRequested,
  releaseMemberLeads,
  returnLead,
  type TakenBackLead,
  type WriteOutcome,
} from './lead-life.repository';
