import { formatBusinessTime } from '@shared/format';

/** A business time that wraps between its date and its hour, never inside either. */
export function WhenText({ iso, timeZone }: { iso: string; timeZone: string }) {
  const [day, ...hour] = formatBusinessTime(iso, timeZone).split(', ');
  return (
    <time dateTime={iso}>
      <span className="whitespace-nowrap">{hour.length > 0 ? `${day},` : day}</span>{' '}
      <span className="whitespace-nowrap">{hour.join(', ')}</span>
    </time>
  );
}
