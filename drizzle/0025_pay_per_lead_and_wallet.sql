CREATE TYPE "public"."package_pricing" AS ENUM('SUBSCRIPTION', 'PER_LEAD');--> statement-breakpoint
CREATE TYPE "public"."wallet_entry_kind" AS ENUM('TOP_UP', 'LEAD', 'RETURN_CREDIT', 'RECLAIM_CREDIT', 'ADMIN_CREDIT', 'REFUND');--> statement-breakpoint
CREATE TABLE "package_prices" (
	"package_id" integer NOT NULL,
	"position" integer NOT NULL,
	"state" text,
	"age_min" integer,
	"age_max" integer,
	"source_id" integer,
	"price_cents" integer NOT NULL,
	CONSTRAINT "package_prices_package_id_position_pk" PRIMARY KEY("package_id","position"),
	CONSTRAINT "package_prices_positive" CHECK ("package_prices"."price_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "wallet_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "wallet_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"kind" "wallet_entry_kind" NOT NULL,
	"amount_cents" integer NOT NULL,
	"balance_after_cents" integer NOT NULL,
	"lead_id" bigint,
	"charged_month" date,
	"reference" text,
	"note" text,
	"actor_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_entries_reference_unique" UNIQUE("reference"),
	CONSTRAINT "wallet_entries_not_zero" CHECK ("wallet_entries"."amount_cents" <> 0)
);
--> statement-breakpoint
CREATE TABLE "wallets" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"balance_cents" integer DEFAULT 0 NOT NULL,
	"auto_recharge_enabled" boolean DEFAULT false NOT NULL,
	"auto_recharge_below_cents" integer,
	"auto_recharge_amount_cents" integer,
	"spent_month" date,
	"spent_cents" integer DEFAULT 0 NOT NULL,
	"card_payment_method" text,
	"recharge_pending_since" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallets_never_negative" CHECK ("wallets"."balance_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "pricing" "package_pricing" DEFAULT 'SUBSCRIPTION' NOT NULL;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "per_lead_cents" integer;--> statement-breakpoint
ALTER TABLE "package_prices" ADD CONSTRAINT "package_prices_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_prices" ADD CONSTRAINT "package_prices_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_entries" ADD CONSTRAINT "wallet_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wallet_entries_user_idx" ON "wallet_entries" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "wallet_entries_lead_idx" ON "wallet_entries" USING btree ("lead_id");--> statement-breakpoint
-- The wallet's ledger is append-only (docs/domain.md, The wallet): no statement may change or
-- remove an entry. The one exception is its agent's account being deleted (the entries go with
-- it, by the foreign key's cascade, which runs after the account's row is gone).
CREATE OR REPLACE FUNCTION wallet_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM users WHERE id = OLD.user_id) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'wallet entries are append-only' USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER wallet_entries_append_only BEFORE UPDATE OR DELETE ON wallet_entries
  FOR EACH ROW EXECUTE FUNCTION wallet_entries_append_only();
