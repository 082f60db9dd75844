CREATE TABLE "refusal_counts" (
	"slot" timestamp with time zone NOT NULL,
	"source_id" integer,
	"reason" "refusal_reason" NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "refusal_counts_key" ON "refusal_counts" USING btree ("slot",(coalesce("source_id", 0)),"reason");--> statement-breakpoint
-- Refusals counted per 15-minute slot, source and reason in refusal_counts (the sources'
-- analytics sum them per business day, never reading the refusal rows).
CREATE OR REPLACE FUNCTION lead_refusals_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO refusal_counts (slot, source_id, reason, n)
  SELECT lead_history_slot(created_at), source_id, reason, sum(n) FROM new_refusals
   GROUP BY 1, 2, 3
  ON CONFLICT (slot, (coalesce(source_id, 0)), reason)
  DO UPDATE SET n = refusal_counts.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER lead_refusals_after_insert AFTER INSERT ON lead_refusals
  REFERENCING NEW TABLE AS new_refusals
  FOR EACH STATEMENT EXECUTE FUNCTION lead_refusals_after_insert();
--> statement-breakpoint
-- the refusals recorded before the counts existed
INSERT INTO refusal_counts (slot, source_id, reason, n)
SELECT lead_history_slot(created_at), source_id, reason, sum(n) FROM lead_refusals GROUP BY 1, 2, 3;
