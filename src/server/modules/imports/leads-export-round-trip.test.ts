import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, csvRow, LEAD_EXPORT_COLUMNS } from '../leads/leads-export.service';
import { parseLeadCsv } from './lead-csv';

async function* chunks(text: string) {
  yield Buffer.from(text);
}

async function parse(text: string) {
  const leads = [];
  const errors = [];
  for await (const batch of parseLeadCsv(chunks(text))) {
    leads.push(...batch.leads);
    errors.push(...batch.errors);
  }
  return { leads, errors };
}

describe('csvCell', () => {
  it('leaves plain text and numbers as they are', () => {
    expect(csvCell('Ann')).toBe('Ann');
    expect(csvCell('555 0100')).toBe('555 0100');
    expect(csvCell('ann@example.com')).toBe('ann@example.com');
    expect(csvCell(67)).toBe('67');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell('')).toBe('');
  });

  it('quotes commas, quotes and line breaks (RFC 4180), doubling quotes', () => {
    expect(csvCell('Lee, Jr.')).toBe('"Lee, Jr."');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvCell('"')).toBe('""""');
  });

  it.each([
    ['=', '=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
    ['+', '+1 555 0100', `"'+1 555 0100"`],
    ['-', "-2+3+cmd|' /C calc'!A0", `"'-2+3+cmd|' /C calc'!A0"`],
    ['@', '@SUM(A1:A9)', `"'@SUM(A1:A9)"`],
    ['tab', '\t=1+1', `"'\t=1+1"`],
    ['CR', '\r=1+1', `"'\r=1+1"`],
  ])('neutralises a cell starting with %s: a leading quote, and quoted', (_, value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('does not neutralise those characters anywhere but at the start', () => {
    expect(csvCell('Ann-Marie')).toBe('Ann-Marie');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('x@y.com')).toBe('x@y.com');
    expect(csvCell(' =1')).toBe(' =1');
  });

  it('never lets a cell start a formula, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (value) => {
        const cell = csvCell(value);
        if (!cell.startsWith('"')) return !/[",\r\n]/.test(cell) && !/^[=+\-@\t\r]/.test(cell);
        const inner = cell.slice(1, -1);
        // sound quoting: nothing but doubled quotes inside; what a spreadsheet sees is inert
        const seen = inner.replaceAll('""', '"');
        return (
          cell.endsWith('"') &&
          !inner.replaceAll('""', '').includes('"') &&
          !/^[=+\-@\t\r]/.test(seen)
        );
      }),
      { numRuns: 1000 },
    );
  });
});

describe('csvRow', () => {
  it('joins cells with commas and ends the record with CRLF', () => {
    expect(csvRow(['a', 'b,c', null, 5])).toBe('a,"b,c",,5\r\n');
    expect(csvRow(LEAD_EXPORT_COLUMNS)).toBe(
      'firstName,lastName,phone,email,city,state,age,category,status,externalId,createdAt,agentName,agentEmail,assignedAt,zip,timeZone,consentAt,consentText,trustedFormCertUrl,jornayaLeadId,consentIp\r\n',
    );
  });

  it("reads back through the import's parser unchanged (an export can be imported again)", async () => {
    const text = fc.string({ minLength: 1, maxLength: 30 }).map((s) => s.trim());
    const safe = text.filter((s) => s !== '' && !/^[=+\-@]/.test(s));
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            firstName: safe,
            lastName: safe,
            city: safe,
            externalId: safe,
            consentText: safe,
          }),
          {
            minLength: 1,
            maxLength: 5,
          },
        ),
        async (rows) => {
          const unique = rows.map((r, i) => ({ ...r, externalId: `${i}-${r.externalId}` }));
          let csv = csvRow(LEAD_EXPORT_COLUMNS);
          for (const r of unique) {
            csv += csvRow([
              r.firstName,
              r.lastName,
              '(512) 555-0100',
              'ann@example.com',
              r.city,
              'TX',
              67,
              'MEDICARE',
              'ASSIGNED',
              r.externalId,
              '2030-01-01T00:00:00.000Z',
              r.lastName,
              'agent@example.com',
              '2030-01-02T00:00:00.000Z',
              '78701',
              'America/Chicago',
              '2029-12-31T23:00:00.000Z',
              r.consentText,
              'https://cert.trustedform.com/0123456789abcdef',
              'LEADID-1234-ABCD',
              '203.0.113.7',
            ]);
          }
          const parsed = await parse(csv);
          expect(parsed.errors).toEqual([]);
          expect(
            parsed.leads.map((l) => ({
              firstName: l.firstName,
              lastName: l.lastName,
              city: l.city,
              externalId: l.externalId,
              consentText: l.consentText,
            })),
          ).toEqual(unique);
          // the ZIP, its zone and the consent come back as they went out
          for (const l of parsed.leads) {
            expect(l).toMatchObject({
              zip: '78701',
              timeZone: 'America/Chicago',
              consentAt: '2029-12-31T23:00:00.000Z',
              trustedFormCertUrl: 'https://cert.trustedform.com/0123456789abcdef',
              jornayaLeadId: 'LEADID-1234-ABCD',
              consentIp: '203.0.113.7',
            });
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a neutralised cell reads back with its leading quote: inert in the database too', async () => {
    const csv =
      csvRow(LEAD_EXPORT_COLUMNS) +
      csvRow([
        '=1+1',
        '@x',
        '512-555-0100',
        null,
        'Tulsa',
        'OK',
        61,
        'ACA',
        'NEW',
        'n-1',
        null,
        'Ann Agent',
        'a@x.com',
        null,
        null,
        null,
        null,
        '=cmd|x',
        null,
        null,
        null,
      ]);
    const parsed = await parse(csv);
    expect(parsed.errors).toEqual([]);
    expect(parsed.leads[0]).toMatchObject({
      firstName: "'=1+1",
      lastName: "'@x",
      city: 'Tulsa',
      externalId: 'n-1',
      consentText: "'=cmd|x",
    });
  });
});
