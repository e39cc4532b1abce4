import type { Plan } from "../../../common/contract";

export const SHORTS_CAP_BY_PLAN: Record<Plan, number> = { free: 3, starter: 5, pro: 10, studio: 10 };
/** An account that never bought credits gets the free cap whatever its plan. */
export const SHORTS_CAP_NEVER_PURCHASED = 3;

export function shortsCap(plan: Plan, purchased: boolean): number {
  return purchased ? SHORTS_CAP_BY_PLAN[plan] : Math.min(SHORTS_CAP_NEVER_PURCHASED, SHORTS_CAP_BY_PLAN[plan]);
}
