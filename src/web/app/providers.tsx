import { QueryClientProvider } from '@tanstack/react-query';
import { useToast } from '@web/components/ui/use-toast';
import { queryClient } from '@web/lib/query-client';
import { type ReactNode, Suspense, useEffect, useState } from 'react';
import { lazyNamed } from './lazy-named';

// The toast region (Radix Toast and its layers) is not part of any first paint: it loads once the
// browser is idle after the page has loaded, or at once when a toast is shown before that.
const Toaster = lazyNamed(() => import('@web/components/ui/toaster'), 'Toaster');

function DeferredToaster() {
  const { toasts } = useToast();
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    const whenIdle = () => {
      if (typeof requestIdleCallback === 'function') {
        requestIdleCallback(() => setIdle(true), { timeout: 2000 });
      } else {
        setTimeout(() => setIdle(true), 200);
      }
    };
    if (document.readyState === 'complete') whenIdle();
    else window.addEventListener('load', whenIdle, { once: true });
    return () => window.removeEventListener('load', whenIdle);
  }, []);
  if (!idle && toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <DeferredToaster />
    </QueryClientProvider>
  );
}
