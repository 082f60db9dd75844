CREATE TYPE "public"."privacy_task_kind" AS ENUM('WEBHOOK', 'RECORDING');--> statement-breakpoint
CREATE TYPE "public"."privacy_task_status" AS ENUM('PENDING', 'DONE', 'SKIPPED', 'FAILED');--> statement-breakpoint
ALTER TYPE "public"."refusal_reason" ADD VALUE 'SUPPRESSED';--> statement-breakpoint
CREATE TABLE "privacy_deletions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "privacy_deletions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"requested_by" integer,
	"by_phone" boolean NOT NULL,
	"by_email" boolean NOT NULL,
	"leads" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "privacy_key" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "privacy_key_one_row" CHECK ("privacy_key"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "privacy_tasks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "privacy_tasks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"deletion_id" integer,
	"kind" "privacy_task_kind" NOT NULL,
	"agent_id" integer,
	"lead_ids" bigint[],
	"recording_sid" text,
	"status" "privacy_task_status" DEFAULT 'PENDING' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "suppressed_contacts" (
	"hash" text PRIMARY KEY NOT NULL,
	"deletion_id" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "suppressed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "anonymized_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "privacy_deletions" ADD CONSTRAINT "privacy_deletions_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_tasks" ADD CONSTRAINT "privacy_tasks_deletion_id_privacy_deletions_id_fk" FOREIGN KEY ("deletion_id") REFERENCES "public"."privacy_deletions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suppressed_contacts" ADD CONSTRAINT "suppressed_contacts_deletion_id_privacy_deletions_id_fk" FOREIGN KEY ("deletion_id") REFERENCES "public"."privacy_deletions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "privacy_tasks_deletion_idx" ON "privacy_tasks" USING btree ("deletion_id");--> statement-breakpoint
CREATE INDEX "privacy_tasks_pending_idx" ON "privacy_tasks" USING btree ("next_attempt_at") WHERE "privacy_tasks"."status" = 'PENDING';--> statement-breakpoint
-- The keyed hash a consumer's deletion keeps of their phone (E.164) or email (lowercased) and
-- checks at import and intake (docs/domain.md, Consumer deletion and retention): SHA-256 of the
-- key, the kind and the contact, in hex. A plain SQL expression, so the planner inlines it.
CREATE OR REPLACE FUNCTION contact_hash(key text, kind text, contact text)
RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT encode(sha256(convert_to(key || '|' || kind || ':' || contact, 'UTF8')), 'hex')
$$;
