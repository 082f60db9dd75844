ALTER TABLE "delivery_settings" ADD COLUMN "webhook_previous_secret" text;--> statement-breakpoint
ALTER TABLE "delivery_settings" ADD COLUMN "webhook_secret_rotated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "delivery_settings" ADD COLUMN "webhook_test_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "delivery_settings" ADD COLUMN "webhook_tests_window_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "delivery_settings" ADD COLUMN "webhook_tests_in_window" integer DEFAULT 0 NOT NULL;