ALTER TABLE "delivery_settings" DROP COLUMN "webhook_tests_window_at";--> statement-breakpoint
ALTER TABLE "delivery_settings" DROP COLUMN "webhook_tests_in_window";