import {
  type APIRequestContext,
  expect,
  type Locator,
  type Page,
  request,
  test,
} from '@playwright/test';
import { createPackageApi, loginAdminApi, uniqueTag } from './agent-fixtures';
import { uniquePhone } from './lead-contact';
import { createAgentViaApi, E2E_ADMIN } from './support';

/**
 * The focus indicator against what surrounds it, as drawn (WCAG 1.4.11, 3:1): read from the
 * pixels of a screenshot, on the page, in a card, in a dialog, on an invalid field, on a
 * destructive button and on the landing page's dark panel. And the focus after an assignment
 * stays in the list, where the keyboard user was.
 */

function luminance([r, g, b]: number[]): number {
  const lin = (c: number) => {
    const v = c / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}
function contrast(a: number[], b: number[]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const PAD = 10;
/**
 * Focuses the control as a keyboard user would, then reads a line of pixels from well left of
 * it up to its edge: the first is the surrounding background, the ring is the pixel outside
 * the control that differs most from it. Answers that contrast.
 */
async function ringContrast(page: Page, control: Locator): Promise<number> {
  await control.scrollIntoViewIfNeeded();
  await page.keyboard.press('Shift');
  await control.focus();
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running'),
  );
  const box = (await control.boundingBox())!;
  const png = await page.screenshot({
    clip: { x: box.x - PAD, y: box.y, width: PAD + 2, height: box.height },
  });
  const line = await page.evaluate(
    async ({ b64, pad }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const scale = img.width / (pad + 2);
      const y = Math.floor(img.height / 2);
      const out: number[][] = [];
      for (let x = 0; x < pad; x++) {
        const d = ctx.getImageData(Math.floor(x * scale), y, 1, 1).data;
        out.push([d[0], d[1], d[2]]);
      }
      return out;
    },
    { b64: png.toString('base64'), pad: PAD },
  );
  const background = line[0];
  return Math.max(...line.slice(1).map((pixel) => contrast(pixel, background)));
}

test.describe('the focus ring keeps 3:1 against its surroundings', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('on the page, in a card, in a dialog, invalid and destructive', async ({ page }) => {
    await page.request.post('/api/auth/login', { data: E2E_ADMIN });
    await page.goto('/admin/leads');
    const figures: Record<string, number> = {};
    figures['button on the page'] = await ringContrast(
      page,
      page.getByRole('button', { name: 'Import CSV' }),
    );
    figures['search field in a card'] = await ringContrast(page, page.getByLabel('Search leads'));
    figures['select in a card'] = await ringContrast(page, page.getByLabel('Filter by status'));

    await page.goto('/admin/packages');
    await page
      .getByRole('button', { name: /Create (Your First )?Package/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Create Package' }).click();
    await expect(dialog.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
    figures['invalid field in a dialog'] = await ringContrast(page, dialog.getByLabel('Name'));
    figures['checkbox in a dialog'] = await ringContrast(
      page,
      dialog.getByRole('checkbox', { name: 'Active' }),
    );
    console.log('focus ring contrast', figures);
    for (const [where, ratio] of Object.entries(figures)) {
      expect(ratio, where).toBeGreaterThanOrEqual(3);
    }
  });

  test('on a destructive button, and on the dark call-to-action panel', async ({ page }) => {
    const agent = await createAgentViaApi(page, 'Rhea Ring');
    await page.request.post('/api/auth/login', { data: E2E_ADMIN });
    const pkg = await createPackageApi(page.request, {
      name: `Ring Pack ${uniqueTag('ring')}`,
      leadsPerDay: 1,
      priceMonthlyCents: 1_000,
    });
    await page.request.post('/api/auth/login', {
      data: { email: agent.email, password: agent.password },
    });
    await page.request.post('/api/agent/subscription', { data: { packageId: pkg.id } });
    await page.goto('/dashboard/package');
    await page.getByRole('button', { name: 'Cancel Subscription' }).click();
    const destructive = page.getByRole('dialog').getByRole('button', {
      name: 'Cancel Subscription',
    });
    const onDestructive = await ringContrast(page, destructive);
    await page.goto('/');
    const onDarkPanel = await ringContrast(page, page.getByRole('link', { name: 'Start Today' }));
    console.log('focus ring contrast', { onDestructive, onDarkPanel });
    expect(onDestructive).toBeGreaterThanOrEqual(3);
    expect(onDarkPanel).toBeGreaterThanOrEqual(3);
  });
});

/** Leads that stay NEW (no agent takes them at import): a few at a time, until two remain. */
async function waitingLeads(api: APIRequestContext, tag: string) {
  for (let attempt = 0; attempt < 8; attempt++) {
    const t = `${tag}x${attempt}`;
    const category = ['FINAL_EXPENSE', 'ACA', 'MEDICARE'][attempt % 3];
    const rows = [1, 2, 3].map(
      (i) =>
        `Fay${i},Focus${t},${uniquePhone()},fay${i}.${t}@e2e.test,Nome,AK,${40 + i},${category},${t}-${i}`,
    );
    const res = await api.post('/api/admin/leads/import', {
      multipart: {
        file: {
          name: `${t}.csv`,
          mimeType: 'text/csv',
          buffer: Buffer.from(
            `firstName,lastName,phone,email,city,state,age,category,externalId\n${rows.join('\n')}\n`,
          ),
        },
      },
    });
    expect(res.status()).toBe(200);
    const left = (await (await api.get(`/api/admin/leads?q=${t}&status=NEW`)).json()) as unknown[];
    if (left.length >= 2) return { tag: t, waiting: left.length };
  }
  throw new Error('no two leads stayed NEW');
}

test('after Assign under the "New" filter, the focus moves to the next lead, not the top', async ({
  page,
  baseURL,
}) => {
  const api = await request.newContext({ baseURL });
  await loginAdminApi(api);
  const agent = await createAgentViaApi(page, `Nell Next ${uniqueTag('f')}`);
  const { tag, waiting } = await waitingLeads(api, uniqueTag('focus'));
  await api.dispose();

  await page.request.post('/api/auth/login', { data: E2E_ADMIN });
  await page.goto('/admin/leads');
  await page.getByLabel('Search leads').fill(tag);
  await page.getByLabel('Filter by status').click();
  await page.getByRole('option', { name: 'New', exact: true }).click();
  const rows = page.getByTestId('lead-row');
  // the searched, filtered page (not the one shown while it loads)
  await expect(page.getByTestId('lead-count')).toHaveText(`${waiting} leads`);
  await expect(rows).toHaveCount(waiting);
  const before = waiting;
  const firstName = (await rows.first().locator('td').first().textContent())!;
  const secondName = (await rows.nth(1).locator('td').first().textContent())!;

  await rows
    .first()
    .getByRole('button', { name: /^Assign / })
    .click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Select Agent').click();
  await page.getByRole('option').filter({ hasText: agent.email }).click();
  await dialog.getByRole('button', { name: 'Assign Lead' }).click();
  await expect(dialog).toBeHidden();
  // assigned, the lead has left the "New" list
  await expect(rows).toHaveCount(before - 1);
  await expect(rows.filter({ hasText: firstName })).toHaveCount(0);
  // the focus is on the lead that took its place, in the list, not on <body>
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          document.activeElement?.closest('[data-testid="lead-row"]')?.querySelector('td')
            ?.textContent ?? document.activeElement?.tagName,
      ),
    )
    .toBe(secondName);
  // and Tab goes on from there, to that lead's controls
  await page.keyboard.press('Tab');
  expect(
    await page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid="lead-row"]'))),
  ).toBe(true);
});
