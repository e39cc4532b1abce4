import { MODEL_PRESETS, type PricingTable } from "../../../common/contract";
import { ApiRouter } from "../openapi/api-router";
import { SHORTS_CAP_BY_PLAN, SHORTS_CAP_NEVER_PURCHASED } from "../domain/plan-caps";
import { CREDITS_PER_REEL, CREDITS_PER_SHORT, CREDITS_PER_VOD_HOUR, DEFAULT_MODEL_PRESET, MAX_VOD_HOURS } from "../domain/pricing";
import { CANCEL_REFUND_TIERS } from "../domain/refund-tiers";
import { getPricing } from "./pricing.routes";

export const pricingRoutes = new ApiRouter();

export function pricingTable(): PricingTable {
  return {
    default_model_preset: DEFAULT_MODEL_PRESET,
    model_presets: MODEL_PRESETS.map((p) => ({ model_preset: p, credits_per_vod_hour: CREDITS_PER_VOD_HOUR[p] })),
    credits_per_reel: CREDITS_PER_REEL,
    credits_per_short: CREDITS_PER_SHORT,
    shorts_plan_caps: { ...SHORTS_CAP_BY_PLAN, never_purchased: SHORTS_CAP_NEVER_PURCHASED },
    max_vod_hours: MAX_VOD_HOURS,
    formula:
      "credit_cost = ceil(vod_hours x credits_per_vod_hour) + credits_per_reel x reels (executed profiles; 0 when " +
      "compilation_enabled is false) + credits_per_short x num_shorts (after the plan cap); vod_hours is the VOD's " +
      "real length: a longer VOD than billed (beyond 2 % / 60 s) reserves the difference when the renderer opens it, " +
      "a shorter one is refunded the difference at completion",
    cancel_refund_tiers: CANCEL_REFUND_TIERS.map((t) => ({
      status: t.status,
      progress_below: t.progressBelow,
      refund_percent: Math.round(t.share * 100),
    })),
  };
}

/** Public: prices are not a secret, and clients may show them before a key exists. */
pricingRoutes.openapi(getPricing, (c) => c.json(pricingTable(), 200));
