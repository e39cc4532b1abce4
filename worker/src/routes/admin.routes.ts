import { z } from "zod";
import {
  AccountDetail,
  AccountList,
  AccountSummary,
  boundedIntString,
  CreateAccountInput,
  CreatedAccount,
  CreatedApiKey,
  CreditBalance,
  CreditsInput,
  ListJobsQuery,
  RevokedApiKey,
  UpdateAccountInput,
} from "../../../common/contract";
import { declareRoute } from "../openapi/declare-route";
import { EXAMPLE_BODIES } from "../openapi/examples";

/** The operator API as the document shows it (mounted at /admin; handlers in admin.ts, which checks the token). */

const accountId = (description: string) => z.object({ id: z.string().meta({ description }) });

/** Paging of the account list: the same rules as GET /jobs (page 1-100000, page_size 1-100, default 20). */
const AccountPageQuery = ListJobsQuery.pick({ page: true, page_size: true });

const LedgerQuery = z.object({
  ledger_limit: boundedIntString(1000).optional().default(50).meta({ description: "Newest ledger entries to include, 1-1000 (default 50)." }),
});

export const adminCreateAccount = declareRoute({
  method: "post",
  path: "/accounts",
  operationId: "adminCreateAccount",
  tag: "operator",
  summary: "Create an account with its first API key",
  auth: "admin",
  body: { schema: CreateAccountInput, examples: EXAMPLE_BODIES.createAccount },
  success: { status: 201, description: "The account, its API key (shown once) and webhook signing secret.", schema: CreatedAccount },
  errors: [],
});

export const adminListAccounts = declareRoute({
  method: "get",
  path: "/accounts",
  operationId: "adminListAccounts",
  tag: "operator",
  summary: "List accounts",
  auth: "admin",
  query: AccountPageQuery,
  success: { status: 200, description: "One page of accounts.", schema: AccountList },
  errors: [],
});

export const adminGetAccount = declareRoute({
  method: "get",
  path: "/accounts/{id}",
  operationId: "adminGetAccount",
  tag: "operator",
  summary: "One account with keys and credit ledger",
  auth: "admin",
  params: accountId("Account id (`acct_` + ULID)."),
  query: LedgerQuery,
  success: { status: 200, description: "The account.", schema: AccountDetail },
  errors: ["account_not_found"],
});

export const adminUpdateAccount = declareRoute({
  method: "patch",
  path: "/accounts/{id}",
  operationId: "adminUpdateAccount",
  tag: "operator",
  summary: "Change an account's plan",
  auth: "admin",
  params: accountId("Account id."),
  body: { schema: UpdateAccountInput, examples: EXAMPLE_BODIES.updateAccount },
  success: { status: 200, description: "The updated account.", schema: AccountSummary },
  errors: ["account_not_found"],
});

export const adminAddApiKey = declareRoute({
  method: "post",
  path: "/accounts/{id}/keys",
  operationId: "adminAddApiKey",
  tag: "operator",
  summary: "Issue another API key",
  auth: "admin",
  params: accountId("Account id."),
  success: { status: 201, description: "The new key (shown once).", schema: CreatedApiKey },
  errors: ["account_not_found"],
});

export const adminRevokeApiKey = declareRoute({
  method: "delete",
  path: "/accounts/{id}/keys/{keyId}",
  operationId: "adminRevokeApiKey",
  tag: "operator",
  summary: "Revoke an API key",
  description: "The key answers 401 from then on. Revoking twice keeps the first revocation time.",
  auth: "admin",
  params: accountId("Account id.").extend({ keyId: z.string().meta({ description: "Key id (`key_` + ULID)." }) }),
  success: { status: 200, description: "Revoked.", schema: RevokedApiKey },
  errors: ["account_not_found", "key_not_found"],
});

export const adminChangeCredits = declareRoute({
  method: "post",
  path: "/accounts/{id}/credits",
  operationId: "adminChangeCredits",
  tag: "operator",
  summary: "Add or remove credits",
  description: "A purchase (positive) lifts the never-purchased shorts cap; a change below a zero balance is 422 on `amount`.",
  auth: "admin",
  params: accountId("Account id."),
  body: { schema: CreditsInput, examples: EXAMPLE_BODIES.credits },
  success: { status: 200, description: "The new balance.", schema: CreditBalance },
  errors: ["account_not_found"],
});
