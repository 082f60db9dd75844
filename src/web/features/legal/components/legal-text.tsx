import type { LegalPage } from '@shared/contracts/legal';
import { DEFAULT_BUSINESS_TIME_ZONE } from '@shared/format';

/**
 * A legal page as a reader sees it: the admin's plain text, one paragraph per blank-line
 * separated block (never HTML), and when it was last updated.
 */
export function LegalText({ page }: { page: LegalPage }) {
  if (page.body === '')
    return (
      <p className="text-muted-foreground" data-testid="legal-unwritten">
        This page has not been written yet. Please contact us with any question.
      </p>
    );
  return (
    <div className="space-y-4" data-testid="legal-body">
      {page.body.split(/\n\s*\n/).map((paragraph, i) => (
        // the paragraphs of one text, in order: their index is their identity
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <p key={i} className="whitespace-pre-line leading-relaxed">
          {paragraph}
        </p>
      ))}
      {page.updatedAt && (
        <p className="text-muted-foreground text-sm">
          Last updated{' '}
          {new Intl.DateTimeFormat('en-US', {
            dateStyle: 'long',
            timeZone: DEFAULT_BUSINESS_TIME_ZONE,
          }).format(new Date(page.updatedAt))}
        </p>
      )}
    </div>
  );
}
