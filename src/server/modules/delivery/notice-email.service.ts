/**
 * Plain notices to a user over the delivery module's pooled SMTP transport (email-channel), for
 * other modules: the decision on a return (docs/domain.md, Returns and credits).
 */
export { smtpEmailSender } from './email-channel';
