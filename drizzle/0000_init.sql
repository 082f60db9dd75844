CREATE TYPE "public"."assignment_trigger" AS ENUM('SCHEDULE', 'MANUAL', 'IMPORT');--> statement-breakpoint
CREATE TYPE "public"."lead_history_kind" AS ENUM('IMPORTED', 'AUTO_ASSIGNED', 'MANUAL_ASSIGNED', 'STATUS_CHANGED');--> statement-breakpoint
CREATE TYPE "public"."import_status" AS ENUM('RUNNING', 'DONE', 'FAILED');--> statement-breakpoint
CREATE TYPE "public"."lead_category" AS ENUM('MEDICARE', 'ACA', 'FINAL_EXPENSE');--> statement-breakpoint
CREATE TYPE "public"."lead_status" AS ENUM('NEW', 'ASSIGNED', 'CONTACTED', 'IN_PROGRESS', 'CONVERTED', 'INVALID');--> statement-breakpoint
CREATE TYPE "public"."subscription_status" AS ENUM('ACTIVE', 'PAST_DUE', 'CANCELED', 'INACTIVE');--> statement-breakpoint
CREATE TYPE "public"."user_role" AS ENUM('ADMIN', 'AGENT');--> statement-breakpoint
CREATE TABLE "agent_lead_counts" (
	"agent_id" integer NOT NULL,
	"status" "lead_status" NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "assignment_counts" (
	"slot" timestamp with time zone NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "assignment_runs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "assignment_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"trigger" "assignment_trigger" NOT NULL,
	"business_date" date NOT NULL,
	"schedule_key" text,
	"eligible_agents" integer DEFAULT 0 NOT NULL,
	"candidate_leads" integer DEFAULT 0 NOT NULL,
	"assigned" integer DEFAULT 0 NOT NULL,
	"duration_ms" integer DEFAULT 0 NOT NULL,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "assignment_runs_schedule_key_unique" UNIQUE("schedule_key")
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "imports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer,
	"filename" text NOT NULL,
	"status" "import_status" DEFAULT 'RUNNING' NOT NULL,
	"rows_seen" integer DEFAULT 0 NOT NULL,
	"imported" integer DEFAULT 0 NOT NULL,
	"duplicates" integer DEFAULT 0 NOT NULL,
	"error_count" integer DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"message" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lead_counts" (
	"category" "lead_category" NOT NULL,
	"status" "lead_status" NOT NULL,
	"has_agent" boolean NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_history" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lead_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"lead_id" bigint NOT NULL,
	"kind" "lead_history_kind" NOT NULL,
	"actor_id" integer,
	"from_status" "lead_status",
	"to_status" "lead_status" NOT NULL,
	"agent_id" integer,
	"assignment_run_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_search" (
	"lead_id" bigint PRIMARY KEY NOT NULL,
	"doc" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_search_queue" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lead_search_queue_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"first_id" bigint NOT NULL,
	"last_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leads" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "leads_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"external_id" text,
	"first_name" text,
	"last_name" text,
	"phone" text,
	"email" text,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"age" integer NOT NULL,
	"category" "lead_category" NOT NULL,
	"status" "lead_status" DEFAULT 'NEW' NOT NULL,
	"agent_id" integer,
	"assigned_at" timestamp with time zone,
	"assigned_on" date,
	"assignment_run_id" integer,
	"import_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "packages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "packages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"category" "lead_category" NOT NULL,
	"price_monthly_cents" integer NOT NULL,
	"leads_per_day" integer NOT NULL,
	"commission_pct" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"enrollment_only" boolean DEFAULT false NOT NULL,
	"service_crm" boolean DEFAULT true NOT NULL,
	"service_call_recording" boolean DEFAULT true NOT NULL,
	"service_follow_up_message" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "packages_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "preferences" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"states" text[] DEFAULT '{}'::text[] NOT NULL,
	"cities" text[] DEFAULT '{}'::text[] NOT NULL,
	"age_min" integer,
	"age_max" integer,
	"categories" "lead_category"[] DEFAULT '{}'::lead_category[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "subscriptions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"package_id" integer NOT NULL,
	"status" "subscription_status" DEFAULT 'ACTIVE' NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" "user_role" DEFAULT 'AGENT' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_history" ADD CONSTRAINT "lead_history_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_history" ADD CONSTRAINT "lead_history_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_history" ADD CONSTRAINT "lead_history_agent_id_users_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_history" ADD CONSTRAINT "lead_history_assignment_run_id_assignment_runs_id_fk" FOREIGN KEY ("assignment_run_id") REFERENCES "public"."assignment_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "preferences" ADD CONSTRAINT "preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assignment_runs_started_idx" ON "assignment_runs" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "lead_history_lead_idx" ON "lead_history" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "lead_history_assigned_day_idx" ON "lead_history" USING btree ("created_at") WHERE "lead_history"."kind" in ('AUTO_ASSIGNED', 'MANUAL_ASSIGNED');--> statement-breakpoint
CREATE UNIQUE INDEX "leads_external_id_key" ON "leads" USING btree ("external_id");--> statement-breakpoint
CREATE INDEX "leads_agent_idx" ON "leads" USING btree ("agent_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "leads"."agent_id" is not null;--> statement-breakpoint
CREATE INDEX "leads_assigned_day_idx" ON "leads" USING btree ("assigned_on","agent_id") WHERE "leads"."assigned_on" is not null;--> statement-breakpoint
CREATE INDEX "leads_status_idx" ON "leads" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "subscriptions_package_idx" ON "subscriptions" USING btree ("package_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_role_idx" ON "users" USING btree ("role");