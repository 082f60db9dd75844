CREATE TYPE "public"."call_status" AS ENUM('QUEUED', 'RINGING', 'IN_PROGRESS', 'COMPLETED', 'BUSY', 'NO_ANSWER', 'FAILED', 'CANCELED');--> statement-breakpoint
CREATE TYPE "public"."message_channel" AS ENUM('SMS', 'EMAIL');--> statement-breakpoint
CREATE TYPE "public"."message_status" AS ENUM('WAITING', 'QUEUED', 'SENT', 'DELIVERED', 'FAILED', 'BLOCKED', 'RECEIVED');--> statement-breakpoint
CREATE TYPE "public"."refusal_reason" AS ENUM('INVALID', 'DUPLICATE', 'DNC');--> statement-breakpoint
CREATE TYPE "public"."return_reason" AS ENUM('WRONG_NUMBER', 'DUPLICATE', 'OUT_OF_AREA', 'FAKE_INFO', 'CONSUMER_DENIES', 'LANGUAGE_BARRIER', 'UNDER_AGE');--> statement-breakpoint
CREATE TYPE "public"."return_status" AS ENUM('PENDING', 'APPROVED', 'DENIED');--> statement-breakpoint
ALTER TYPE "public"."assignment_trigger" ADD VALUE 'RETURN';--> statement-breakpoint
ALTER TYPE "public"."lead_history_kind" ADD VALUE 'RETURN_REQUESTED';--> statement-breakpoint
ALTER TYPE "public"."lead_history_kind" ADD VALUE 'RETURN_APPROVED';--> statement-breakpoint
ALTER TYPE "public"."lead_history_kind" ADD VALUE 'RETURN_DENIED';--> statement-breakpoint
ALTER TYPE "public"."lead_history_kind" ADD VALUE 'OPTED_OUT';--> statement-breakpoint
CREATE TABLE "calls" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "calls_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"lead_id" bigint NOT NULL,
	"agent_id" integer NOT NULL,
	"provider_sid" text,
	"status" "call_status" DEFAULT 'QUEUED' NOT NULL,
	"connected_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"duration_seconds" integer,
	"error" text,
	"recording_sid" text,
	"recording_url" text,
	"recording_seconds" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calls_provider_sid_unique" UNIQUE("provider_sid")
);
--> statement-breakpoint
CREATE TABLE "dnc_numbers" (
	"phone" text PRIMARY KEY NOT NULL,
	"added_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "follow_up_messages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "follow_up_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"lead_id" bigint NOT NULL,
	"agent_id" integer,
	"channel" "message_channel" NOT NULL,
	"outbound" boolean DEFAULT true NOT NULL,
	"status" "message_status" NOT NULL,
	"to_address" text NOT NULL,
	"subject" text,
	"body" text NOT NULL,
	"provider_id" text,
	"error" text,
	"send_after" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "follow_up_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"sms_body" text DEFAULT '' NOT NULL,
	"email_subject" text DEFAULT '' NOT NULL,
	"email_body" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_refusals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lead_refusals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"source_id" integer,
	"import_id" integer,
	"reason" "refusal_reason" NOT NULL,
	"n" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_returns" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lead_returns_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"lead_id" bigint NOT NULL,
	"agent_id" integer NOT NULL,
	"reason" "return_reason" NOT NULL,
	"note" text,
	"status" "return_status" DEFAULT 'PENDING' NOT NULL,
	"decided_by" integer,
	"decision_note" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "dnc" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "duplicate_lines" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "zip" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "returned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "opted_out_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "first_contact_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "licensed_states" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "paused_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_agent_id_users_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dnc_numbers" ADD CONSTRAINT "dnc_numbers_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_up_settings" ADD CONSTRAINT "follow_up_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_returns" ADD CONSTRAINT "lead_returns_agent_id_users_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_returns" ADD CONSTRAINT "lead_returns_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calls_lead_idx" ON "calls" USING btree ("lead_id","id");--> statement-breakpoint
CREATE INDEX "calls_agent_idx" ON "calls" USING btree ("agent_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "calls_recording_key" ON "calls" USING btree ("recording_sid");--> statement-breakpoint
CREATE UNIQUE INDEX "follow_up_messages_first_key" ON "follow_up_messages" USING btree ("lead_id","channel","agent_id") WHERE "follow_up_messages"."outbound";--> statement-breakpoint
CREATE UNIQUE INDEX "follow_up_messages_provider_key" ON "follow_up_messages" USING btree ("provider_id");--> statement-breakpoint
CREATE INDEX "follow_up_messages_status_idx" ON "follow_up_messages" USING btree ("status","send_after");--> statement-breakpoint
CREATE INDEX "follow_up_messages_created_idx" ON "follow_up_messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "lead_refusals_source_idx" ON "lead_refusals" USING btree ("source_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "lead_returns_lead_key" ON "lead_returns" USING btree ("lead_id") WHERE "lead_returns"."status" in ('PENDING', 'APPROVED');--> statement-breakpoint
CREATE INDEX "lead_returns_status_idx" ON "lead_returns" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "lead_returns_agent_idx" ON "lead_returns" USING btree ("agent_id","created_at");--> statement-breakpoint
CREATE INDEX "leads_phone_idx" ON "leads" USING btree ("phone","created_at") WHERE "leads"."phone" is not null;--> statement-breakpoint
CREATE INDEX "leads_email_idx" ON "leads" USING btree ("email","created_at") WHERE "leads"."email" is not null;--> statement-breakpoint
CREATE INDEX "leads_preview_idx" ON "leads" USING btree ("category","created_at","state","age","city");--> statement-breakpoint
CREATE INDEX "leads_source_idx" ON "leads" USING btree ("source_id","created_at") WHERE "leads"."source_id" is not null;--> statement-breakpoint
-- Backfill (design 10): leads stored before this migration get their state's main time zone,
-- emails trimmed and lower-cased, and US phones written as E.164 where they are 10 digits
-- (or 11 starting with 1); other phones are left as they were.
UPDATE "leads" SET "time_zone" = CASE "state" when 'AL' then 'America/Chicago' when 'AK' then 'America/Anchorage' when 'AZ' then 'America/Phoenix' when 'AR' then 'America/Chicago' when 'CA' then 'America/Los_Angeles' when 'CO' then 'America/Denver' when 'CT' then 'America/New_York' when 'DE' then 'America/New_York' when 'DC' then 'America/New_York' when 'FL' then 'America/New_York' when 'GA' then 'America/New_York' when 'HI' then 'Pacific/Honolulu' when 'ID' then 'America/Boise' when 'IL' then 'America/Chicago' when 'IN' then 'America/Indiana/Indianapolis' when 'IA' then 'America/Chicago' when 'KS' then 'America/Chicago' when 'KY' then 'America/New_York' when 'LA' then 'America/Chicago' when 'ME' then 'America/New_York' when 'MD' then 'America/New_York' when 'MA' then 'America/New_York' when 'MI' then 'America/Detroit' when 'MN' then 'America/Chicago' when 'MS' then 'America/Chicago' when 'MO' then 'America/Chicago' when 'MT' then 'America/Denver' when 'NE' then 'America/Chicago' when 'NV' then 'America/Los_Angeles' when 'NH' then 'America/New_York' when 'NJ' then 'America/New_York' when 'NM' then 'America/Denver' when 'NY' then 'America/New_York' when 'NC' then 'America/New_York' when 'ND' then 'America/Chicago' when 'OH' then 'America/New_York' when 'OK' then 'America/Chicago' when 'OR' then 'America/Los_Angeles' when 'PA' then 'America/New_York' when 'RI' then 'America/New_York' when 'SC' then 'America/New_York' when 'SD' then 'America/Chicago' when 'TN' then 'America/Chicago' when 'TX' then 'America/Chicago' when 'UT' then 'America/Denver' when 'VT' then 'America/New_York' when 'VA' then 'America/New_York' when 'WA' then 'America/Los_Angeles' when 'WV' then 'America/New_York' when 'WI' then 'America/Chicago' when 'WY' then 'America/Denver' ELSE 'America/New_York' END WHERE "time_zone" IS NULL;--> statement-breakpoint
UPDATE "leads" SET "email" = lower(btrim("email")) WHERE "email" IS NOT NULL AND "email" <> lower(btrim("email"));--> statement-breakpoint
UPDATE "leads" SET "phone" = '+1' || right(regexp_replace("phone", '\D', '', 'g'), 10) WHERE "phone" IS NOT NULL AND "phone" !~ '^\+' AND regexp_replace("phone", '\D', '', 'g') ~ '^1?[2-9][0-9]{9}$';
