import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import {
  type DeliverySettings,
  type DeliverySettingsBody,
  deliverySettingsBody,
} from '../../../shared/contracts/delivery';

const webhookContract = deliverySettingsBody.shape.webhook.unwrap().shape;

/** An endpoint as typed: empty, or an absolute http(s) URL. */
function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * The Delivery settings form, derived from the API's request schema (deliverySettingsBody, which
 * the server validates with): the fields are the contract's own, typed as text where the body
 * takes null, and the output is the request body itself. The Authorization header is write-only:
 * empty keeps the stored one, `removeAuthHeader` sends null.
 */
export const deliveryFormSchema = z
  .object({
    email: z.object({ enabled: z.boolean() }),
    webhook: z.object({
      url: z.string().pipe(webhookContract.url.unwrap().unwrap()),
      authHeader: z.string().pipe(webhookContract.authHeader.unwrap().unwrap()),
      enabled: z.boolean(),
    }),
    removeAuthHeader: z.boolean(),
  })
  .superRefine(({ webhook }, ctx) => {
    const url = webhook.url.trim();
    if (url && !isHttpUrl(url)) {
      ctx.addIssue({
        code: 'custom',
        path: ['webhook', 'url'],
        message: 'Enter a full URL starting with https://',
      });
    } else if (!url && webhook.enabled) {
      ctx.addIssue({
        code: 'custom',
        path: ['webhook', 'url'],
        message: 'Enter the endpoint URL to enable the webhook',
      });
    }
  });

export type DeliveryFormValues = z.input<typeof deliveryFormSchema>;
type DeliveryFormOutput = z.output<typeof deliveryFormSchema>;

/** What is sent: the webhook only when the package includes it; an empty URL is none. */
export function toBody(
  values: DeliveryFormOutput,
  webhookAvailable: boolean,
): DeliverySettingsBody {
  const body: DeliverySettingsBody = { email: { enabled: values.email.enabled } };
  if (!webhookAvailable) return body;
  const url = values.webhook.url.trim();
  const authHeader = values.webhook.authHeader.trim();
  body.webhook = {
    url: url || null,
    enabled: values.webhook.enabled,
    ...(values.removeAuthHeader ? { authHeader: null } : authHeader ? { authHeader } : {}),
  };
  return deliverySettingsBody.parse(body);
}

/** The form's values for stored settings: the header is never sent back, only whether it is set. */
export function formValuesOf(settings: DeliverySettings): DeliveryFormValues {
  return {
    email: { enabled: settings.email.enabled },
    webhook: {
      url: settings.webhook.url ?? '',
      authHeader: '',
      enabled: settings.webhook.enabled,
    },
    removeAuthHeader: false,
  };
}

export const deliveryFormResolver = zodResolver(deliveryFormSchema);

/** The form's fields a server issue may name, by the body's path or the field's last part. */
export const SERVER_FIELDS = ['webhook.url', 'webhook.authHeader', 'webhook.enabled'] as const;
export type ServerField = (typeof SERVER_FIELDS)[number];

export function serverFieldOf(path: string): ServerField | undefined {
  const exact = SERVER_FIELDS.find((field) => field === path);
  if (exact) return exact;
  const last = path.split('.').at(-1);
  return SERVER_FIELDS.find((field) => field.split('.').at(-1) === last);
}

/** Masks all but the scheme's prefix of a signing secret: whsec_•••••••• */
export function maskSecret(secret: string): string {
  const prefix = secret.startsWith('whsec_') ? 'whsec_' : '';
  return `${prefix}${'•'.repeat(24)}`;
}
