import type { WebhookTestResult } from '@shared/contracts/delivery';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Spinner } from '@web/components/ui/spinner';
import { errorMessage } from '@web/lib/api-client';
import { Send } from 'lucide-react';
import { useTestWebhook } from '../api';

/** What the endpoint answered to a test event: status, time taken and the start of its body. */
function TestResult({ result }: { result: WebhookTestResult }) {
  const facts: [string, string][] = [
    ['Status code', result.responseCode === null ? 'No answer' : String(result.responseCode)],
    ['Latency', result.latencyMs === null ? '—' : `${result.latencyMs} ms`],
  ];
  if (result.error) facts.push(['Error', result.error]);
  return (
    <div className="space-y-3 rounded-lg border p-4 text-sm" data-testid="webhook-test-result">
      <div className="flex items-center gap-2">
        <span className="font-medium">Test result</span>
        <Badge
          variant={result.ok ? 'default' : 'destructive'}
          data-testid="webhook-test-outcome"
          data-ok={result.ok}
        >
          {result.ok ? 'OK' : 'Failed'}
        </Badge>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5">
        {facts.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-muted-foreground">{term}</dt>
            <dd className="min-w-0 wrap-anywhere">{value}</dd>
          </div>
        ))}
      </dl>
      {result.responseBody && (
        <div className="space-y-1">
          <p className="text-muted-foreground">Response body (start)</p>
          <pre className="max-h-40 overflow-auto whitespace-pre-wrap rounded-md bg-muted/50 p-3 font-mono text-xs wrap-anywhere">
            {result.responseBody}
          </pre>
        </div>
      )}
    </div>
  );
}

/**
 * Send test: a test event to the saved endpoint, and the answer under the button. The result
 * region is live, so a screen reader hears the outcome.
 */
export function WebhookTest({ savedUrl, unsaved }: { savedUrl: string | null; unsaved: boolean }) {
  const test = useTestWebhook();
  const canTest = savedUrl !== null && !unsaved;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <Button
          type="button"
          variant="outline"
          disabled={!canTest || test.isPending}
          onClick={() => test.mutate()}
        >
          {test.isPending ? <Spinner /> : <Send aria-hidden="true" />}
          Send test
        </Button>
        <p className="text-muted-foreground text-sm">
          {savedUrl === null
            ? 'Save an endpoint URL to send a test event.'
            : unsaved
              ? 'Save your changes first: the test goes to the saved endpoint.'
              : 'Sends a signed test event to the saved endpoint.'}
        </p>
      </div>
      <div aria-live="polite">
        {test.isError && (
          <p role="alert" className="text-destructive text-sm" data-testid="webhook-test-error">
            {errorMessage(test.error, 'The test could not be sent.')}
          </p>
        )}
        {test.data && !test.isPending && <TestResult result={test.data} />}
      </div>
    </div>
  );
}
