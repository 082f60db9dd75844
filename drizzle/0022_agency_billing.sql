ALTER TABLE "agencies" ADD COLUMN "billing_status" "subscription_status";--> statement-breakpoint
ALTER TABLE "agencies" ADD COLUMN "billing_event_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "agencies" ADD COLUMN "seats_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "agencies" ADD COLUMN "seats_synced_version" integer DEFAULT 0 NOT NULL;