CREATE TYPE "public"."agency_role" AS ENUM('OWNER', 'MANAGER', 'AGENT');--> statement-breakpoint
CREATE TYPE "public"."agency_status" AS ENUM('ACTIVE', 'SUSPENDED');--> statement-breakpoint
ALTER TYPE "public"."lead_history_kind" ADD VALUE 'RECLAIMED';--> statement-breakpoint
CREATE TABLE "agencies" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "agencies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"status" "agency_status" DEFAULT 'ACTIVE' NOT NULL,
	"daily_cap" integer,
	"reclaim_after_minutes" integer,
	"stripe_customer_id" text,
	"stripe_subscription_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agencies_stripe_customer_id_unique" UNIQUE("stripe_customer_id"),
	CONSTRAINT "agencies_stripe_subscription_id_unique" UNIQUE("stripe_subscription_id")
);
--> statement-breakpoint
CREATE TABLE "agency_invites" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "agency_invites_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"role" "agency_role" DEFAULT 'AGENT' NOT NULL,
	"manager_id" integer,
	"max_uses" integer,
	"uses" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agency_invites_code_hash_unique" UNIQUE("code_hash")
);
--> statement-breakpoint
CREATE TABLE "agency_members" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"agency_id" integer NOT NULL,
	"role" "agency_role" DEFAULT 'AGENT' NOT NULL,
	"manager_id" integer,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "agency_id" integer;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "reclaims" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "paid_by_agency_id" integer;--> statement-breakpoint
ALTER TABLE "agency_invites" ADD CONSTRAINT "agency_invites_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agency_invites" ADD CONSTRAINT "agency_invites_manager_id_users_id_fk" FOREIGN KEY ("manager_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agency_invites" ADD CONSTRAINT "agency_invites_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agency_members" ADD CONSTRAINT "agency_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agency_members" ADD CONSTRAINT "agency_members_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agency_members" ADD CONSTRAINT "agency_members_manager_id_users_id_fk" FOREIGN KEY ("manager_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agency_invites_agency_idx" ON "agency_invites" USING btree ("agency_id");--> statement-breakpoint
CREATE INDEX "agency_members_agency_idx" ON "agency_members" USING btree ("agency_id","role");--> statement-breakpoint
CREATE INDEX "agency_members_manager_idx" ON "agency_members" USING btree ("manager_id");--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_paid_by_agency_id_agencies_id_fk" FOREIGN KEY ("paid_by_agency_id") REFERENCES "public"."agencies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leads_agency_idx" ON "leads" USING btree ("agency_id","id" DESC NULLS LAST) WHERE "leads"."agency_id" is not null;--> statement-breakpoint
CREATE INDEX "leads_agency_day_idx" ON "leads" USING btree ("agency_id","assigned_on") WHERE "leads"."agency_id" is not null and "leads"."assigned_on" is not null;