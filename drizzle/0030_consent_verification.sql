CREATE TYPE "public"."consent_outcome" AS ENUM('VERIFIED');--> statement-breakpoint
CREATE TYPE "public"."consent_verification" AS ENUM('NONE', 'TRUSTEDFORM');--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "consent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "consent_outcome" "consent_outcome";--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "consent_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "consent_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sources" ADD COLUMN "consent_verification" "consent_verification" DEFAULT 'NONE' NOT NULL;