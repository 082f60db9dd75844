CREATE TABLE "agent_caps" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"daily" integer,
	"weekly" integer,
	"monthly" integer,
	"monthly_budget_cents" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_schedules" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"time_zone" text NOT NULL,
	"days" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_caps" ADD CONSTRAINT "agent_caps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_schedules" ADD CONSTRAINT "agent_schedules_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;