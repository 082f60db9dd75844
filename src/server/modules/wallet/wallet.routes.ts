import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminCreditBody,
  adminCreditResult,
  autoRecharge,
  autoRechargeBody,
  topUpBody,
  topUpStarted,
  wallet,
  walletBalance,
  walletQuery,
} from '../../../shared/contracts/wallet';
import { businessDate } from '../../lib/business-time';
import { currentUser, requireRole } from '../../plugins/auth';
import {
  creditByAdmin,
  getWallet,
  listWalletBalances,
  setAutoRecharge,
  startTopUp,
  type WalletPayments,
} from './wallet.service';

const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** The agent's wallet and the admins' view of every wallet (docs/domain.md, The wallet). */
export const walletRoutes: FastifyPluginAsyncZod<{ payments: WalletPayments | null }> = async (
  app,
  { payments },
) => {
  const agent = { onRequest: requireRole('AGENT') };
  const admin = { onRequest: requireRole('ADMIN') };

  app.get(
    '/api/agent/wallet',
    { ...agent, schema: { querystring: walletQuery, response: { 200: wallet } } },
    (request) =>
      getWallet(
        app.db,
        currentUser(request).id,
        request.query,
        businessDate(app.config.BUSINESS_TZ),
        payments,
      ),
  );

  app.post(
    '/api/agent/wallet/top-up',
    { ...agent, schema: { body: topUpBody, response: { 200: topUpStarted } } },
    (request) => startTopUp(payments, currentUser(request).id, request.body.amountCents),
  );

  app.put(
    '/api/agent/wallet/auto-recharge',
    { ...agent, schema: { body: autoRechargeBody, response: { 200: autoRecharge } } },
    (request) => setAutoRecharge(app.db, currentUser(request).id, request.body, payments),
  );

  app.get(
    '/api/admin/wallets',
    { ...admin, schema: { response: { 200: z.array(walletBalance) } } },
    () => listWalletBalances(app.db),
  );

  app.post(
    '/api/admin/agents/:id/wallet',
    {
      ...admin,
      schema: { params: idParams, body: adminCreditBody, response: { 200: adminCreditResult } },
    },
    (request) => creditByAdmin(app.db, currentUser(request).id, request.params.id, request.body),
  );
};
