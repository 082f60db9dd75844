CREATE TYPE "public"."subscription_actor" AS ENUM('AGENT', 'ADMIN', 'BILLING');--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "status_set_by" "subscription_actor" DEFAULT 'AGENT' NOT NULL;--> statement-breakpoint
-- Until now only an admin could set PAST_DUE or INACTIVE; a CANCELED one stays the agent's (the
-- agent's own cancel is by far the common case, and it keeps what agents could do before).
UPDATE "subscriptions" SET "status_set_by" = 'ADMIN' WHERE "status" IN ('PAST_DUE', 'INACTIVE');
