ALTER TYPE "public"."lead_history_kind" ADD VALUE 'REASSIGNED';--> statement-breakpoint
DROP INDEX "leads_agent_idx";--> statement-breakpoint
ALTER TABLE "lead_history" ADD COLUMN "from_agent_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "lead_returns_pending_idx" ON "lead_returns" USING btree ("lead_id") WHERE "lead_returns"."status" = 'PENDING';--> statement-breakpoint
CREATE INDEX "leads_agent_received_idx" ON "leads" USING btree ("agent_id","assigned_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "leads"."agent_id" is not null;--> statement-breakpoint
CREATE INDEX "leads_agent_uncontacted_idx" ON "leads" USING btree ("agent_id",("status" <> 'ASSIGNED'),"assigned_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "leads"."agent_id" is not null;