import {
  LEGAL_PAGE_MAX_CHARS,
  LEGAL_PAGE_TITLES,
  LEGAL_PAGES,
  type LegalPageName,
} from '@shared/contracts/legal';
import { useQuery } from '@tanstack/react-query';
import { paths } from '@web/app/paths';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Label } from '@web/components/ui/label';
import { LoadError } from '@web/components/ui/load-error';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage } from '@web/lib/api-client';
import { useEffect, useId, useState } from 'react';
import { Link } from 'wouter';
import { legalPageQuery, useSaveLegalPage } from '../api';

const publicPath: Record<LegalPageName, string> = {
  privacy: paths.privacy,
  terms: paths.terms,
};

function LegalPageEditor({ page }: { page: LegalPageName }) {
  const query = useQuery(legalPageQuery(page));
  const save = useSaveLegalPage(page);
  const [text, setText] = useState('');
  const id = useId();
  const title = LEGAL_PAGE_TITLES[page];
  useEffect(() => {
    if (query.data) setText(query.data.body);
  }, [query.data]);
  if (query.isError)
    return (
      <LoadError
        message={`The ${title} could not be loaded.`}
        onRetry={() => query.refetch()}
        retrying={query.isFetching}
      />
    );
  return (
    <form
      className="space-y-2"
      data-testid={`legal-editor-${page}`}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(text, {
          onSuccess: () => toast({ title: `${title} saved` }),
          onError: (error) =>
            toast({
              variant: 'destructive',
              title: `The ${title} could not be saved`,
              description: errorMessage(error, 'Please try again.'),
            }),
        });
      }}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <Label htmlFor={id}>{title}</Label>
        <Link
          href={publicPath[page]}
          className="text-primary text-sm underline-offset-4 hover:underline"
        >
          View the page
        </Link>
      </div>
      <textarea
        id={id}
        rows={10}
        value={text}
        maxLength={LEGAL_PAGE_MAX_CHARS}
        disabled={query.isPending}
        onChange={(e) => setText(e.target.value)}
        placeholder="Plain text; leave a blank line between paragraphs."
        className="w-full rounded-md border border-input bg-transparent px-3 py-2 text-sm shadow-xs"
      />
      <Button type="submit" disabled={save.isPending || query.isPending}>
        Save {title}
      </Button>
    </form>
  );
}

/** The admin's editor of the footer's legal pages (docs/domain.md, Legal pages). */
export function LegalPagesEditor() {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Legal pages</h2>
        </CardTitle>
        <CardDescription>
          The Privacy Policy and Terms of Service linked from the landing page's footer.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-8">
        {LEGAL_PAGES.map((page) => (
          <LegalPageEditor key={page} page={page} />
        ))}
      </CardContent>
    </Card>
  );
}
