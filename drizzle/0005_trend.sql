-- The assignments chart sums each business day's 15-minute slots by range: with `n` in the index
-- the sums are index-only scans instead of heap visits to every slot of the window.
DROP INDEX IF EXISTS "assignment_counts_slot_idx";
--> statement-breakpoint
CREATE INDEX "assignment_counts_slot_n_idx" ON "assignment_counts" USING btree ("slot","n");
