/**
 * An email address that wraps after its @ when a column is narrow ("jane.doe@" /
 * "example.com") rather than in the middle of a word. Where a part is too long even so, the
 * container decides (a table's text cell breaks it as a last resort; see DataTable).
 */
export function EmailText({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at <= 0) return email;
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  );
}
