/**
 * Plain notices to a user over the delivery module's pooled SMTP transport (email-channel), for
 * other modules: the decision on a return (design 10).
 */
export { sendNoticeEmail, smtpEmailSender } from './email-channel';
