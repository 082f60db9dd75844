-- Reads of the kept counters by key: an agent's lead total (the My Leads page's X-Total-Count)
-- and the assignment chart's window of slots, without reading every delta row.
CREATE INDEX "agent_lead_counts_agent_idx" ON "agent_lead_counts" USING btree ("agent_id","status");
--> statement-breakpoint
CREATE INDEX "assignment_counts_slot_idx" ON "assignment_counts" USING btree ("slot");
