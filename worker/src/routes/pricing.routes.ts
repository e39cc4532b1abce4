import { PricingTable } from "../../../common/contract";
import { declareRoute } from "../openapi/declare-route";

/** GET /pricing as the document shows it (mounted at /pricing; handler in pricing.ts). */
export const getPricing = declareRoute({
  method: "get",
  path: "/",
  operationId: "getPricing",
  tag: "pricing",
  summary: "Price table",
  description: "Public: rates per model preset, reel and short prices, plan caps, cancel refund tiers.",
  auth: "public",
  success: { status: 200, description: "The numbers behind every credit_cost.", schema: PricingTable },
  errors: [],
});
