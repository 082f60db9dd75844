CREATE TABLE "alert_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"push" boolean DEFAULT true NOT NULL,
	"sms" boolean DEFAULT false NOT NULL,
	"quiet_start" text,
	"quiet_end" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_settings_quiet_hours" CHECK (("alert_settings"."quiet_start" is null) = ("alert_settings"."quiet_end" is null))
);
--> statement-breakpoint
CREATE TABLE "lead_views" (
	"lead_id" bigint NOT NULL,
	"agent_id" integer NOT NULL,
	"assigned_at" timestamp with time zone NOT NULL,
	"viewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lead_views_lead_id_agent_id_assigned_at_pk" PRIMARY KEY("lead_id","agent_id","assigned_at")
);
--> statement-breakpoint
CREATE TABLE "sms_alerts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sms_alerts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"lead_id" bigint NOT NULL,
	"agent_id" integer NOT NULL,
	"phone" text,
	"attempt" integer NOT NULL,
	"status" text NOT NULL,
	"provider_sid" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_settings" ADD CONSTRAINT "alert_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_views" ADD CONSTRAINT "lead_views_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_views" ADD CONSTRAINT "lead_views_agent_id_users_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sms_alerts_lead_idx" ON "sms_alerts" USING btree ("lead_id","id");